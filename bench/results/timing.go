package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
)

// TimingsFile holds each played episode's wall-clock time, one JSON line
// per episode as it finishes. Like invocations.jsonl it is provenance, not
// results: the same run on another machine, or resumed, or sharded, gives
// other times and the same results, which is why these figures are kept
// out of results.jsonl and summary.json (whose bytes the tests compare).
const TimingsFile = "timings.jsonl"

// Timing is one episode's wall-clock cost.
type Timing struct {
	Index     int     `json:"index"` // position in the expanded suite
	ID        string  `json:"id"`
	WallMs    float64 `json:"wall_ms"`         // generation, play and scoring of the episode
	Decisions int     `json:"decisions"`       // the agent's actions
	PerStepMs float64 `json:"ms_per_decision"` // WallMs / Decisions
}

// ReadTimings reads dir's timings.jsonl (none if missing), keeping every
// whole line, the last one of an episode played again (a resume), in
// suite order.
func ReadTimings(dir string) ([]Timing, error) {
	data, err := os.ReadFile(filepath.Join(dir, TimingsFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	byIndex := map[int]Timing{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var t Timing
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &t) != nil {
			continue // a line torn by a crash, perhaps before lines a resume added
		}
		byIndex[t.Index] = t
	}
	out := make([]Timing, 0, len(byIndex))
	for _, t := range byIndex {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Timing) int { return a.Index - b.Index })
	return out, nil
}

// TimingSummary is the median and 90th percentile of a run's episode wall
// times and times per decision.
type TimingSummary struct {
	Episodes                      int
	WallMedianMs, WallP90Ms       float64
	PerStepMedianMs, PerStepP90Ms float64
}

// SummarizeTimings summarises ts (zero when empty).
func SummarizeTimings(ts []Timing) TimingSummary {
	s := TimingSummary{Episodes: len(ts)}
	if len(ts) == 0 {
		return s
	}
	wall, per := make([]float64, len(ts)), make([]float64, len(ts))
	for i, t := range ts {
		wall[i], per[i] = t.WallMs, t.PerStepMs
	}
	slices.Sort(wall)
	slices.Sort(per)
	s.WallMedianMs, s.WallP90Ms = quantile(wall, 0.5), quantile(wall, 0.9)
	s.PerStepMedianMs, s.PerStepP90Ms = quantile(per, 0.5), quantile(per, 0.9)
	return s
}
