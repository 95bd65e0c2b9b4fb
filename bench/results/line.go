package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/internal/json64"
)

// skillOf is a probe skill as a line holds it: a number, or null.
func skillOf(v *float64) episode.Measure {
	if v == nil {
		return episode.Measure{}
	}
	return episode.Measured(*v)
}

// Measured returns every declared metric (Metrics) of the episode by
// name: its value, or not measured. An errored episode (its task could
// not be generated) measures none, as the summary leaves it out.
func (r Result) Measured() map[string]episode.Measure {
	out := make(map[string]episode.Measure, len(Metrics()))
	for _, m := range Metrics() {
		if v, ok := m.Of(r); ok && r.Err == "" {
			out[m.Name] = episode.Measured(v)
		} else {
			out[m.Name] = episode.Measure{}
		}
	}
	return out
}

// resultLine is a results line: the result's fields, and its declared
// metrics under "metrics", null where not measured, so that a reader of
// results.jsonl alone (jq, pandas) aggregates exactly what the summary
// aggregates without re-deriving a metric from its fields.
type resultLine struct {
	plainResult
	Measured map[string]episode.Measure `json:"metrics"`
}

type plainResult Result // Result's fields, without its JSON methods

// MarshalJSON writes a results line.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultLine{plainResult: plainResult(r), Measured: r.Measured()})
}

// UnmarshalJSON reads a results line, old or new; its "metrics" are
// derived from its fields, so they are not read back (DisagreeingMetrics
// checks them). Its seed is a string, as Longcraft writes it, or a bare
// number, as it wrote it before (so older run directories still resume,
// merge and verify). Lines written before the behaviour ratios could be
// null said 0 for "not measured": an episode of no step has no
// valid-action ratio, one with no failed action no repeated-failure rate.
func (r *Result) UnmarshalJSON(b []byte) error {
	var p plainResult
	line := struct {
		*plainResult
		Seed json64.Uint `json:"seed"` // shadows the field's, which reads strings only
		// The probe skills lie in [−1, 1]: −1 is a value, never the old
		// "not measured" a Measure reads it as (no line wrote a skill
		// before Measure existed).
		StateSkill      *float64 `json:"state_skill"`
		WorldModelSkill *float64 `json:"world_model_skill"`
	}{plainResult: &p}
	if err := json.Unmarshal(b, &line); err != nil {
		return err
	}
	p.Seed = uint64(line.Seed)
	p.StateSkill, p.WorldModelSkill = skillOf(line.StateSkill), skillOf(line.WorldModelSkill)
	*r = Result(p)
	if r.Steps == 0 {
		r.ValidActionRatio = episode.Measure{}
	}
	if r.FailedActions == 0 {
		r.RepeatedFailures = episode.Measure{}
	}
	return nil
}

// DisagreeingMetrics reads the results.jsonl at path and says, by
// episode index, where a line's "metrics" are not what its fields give:
// a line edited in one place and not the other (longcraft verify names
// them). Lines without metrics (written before lines held them) and a
// torn last line are not checked.
func DisagreeingMetrics(path string) (map[int]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for _, b := range bytes.Split(data, []byte("\n")) {
		var line struct {
			Measured map[string]*float64 `json:"metrics"` // plain numbers: a Measure would read a return of -1 as the old "not measured"
		}
		var r Result
		if json.Unmarshal(b, &line) != nil || json.Unmarshal(b, &r) != nil || line.Measured == nil {
			continue
		}
		if why := disagreement(line.Measured, r.Measured()); why != "" {
			out[r.Index] = why
		}
	}
	return out, nil
}

// disagreement names the first metric in which a line's metrics differ
// from what its fields give; "" when they agree.
func disagreement(got map[string]*float64, want map[string]episode.Measure) string {
	for _, name := range slices.Sorted(maps.Keys(want)) {
		v := want[name]
		g, ok := got[name]
		if !ok || (g == nil) != !v.OK || g != nil && *g != v.Value {
			return fmt.Sprintf("metrics.%s %s in %s, its fields give %s", name, numberText(g, ok), ResultsFile, measureText(v))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			return fmt.Sprintf("metrics.%s in %s is no declared metric", name, ResultsFile)
		}
	}
	return ""
}

func numberText(v *float64, present bool) string {
	switch {
	case !present:
		return "missing"
	case v == nil:
		return "null"
	}
	return fmt.Sprint(*v)
}

func measureText(m episode.Measure) string {
	if !m.OK {
		return "null"
	}
	return fmt.Sprint(m.Value)
}
