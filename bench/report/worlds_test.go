package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// TestFixedMapPairsAreOneWorld: ten episodes of one fixed map that one run
// wins and the other loses are one discordant world, not ten: no p < 0.01
// from a single observation.
func TestFixedMapPairsAreOneWorld(t *testing.T) {
	sc := &task.Scenario{Name: "grid", Ruleset: "classic", Map: "@.....\n......\n......\n......\n......\n......\n", Goal: task.Reach(5, 5), Fixed: true}
	write := func(agent string, win bool) string {
		dir := t.TempDir()
		var rs []results.Result
		for i := range 10 {
			sp := task.Spec{Family: "grid", Tier: task.TierScenario, Split: task.Eval, Index: uint64(i), Budget: 50, Scenario: sc}
			rs = append(rs, results.Result{Index: i, ID: sp.ID(), Spec: sp, Agent: agent, Lock: "L", Seed: task.SeedFor(sp.Split, sp.Family, sp.Tier, sp.Index),
				Observability: "full", Feedback: "full", Metrics: episode.Metrics{Steps: 10, Success: win}})
		}
		s := results.Summarize("mine", agent, rs)
		require.NoError(t, results.WriteSummary(filepath.Join(dir, results.SummaryFile), s))
		require.NoError(t, results.WriteSorted(filepath.Join(dir, results.ResultsFile), rs))
		return dir
	}
	c, err := Compare([]string{write("a", true), write("b", false)}, CompareOptions{})
	require.NoError(t, err)
	var scen *Paired
	for i := range c.Pairs {
		if strings.HasPrefix(c.Pairs[i].Scope, "grid/"+task.TierScenario+" ") {
			scen = &c.Pairs[i]
		}
	}
	require.NotNil(t, scen)
	assert.Equal(t, 1, scen.N, "one world")
	assert.Equal(t, [2]int{1, 0}, [2]int{scen.OnlyA, scen.OnlyB})
	assert.InDelta(t, 1.0, scen.P, 1e-12)
	lo, hi := results.WilsonRate(1, 1)
	require.Len(t, c.Groups, 1)
	for _, g := range c.Groups {
		assert.Equal(t, [2]float64{lo, hi}, [2]float64{g[0].Low, g[0].High}, "the group's interval is over one world")
		assert.Equal(t, "fixed map: 1 distinct world", g[0].WorldsNote())
	}
}
