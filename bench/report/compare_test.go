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

// tieredRun writes a run of agent over tiers, wins[tier] successes of n each.
func tieredRun(t *testing.T, agent string, n int, wins map[string]int) string {
	t.Helper()
	dir := t.TempDir()
	var rs []results.Result
	for _, tier := range []string{"easy", "medium", "hard"} {
		for i := range n {
			sp := task.Spec{Family: "obtain", Tier: tier, Split: task.Eval, Index: uint64(i)}
			rs = append(rs, results.Result{Index: len(rs), ID: sp.ID(), Spec: sp, Agent: agent, Lock: "L",
				Observability: "partial", Feedback: "full", Metrics: episode.Metrics{Steps: 10, Success: i < wins[tier]}})
		}
	}
	s := results.Summarize("mine", agent, rs)
	require.NoError(t, results.WriteSummary(filepath.Join(dir, results.SummaryFile), s))
	require.NoError(t, results.WriteSorted(filepath.Join(dir, results.ResultsFile), rs))
	return dir
}

// TestSameAgentTierLabels: two runs of one agent over several tiers:
// every tier row of a run must carry that run's label. The relabelling
// loop renames only the first matching TierSuccess (break), so run 0's
// medium row becomes run 1's, and the chart/table attribute rates to the
// wrong run.
func TestSameAgentTierLabels(t *testing.T) {
	a := tieredRun(t, "explorer", 10, map[string]int{"easy": 10, "medium": 9, "hard": 8})
	b := tieredRun(t, "explorer", 10, map[string]int{"easy": 1, "medium": 2, "hard": 3})
	c, err := Compare([]string{a, b}, CompareOptions{})
	require.NoError(t, err)
	want := [2]map[string]float64{
		{"easy": 1.0, "medium": 0.9, "hard": 0.8},
		{"easy": 0.1, "medium": 0.2, "hard": 0.3},
	}
	require.Len(t, c.Keys, 3)
	for _, k := range c.Keys {
		require.Len(t, c.Groups[k], 2)
		for run, g := range c.Groups[k] {
			assert.InDelta(t, want[run][g.Tier], g.Rate, 1e-9, "%s on %s", c.Agents[run], k)
		}
	}
}

// TestSentenceAgreesWithItsInterval: 100 paired episodes, 5
// discordant pairs all won by A. Newcombe's paired interval excludes 0
// ([+0.3, +9.6]) while the exact McNemar p is 0.0625, and the sentence says
// "do not differ detectably" would sit next to an interval that says they
// do: the sentence must say when the two disagree.
func TestSentenceAgreesWithItsInterval(t *testing.T) {
	var ra, rb []results.Result
	for i := range 100 {
		sp := task.Spec{Family: "obtain", Tier: "hard", Split: task.Eval, Index: uint64(i)}
		a := results.Result{Index: i, ID: sp.ID(), Spec: sp, Agent: "a", Lock: "L", Metrics: episode.Metrics{Steps: 1, Success: i < 55}}
		b := a
		b.Agent, b.Success = "b", i < 50
		ra, rb = append(ra, a), append(rb, b)
	}
	for _, p := range comparePair("a", "b", ra, rb, true, nil, nil, nil) {
		if !strings.HasPrefix(p.Scope, "obtain/hard ") {
			continue
		}
		t.Logf("%s", p.Sentence)
		excludesZero := p.Lo > 0 || p.Hi < 0
		if excludesZero != (p.P < 0.05) {
			// Here the two procedures disagree (5 vs 0 discordant pairs):
			// the sentence must say so, not pick a side.
			assert.Contains(t, p.Sentence, "borderline")
			assert.Contains(t, p.Sentence, "disagree")
			assert.NotContains(t, p.Sentence, "do not differ detectably")
			assert.NotContains(t, p.Sentence, "beats")
		}
	}
}

// TestPairingNeedsTheSameTask: two runs of generated tasks (no lock,
// so "the same lock" is "" == "") pair episodes by id alone. Runs of
// different builds (rules versions) or certification settings generate
// other worlds under the same id; here every pair has different seeds and
// goals, and the comparison still reports them as paired episodes with an
// exact McNemar test.
func TestPairingNeedsTheSameTask(t *testing.T) {
	var ra, rb []results.Result
	for i := range 20 {
		sp := task.Spec{Family: "obtain", Tier: "easy", Split: task.Eval, Index: uint64(i)}
		a := results.Result{Index: i, ID: sp.ID(), Spec: sp, Agent: "a", Seed: uint64(1000 + i), Goal: "obtain wood",
			Metrics: episode.Metrics{Steps: 1, Success: true}}
		b := a
		b.Agent, b.Seed, b.Goal, b.Success = "b", uint64(5000+i), "obtain stone", false
		ra, rb = append(ra, a), append(rb, b)
	}
	for _, p := range comparePair("a", "b", ra, rb, true, nil, nil, nil) {
		if strings.HasPrefix(p.Scope, "obtain/easy ") {
			assert.Zero(t, p.N, "episodes of different seeds and goals must not be paired: %s", p.Sentence)
		}
	}
}

// The comparison's family/tier rows are sorted by family, then by
// task.TierRank of what follows the "/" in the key: since the key gained
// " (... view, ... feedback, budget N)", that is never a tier name, every
// rank is len(tiers), and rows keep the order runs happened to list them
// (hard before easy here; budgets neither sorted).
func TestComparisonRowsInTierOrder(t *testing.T) {
	onlyHard := run(t, "a", "L", 10, 5, "hard")
	easy := run(t, "b", "L", 10, 7, "easy")
	c, err := Compare([]string{onlyHard, easy}, CompareOptions{})
	require.NoError(t, err)
	var ranks []int
	for _, k := range c.Keys {
		_, rest, _ := strings.Cut(k, "/")
		tier, _, _ := strings.Cut(rest, " ")
		ranks = append(ranks, task.TierRank(tier))
	}
	for i := 1; i < len(ranks); i++ {
		require.LessOrEqual(t, ranks[i-1], ranks[i], "rows out of tier order: %q", c.Keys)
	}
}
