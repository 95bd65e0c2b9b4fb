package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

func twoResults(agent string) []results.Result {
	return []results.Result{
		{Index: 0, ID: "obtain/easy/0", Agent: agent, Spec: task.Spec{Family: "obtain", Tier: "easy"}, Observability: "partial", Feedback: "full",
			Metrics: episode.Metrics{Steps: 40, Success: true}},
		{Index: 1, ID: "obtain/easy/1", Agent: agent, Spec: task.Spec{Family: "obtain", Tier: "easy"}, Observability: "partial", Feedback: "full",
			Metrics: episode.Metrics{Steps: 90}},
	}
}

// TestReportShowsEveryDeclaredMetric: the page is written from the
// results alone and has a column for every metric the declarations list.
func TestReportShowsEveryDeclaredMetric(t *testing.T) {
	rs := twoResults("explorer")
	s := results.Summarize("t", "explorer", rs, results.ClassicAchievements)
	path := filepath.Join(t.TempDir(), results.ReportFile)
	require.NoError(t, WriteReport(path, s, rs))
	page, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, m := range results.Metrics() {
		if !m.External {
			assert.Contains(t, string(page), m.Title, m.Name)
		}
	}
	assert.Contains(t, string(page), "obtain/easy/1", "the failed episode is listed as evidence")
}

// TestCompareRefusesDifferentSuites: runs of two suites are not compared.
func TestCompareRefusesDifferentSuites(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, name := range []string{"default", "standard"} {
		s := results.Summarize(name, "random", twoResults("random"), results.ClassicAchievements)
		require.NoError(t, results.WriteSummary(filepath.Join(dirs[i], results.SummaryFile), s))
	}
	_, err := Compare(dirs)
	require.ErrorContains(t, err, "ran suite standard, not default")
	c, err := Compare(dirs[:1])
	require.NoError(t, err)
	assert.Equal(t, "default", c.Suite)
	require.Len(t, c.Tiers, 1)
	assert.Equal(t, 0.5, c.Tiers[0].Rate)
}
