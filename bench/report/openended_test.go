package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
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
	mixed := append(twoResults("explorer"), results.Result{Index: 2, ID: "achievements/hard/0", Spec: task.Spec{Family: "achievements", Tier: "hard"}, Ruleset: "extended+variants",
		Observability: "partial", Feedback: "reason", Metrics: episode.Metrics{End: "goal", Success: true, Steps: 900, Achievements: 1<<30 - 1, Unlocked: 30, UnlockSteps: make([]int, 30)}})
	for _, tc := range []struct {
		name       string
		rs         []results.Result
		open       bool
		rulesetRow string
	}{
		{"crafter", open, true, `<td class="l">classic</td><td>22</td><td>2</td>`},
		{"standard", mixed, false, `<td class="l">extended&#43;variants</td><td>30</td><td>1</td><td><b>100.00%</b></td><td><b>100.00%</b></td>`},
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
