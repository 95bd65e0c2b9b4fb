// Tests written by an adversarial review of the crash-safety, resume,
// merge, trace-limit and comparison code. Each failed on the code as it
// was reviewed; their comments describe the bug as it was found. They
// stay as regression tests.

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

// reviewRun writes a run of agent over tiers, wins[tier] successes of n each.
func reviewRun(t *testing.T, agent string, n int, wins map[string]int) string {
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

// TestReviewSameAgentTierLabels: two runs of one agent over several tiers:
// every tier row of a run must carry that run's label. The relabelling
// loop renames only the first matching TierSuccess (break), so run 0's
// medium row becomes run 1's, and the chart/table attribute rates to the
// wrong run.
func TestReviewSameAgentTierLabels(t *testing.T) {
	a := reviewRun(t, "explorer", 10, map[string]int{"easy": 10, "medium": 9, "hard": 8})
	b := reviewRun(t, "explorer", 10, map[string]int{"easy": 1, "medium": 2, "hard": 3})
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

// TestReviewSentenceAgreesWithItsInterval: 100 paired episodes, 5
// discordant pairs all won by A. Newcombe's paired interval excludes 0
// ([+0.3, +9.6]) while the exact McNemar p is 0.0625, and the sentence says
// "do not differ detectably" next to an interval that says they do (found
// by the review). The sentence now says when they disagree.
func TestReviewSentenceAgreesWithItsInterval(t *testing.T) {
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

// TestReviewPairingNeedsTheSameTask: two runs of generated tasks (no lock,
// so "the same lock" is "" == "") pair episodes by id alone. Runs of
// different builds (rules versions) or certification settings generate
// other worlds under the same id; here every pair has different seeds and
// goals, and the comparison still reports them as paired episodes with an
// exact McNemar test.
func TestReviewPairingNeedsTheSameTask(t *testing.T) {
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
