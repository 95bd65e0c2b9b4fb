package results

import (
	"fmt"
	"slices"
)

// ProbeSkill is a group's figure of one probe skill (state_skill,
// world_model_skill): the claims it rests on, the mean of its episodes'
// skills and a 95% percentile bootstrap interval of that mean over the
// episodes, which stays within the skill's range [−1, 1] as every
// resampled mean does.
type ProbeSkill struct {
	Claims   int     `json:"claims"`
	Episodes int     `json:"episodes"`
	Mean     float64 `json:"mean"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
}

// probeResamples is the bootstrap's resample count; probeSeed seeds it,
// so a summary written twice holds the same interval.
const (
	probeResamples = 2000
	probeSeed      = 0x70726f6265
)

// probeSkill aggregates the episodes' skills (any order: they are sorted
// first, so the interval does not depend on it); nil when none measured it.
func probeSkill(skills []float64, claims int) *ProbeSkill {
	if len(skills) == 0 {
		return nil
	}
	sorted := slices.Clone(skills)
	slices.Sort(sorted)
	mean, lo, hi := PairedBootstrap(sorted, probeResamples, probeSeed)
	return &ProbeSkill{Claims: claims, Episodes: len(skills), Mean: mean, Low: max(lo, -1), High: min(hi, 1)}
}

// String writes the figure as the terminal line and the report show it:
// "+0.42 [+0.35, +0.49] over 1234 claims", or "–" when not measured.
func (p *ProbeSkill) String() string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%+.2f [%+.2f, %+.2f] over %d claims", p.Mean, p.Low, p.High, p.Claims)
}
