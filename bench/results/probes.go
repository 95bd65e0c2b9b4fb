package results

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/longcraft/longcraft/bench/episode"
)

// ProbeSkill is a group's figure of one probe skill (state_skill,
// world_model_skill): the skill of the group's claims pooled
// (episode.ProbeSkill of the summed tallies, so that an episode where the
// baseline was right on every claim, which scores 0 alone, neither
// lowers nor raises it), the claims and episodes it rests on, and a 95%
// percentile bootstrap interval that resamples the episodes (the claims
// of one episode are not independent), which stays within the skill's
// range [−1, 1] as every resample's skill does.
type ProbeSkill struct {
	Claims   int     `json:"claims"`
	Episodes int     `json:"episodes"`
	Skill    float64 `json:"skill"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
}

// probeTally is one episode's claims: how many, how many held, how many
// the stronger baseline got right.
type probeTally struct{ claims, right, baseline int }

// probeResamples is the bootstrap's resample count; probeSeed seeds it,
// so a summary written twice holds the same interval.
const (
	probeResamples = 2000
	probeSeed      = 0x70726f6265
)

// probeSkill aggregates the episodes' tallies (any order: they are sorted
// first, so the interval does not depend on it); nil when no episode
// claimed anything.
func probeSkill(episodes []probeTally) *ProbeSkill {
	var ts []probeTally
	for _, e := range episodes {
		if e.claims > 0 {
			ts = append(ts, e)
		}
	}
	if len(ts) == 0 {
		return nil
	}
	slices.SortFunc(ts, func(a, b probeTally) int {
		return cmp.Or(cmp.Compare(a.claims, b.claims), cmp.Compare(a.right, b.right), cmp.Compare(a.baseline, b.baseline))
	})
	pooled := func(pick func(i int) probeTally) float64 {
		var sum probeTally
		for i := range ts {
			t := pick(i)
			sum.claims, sum.right, sum.baseline = sum.claims+t.claims, sum.right+t.right, sum.baseline+t.baseline
		}
		return episode.ProbeSkill(sum.right, sum.baseline, sum.claims).Value
	}
	p := &ProbeSkill{Episodes: len(ts), Skill: pooled(func(i int) probeTally { return ts[i] })}
	for _, t := range ts {
		p.Claims += t.claims
	}
	rng := rand.New(rand.NewPCG(probeSeed, uint64(len(ts))))
	skills := make([]float64, probeResamples)
	for r := range skills {
		skills[r] = pooled(func(int) probeTally { return ts[rng.IntN(len(ts))] })
	}
	slices.Sort(skills)
	p.Low, p.High = max(quantile(skills, 0.025), -1), min(quantile(skills, 0.975), 1)
	return p
}

// String writes the figure as the terminal line and the report show it:
// "+0.42 [+0.35, +0.49] over 1234 claims", or "–" when not measured.
func (p *ProbeSkill) String() string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%+.2f [%+.2f, %+.2f] over %d claims", p.Skill, p.Low, p.High, p.Claims)
}
