package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// TestOpenEndedHeadline: a suite where no task defines success (Crafter's
// free play) leads with Crafter's score and progression, per-achievement
// bars and the anytime curve of unlocks, and shows no success figure,
// column or chart in the page, the terminal table or summary.json; a
// suite with goal tasks keeps them, and lists its open-ended episodes one
// line per ruleset.
func TestOpenEndedHeadline(t *testing.T) {
	free := &task.Scenario{Name: "crafter", Ruleset: "classic", Goal: task.Goal{Kind: task.KindAchievements}}
	open := []results.Result{
		{Index: 0, ID: "crafter/0", Spec: task.Spec{Family: "crafter", Tier: task.TierScenario, Scenario: free}, Ruleset: "classic", Observability: "partial", Feedback: "none",
			Metrics: episode.Metrics{End: "death", Steps: 300, Achievements: 1 | 1<<21, Unlocked: 2, UnlockSteps: []int{10, 200}}},
		{Index: 1, ID: "crafter/1", Spec: task.Spec{Family: "crafter", Tier: task.TierScenario, Scenario: free}, Ruleset: "classic", Observability: "partial", Feedback: "none",
			Metrics: episode.Metrics{End: "death", Steps: 100, Achievements: 1 << 21, Unlocked: 1, UnlockSteps: []int{50}}},
	}
	ext := len(sim.Extended().Achievements) // the extended table's own count, not pinned
	mixed := append(twoResults("explorer"), results.Result{Index: 2, ID: "achievements/hard/0", Spec: task.Spec{Family: "achievements", Tier: "hard"}, Ruleset: "extended+variants",
		Observability: "partial", Feedback: "reason", Metrics: episode.Metrics{End: "goal", Success: true, Steps: 900, Achievements: 1<<ext - 1, Unlocked: ext, UnlockSteps: make([]int, ext)}})
	for _, tc := range []struct {
		name       string
		rs         []results.Result
		open       bool
		rulesetRow string
	}{
		{"crafter", open, true, `<td class="l">classic</td><td>22</td><td>2</td>`},
		{"standard", mixed, false, fmt.Sprintf(`<td class="l">extended&#43;variants</td><td>%d</td><td>1</td><td><b>100.00%%</b></td><td><b>100.00%%</b></td>`, ext)},
	} {
		s := results.Summarize(tc.name, "random", tc.rs)
		assert.Equal(t, tc.open, s.SuccessUndefined(), tc.name)
		path := filepath.Join(t.TempDir(), results.ReportFile)
		require.NoError(t, WriteReport(path, s, tc.rs))
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		page := string(data)
		for _, want := range []string{"Crafter score and progression, per ruleset", tc.rulesetRow, `aria-label="achievements unlocked by step`} {
			assert.True(t, strings.Contains(page, want), "%s: the page shows %s", tc.name, want)
		}
		var table bytes.Buffer
		require.NoError(t, results.WriteTable(&table, s))
		summary, err := json.Marshal(s)
		require.NoError(t, err)
		for _, shown := range []string{"Success by group", "<th>success (95% CI)</th>", "Failed episodes", "Success by step"} {
			assert.Equal(t, !tc.open, bytes.Contains(data, []byte(shown)), "%s: %q", tc.name, shown)
		}
		assert.Equal(t, !tc.open, bytes.Contains(table.Bytes(), []byte("success (95% CI)")), "%s: the table's success column", tc.name)
		if tc.open {
			assert.True(t, strings.Contains(page, "collect_coal"), "the achievements' bars")
			assert.Regexp(t, `^open-ended, classic rules \(22 achievements\): 2 episodes, Crafter score`, table.String(), "the table leads with it")
			assert.Contains(t, string(summary), `"success_rate":null`)
			assert.False(t, strings.Contains(page, "crafter/1"), "an episode without a goal is not a failure")
		}
	}
}

// TestOpenEndedComparison: comparing runs of a suite where no task
// defines success shows each run's Crafter score and progression per
// ruleset, as its summary has them, and no success figure or chart.
func TestOpenEndedComparison(t *testing.T) {
	free := &task.Scenario{Name: "crafter", Ruleset: "classic", Goal: task.Goal{Kind: task.KindAchievements}}
	play := func(ach ...uint64) []results.Result {
		var rs []results.Result
		for i, a := range ach {
			rs = append(rs, results.Result{Index: i, ID: "crafter/" + string(rune('0'+i)), Spec: task.Spec{Family: "crafter", Tier: task.TierScenario, Scenario: free}, Ruleset: "classic",
				Observability: "partial", Feedback: "none", Metrics: episode.Metrics{End: "death", Steps: 100, Achievements: a, Unlocked: bits.OnesCount64(a), UnlockSteps: make([]int, bits.OnesCount64(a))}})
		}
		return rs
	}
	weak, strong := play(0, 1), play(1|1<<3, 1|1<<5|1<<7)
	dirs := []string{writeRun(t, "weak", weak), writeRun(t, "strong", strong)}
	c, err := Compare(dirs, CompareOptions{})
	require.NoError(t, err)
	require.True(t, c.Open)
	path := filepath.Join(t.TempDir(), "compare.html")
	require.NoError(t, WriteComparison(path, c))
	page := readPage(t, path)
	assert.Contains(t, page, "Crafter score and progression, per ruleset")
	for i, rs := range [][]results.Result{weak, strong} {
		l := results.Summarize("fixture", "x", rs).OpenEnded
		require.Len(t, l, 1)
		assert.Contains(t, page, fmt.Sprintf(`<td data-metric="crafter_score">%.2f%%</td><td data-metric="progression">%.2f%% ± %.2f`, l[0].CrafterScore, l[0].Progression, l[0].ProgressionSE), "run %d", i)
	}
	for _, hidden := range []string{"Success by group", "success A − B", "beats"} {
		assert.NotContains(t, page, hidden)
	}
}

// TestMixedSuiteJudgesSuccessOnlyWhereDefined: in a suite of goal tasks
// and free play, the free-play group gets no success bar, curve or cell
// in the report or the comparison, and the comparison's success figures
// count only the episodes whose task defines success (before, free play
// was drawn as 0 % and counted as failures in the overall difference).
func TestMixedSuiteJudgesSuccessOnlyWhereDefined(t *testing.T) {
	free := &task.Scenario{Name: "crafter", Ruleset: "classic", Goal: task.Goal{Kind: task.KindAchievements}}
	play := func(wins int) []results.Result {
		var rs []results.Result
		for i := range 4 {
			rs = append(rs, results.Result{Index: i, ID: fmt.Sprintf("crafter/%d", i), Spec: task.Spec{Family: "crafter", Tier: task.TierScenario, Scenario: free}, Ruleset: "classic", Seed: uint64(1 + i),
				Observability: "partial", Feedback: "none", Metrics: episode.Metrics{End: "death", Steps: 100, Achievements: 1, Unlocked: 1, UnlockSteps: []int{5}}})
		}
		for i := range 4 {
			r := results.Result{Index: 4 + i, ID: fmt.Sprintf("obtain/easy/%d", i), Spec: task.Spec{Family: "obtain", Tier: "easy"}, Ruleset: "classic", Seed: uint64(100 + i),
				Observability: "partial", Feedback: "full", Metrics: episode.Metrics{End: "budget", Steps: 50}}
			if i < wins {
				r.Success, r.End = true, "goal"
			}
			rs = append(rs, r)
		}
		return rs
	}
	weak, strong := play(0), play(4)
	s := results.Summarize("fixture", "strong", strong)
	require.False(t, s.SuccessUndefined())
	page := readPage(t, filepath.Join(writeRun(t, "strong", strong), results.ReportFile))
	assert.NotRegexp(t, `<title>success, crafter/scenario`, page, "no success bar for free play")

	c, err := Compare([]string{writeRun(t, "weak", weak), writeRun(t, "strong", strong)}, CompareOptions{})
	require.NoError(t, err)
	for _, p := range c.Pairs {
		switch {
		case p.Scope == allTiers:
			assert.Equal(t, 4, p.Judged, "success compared on the goal tasks only")
			assert.InDelta(t, -1.0, p.Diff, 1e-9, "weak − strong over the judged episodes: 0 of 4 against 4 of 4")
		case strings.HasPrefix(p.Scope, "crafter"):
			assert.True(t, p.NoSuccess, p.Scope)
			assert.Empty(t, p.Sentence, "no sentence about success where none is defined")
		}
	}
	path := filepath.Join(t.TempDir(), "compare.html")
	require.NoError(t, WriteComparison(path, c))
	assert.NotRegexp(t, `<title>[^<]*crafter/scenario[^<]*</title>`, readPage(t, path), "no success bar for free play in the comparison")
}
