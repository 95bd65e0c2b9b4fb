package results

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
)

// TestFixedMapIntervalsCountWorlds: ten episodes of one fixed map are one
// observation; the summary says so and its interval is over one world,
// while the same scenario varied by its seed keeps an interval over its
// episodes.
func TestFixedMapIntervalsCountWorlds(t *testing.T) {
	grid := "@.....\n......\n......\n......\n......\n......\n"
	fixed := &task.Scenario{Name: "grid", Ruleset: "classic", Map: grid, Goal: task.Reach(5, 5), Fixed: true}
	varied := &task.Scenario{Name: "grid", Ruleset: "classic", Map: grid, Goal: task.Reach(5, 5), Vary: []string{task.VaryStart, task.VaryWaypoints}}
	cases := []struct {
		name   string
		sc     *task.Scenario
		worlds int
		note   string
	}{
		{"fixed", fixed, 1, "fixed map: 1 distinct world"},
		{"varied", varied, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rs []Result
			for i := 0; i < 10; i++ {
				sp := task.Spec{Family: "grid", Tier: task.TierScenario, Split: task.Eval, Index: uint64(i), Budget: 50, Scenario: c.sc}
				seed := task.SeedFor(sp.Split, sp.Family, sp.Tier, sp.Index)
				r := Result{Index: i, ID: sp.ID(), Spec: sp, Seed: seed, Observability: "full", Feedback: "full"}
				r.Success = i%2 == 0
				rs = append(rs, r)
			}
			s := Summarize("s", "a", rs)
			require.Len(t, s.Groups, 1)
			g := s.Groups[0]
			assert.Equal(t, 10, g.Episodes)
			assert.InDelta(t, 0.5, g.Rate, 1e-12)
			assert.Equal(t, c.worlds, g.Worlds)
			assert.Equal(t, c.note, g.WorldsNote())
			n := 10
			if c.worlds > 0 {
				n = c.worlds
			}
			lo, hi := WilsonRate(0.5, n)
			assert.InDelta(t, lo, g.Low, 1e-12)
			assert.InDelta(t, hi, g.High, 1e-12)
			if c.worlds == 1 {
				assert.Less(t, g.Low, 0.1, "one observation of a coin says little")
				assert.Greater(t, g.High, 0.9)
			}
		})
	}
}

// TestWilsonRateAgreesWithWilson: over k of n, the rate's interval is the
// counts' one.
func TestWilsonRateAgreesWithWilson(t *testing.T) {
	for _, c := range [][2]int{{0, 10}, {3, 10}, {10, 10}, {7, 20}, {0, 1}, {1, 1}} {
		lo, hi := Wilson(c[0], c[1])
		l2, h2 := WilsonRate(float64(c[0])/float64(c[1]), c[1])
		assert.InDelta(t, lo, l2, 1e-12, "%v", c)
		assert.InDelta(t, hi, h2, 1e-12, "%v", c)
	}
}
