package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
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
	s := results.Summarize("t", "explorer", rs)
	path := filepath.Join(t.TempDir(), results.ReportFile)
	require.NoError(t, WriteReport(path, s, rs))
	page, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, m := range results.Metrics() {
		if !m.External {
			assert.Contains(t, string(page), `<a href="#metric-`+m.Name+`">`, "%s's column links to its definition", m.Name)
		}
		assert.Contains(t, string(page), `id="metric-`+m.Name+`"`, "%s is defined in the page", m.Name)
	}
	assert.Contains(t, string(page), "obtain/easy/1", "the failed episode is listed as evidence")
}

// TestCompareRefusesDifferentSuites: runs of two suites are not compared.
func TestCompareRefusesDifferentSuites(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, name := range []string{"default", "standard"} {
		s := results.Summarize(name, "random", twoResults("random"))
		require.NoError(t, results.WriteSummary(filepath.Join(dirs[i], results.SummaryFile), s))
		require.NoError(t, results.WriteSorted(filepath.Join(dirs[i], results.ResultsFile), twoResults("random")))
	}
	_, err := Compare(dirs, CompareOptions{})
	require.ErrorContains(t, err, "ran suite standard, not default")
	c, err := Compare(dirs[:1], CompareOptions{})
	require.NoError(t, err)
	assert.Equal(t, "default", c.Suite)
	require.Len(t, c.Keys, 1)
	assert.Equal(t, 0.5, c.Groups[c.Keys[0]][0].Rate)
}

// run writes a run directory of agent with n episodes of tier, the first
// wins of them successes, and returns it.
func run(t *testing.T, agent, lock string, n, wins int, tier string) string {
	t.Helper()
	dir := t.TempDir()
	var rs []results.Result
	for i := range n {
		sp := task.Spec{Family: "obtain", Tier: tier, Split: task.Eval, Index: uint64(i)}
		rs = append(rs, results.Result{Index: i, ID: sp.ID(), Spec: sp, Agent: agent, Lock: lock, Observability: "partial", Feedback: "full",
			Metrics: episode.Metrics{Steps: 100 - i, Success: i < wins}})
	}
	s := results.Summarize("mine", agent, rs)
	require.NoError(t, results.WriteSummary(filepath.Join(dir, results.SummaryFile), s))
	require.NoError(t, results.WriteSorted(filepath.Join(dir, results.ResultsFile), rs))
	return dir
}

// TestPairedComparison: runs of one lock are compared on the episodes they
// share, with an exact McNemar test and a paired bootstrap interval, and
// said in a sentence; runs of different locks are refused, or compared
// unpaired and labelled so.
func TestPairedComparison(t *testing.T) {
	strong, weak := run(t, "strong", "L", 100, 60, "hard"), run(t, "weak", "L", 100, 20, "hard")
	same := run(t, "weak", "L", 100, 22, "hard")
	c, err := Compare([]string{weak, strong, same}, CompareOptions{})
	require.NoError(t, err)
	assert.Equal(t, "weak ["+filepath.Base(weak)+"]", c.Agents[0], "two runs of one agent are told apart by directory")
	var hard *Paired
	for i := range c.Pairs {
		if strings.HasPrefix(c.Pairs[i].Scope, "obtain/hard ") && c.Pairs[i].B == "strong" {
			hard = &c.Pairs[i]
		}
	}
	require.NotNil(t, hard)
	assert.Equal(t, 100, hard.N)
	assert.Equal(t, [2]int{0, 40}, [2]int{hard.OnlyA, hard.OnlyB}, "the strong run wins 40 discordant pairs, loses none")
	assert.InDelta(t, -0.40, hard.Diff, 1e-12)
	assert.InDelta(t, results.McNemarExact(0, 40), hard.P, 1e-15)
	assert.Less(t, hard.Lo, -0.40)
	assert.Greater(t, hard.Hi, -0.40)
	assert.Regexp(t, `^strong beats weak \[.*\] on obtain/hard \(partial view, full feedback, budget \d+\): \+40\.0 points \[\+[0-9.]+, \+[0-9.]+\], p < 0\.001, 100 paired episodes$`, hard.Sentence)
	require.NotEmpty(t, hard.Metrics)
	assert.Equal(t, "steps", hard.Metrics[0].Name)
	assert.InDelta(t, 0, hard.Metrics[0].Diff, 1e-12, "the same steps on every pair")
	for _, p := range c.Pairs {
		if strings.HasPrefix(p.Scope, "obtain/hard ") && p.A == c.Agents[0] && p.B == c.Agents[2] {
			assert.Contains(t, p.Sentence, "do not differ detectably on "+p.Scope+": -2.0 points")
		}
	}

	// Every declared metric, by group per run, with intervals: the run's
	// summary's own.
	var steps *MetricTable
	for i := range c.Metrics {
		if c.Metrics[i].Metric.Name == "steps" {
			steps = &c.Metrics[i]
		}
	}
	require.NotNil(t, steps)
	require.Len(t, steps.Rows, 1)
	cell := steps.Rows[0].Cells[1] // strong: steps 100 − i for i < 100
	assert.Equal(t, 100, cell.N)
	assert.InDelta(t, 50.5, cell.Mean, 1e-9)
	require.NotNil(t, cell.CI95)
	assert.Equal(t, c.Groups[steps.Rows[0].Key][1].Metrics["steps"], cell)
	assert.Less(t, cell.CI95[0], 50.5)
	assert.Greater(t, cell.CI95[1], 50.5)
	assert.InDelta(t, 1.96*math.Sqrt(841.6666666666666)/10, (cell.CI95[1]-cell.CI95[0])/2, 1, "about the normal interval's half-width where that one is fine (n = 100)")

	other := run(t, "other", "M", 100, 50, "hard")
	_, err = Compare([]string{strong, other}, CompareOptions{})
	assert.ErrorContains(t, err, "not the same episodes (--allow-mixed compares them unpaired)")
	c, err = Compare([]string{strong, other}, CompareOptions{AllowMixed: true})
	require.NoError(t, err)
	require.NotEmpty(t, c.Pairs)
	assert.True(t, c.Pairs[0].Unpaired)
	assert.Regexp(t, `^strong vs other on obtain/hard \(.*\), unpaired \(not the same episodes\): \+10\.0 points \[`, c.Pairs[0].Sentence)

	path := filepath.Join(t.TempDir(), "compare.html")
	require.NoError(t, WriteComparison(path, c))
	page, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(page), "unpaired (not the same episodes)")
}

// TestCostChart: priced runs are plotted, success against cost per
// episode; runs without prices are left out, and no chart is drawn when
// none has prices.
func TestCostChart(t *testing.T) {
	priced := func(agent string, wins int, dollars float64) string {
		dir := run(t, agent, "L", 20, wins, "easy")
		rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
		require.NoError(t, err)
		for i := range rs {
			rs[i].ModelCalls, rs[i].Cost = 1, episode.Measured(dollars)
		}
		require.NoError(t, results.WriteSorted(filepath.Join(dir, results.ResultsFile), rs))
		s := results.Summarize("mine", agent, rs)
		require.NoError(t, results.WriteSummary(filepath.Join(dir, results.SummaryFile), s))
		return dir
	}
	cheap, dear, free := priced("cheap", 5, 0.001), priced("dear", 15, 0.01), run(t, "free", "L", 20, 10, "easy")
	c, err := Compare([]string{cheap, dear, free}, CompareOptions{})
	require.NoError(t, err)
	chart := string(costChart(c))
	assert.Contains(t, chart, "cheap: 25.0% at $0.001 per episode")
	assert.Contains(t, chart, "dear: 75.0% at $0.01 per episode")
	assert.NotContains(t, chart, "free:")
	c, err = Compare([]string{free}, CompareOptions{})
	require.NoError(t, err)
	assert.Empty(t, string(costChart(c)))
}

// TestBudgetChart: groups of one family × tier under several budgets (a
// sweep) get a success-against-budget chart; a suite without a sweep none.
func TestBudgetChart(t *testing.T) {
	g := func(budget int, rate float64) results.Group {
		return results.Group{Family: "obtain", Tier: "easy", Observability: "partial", Feedback: "full", Budget: budget, Episodes: 10, Rate: rate, Low: rate / 2, High: rate}
	}
	charts := sweepCharts([]results.Group{g(100, 0.2), g(400, 0.9), g(200, 0.5)})
	require.Len(t, charts, 1)
	chart := string(charts[0].Chart)
	assert.Contains(t, chart, "obtain/easy (partial, full) at budget 100: 20.0%")
	assert.Contains(t, chart, "at budget 400: 90.0%")
	assert.Less(t, strings.Index(chart, "budget 100:"), strings.Index(chart, "budget 200:"), "in budget order")
	assert.Empty(t, sweepCharts([]results.Group{g(100, 0.2)}), "one budget: no chart")
}

// TestScenarioSweepCharts: a sweep over two scenario knobs draws one chart
// per knob, each line holding the other knob fixed.
func TestScenarioSweepCharts(t *testing.T) {
	g := func(grid, tour string, rate float64) results.Group {
		return results.Group{Family: "grid grid=" + grid + " tour=" + tour, Tier: "scenario", Scenario: "grid", Params: map[string]string{"grid": grid, "tour": tour},
			Observability: "full", Feedback: "full", Budget: 200, Episodes: 20, Rate: rate, Low: rate / 2, High: rate}
	}
	charts := sweepCharts([]results.Group{g("6", "2", 0.9), g("12", "2", 0.3), g("6", "3", 0.8), g("12", "3", 0.1)})
	require.Len(t, charts, 2)
	assert.Equal(t, "grid", charts[0].Key)
	assert.Equal(t, "tour", charts[1].Key)
	assert.Contains(t, string(charts[0].Chart), "grid tour=3 (full, full, budget 200) at grid 12: 10.0%")
	assert.Contains(t, string(charts[1].Chart), "grid grid=6 (full, full, budget 200) at tour 2: 90.0%")
}

// TestComparisonCellsStayUnderTheirRun: runs that played different groups
// leave empty cells, not cells shifted under the wrong run.
func TestComparisonCellsStayUnderTheirRun(t *testing.T) {
	onlyHard := run(t, "a", "L", 10, 5, "hard")
	both := run(t, "b", "L", 10, 7, "easy")
	c, err := Compare([]string{onlyHard, both}, CompareOptions{})
	require.NoError(t, err)
	for _, k := range c.Keys {
		cells := c.Groups[k]
		require.Len(t, cells, 2, k)
		switch {
		case strings.Contains(k, "/hard"):
			assert.Equal(t, 10, cells[0].Episodes, k)
			assert.Zero(t, cells[1].Episodes, "b did not play hard: %s", k)
		case strings.Contains(k, "/easy"):
			assert.Zero(t, cells[0].Episodes, "a did not play easy: %s", k)
			assert.Equal(t, 10, cells[1].Episodes, k)
		}
	}
}

// TestReportsNameTheBuild: the report and the comparison page say which
// build played the results (provenance), or that it was not recorded.
func TestReportsNameTheBuild(t *testing.T) {
	rs := twoResults("explorer")
	rs[0].Build = buildinfo.Build{Version: "v0.0.0-20261203065030-13929d2e4007+dirty", Revision: "13929d2e400751d60afad2f1f4ae1415de497f48", Modified: true, Time: "2026-12-03T06:50:30Z"}
	rs[1].Build = rs[0].Build
	s := results.Summarize("mine", "explorer", rs)
	dir := t.TempDir()
	require.NoError(t, WriteReport(filepath.Join(dir, results.ReportFile), s, rs))
	page, err := os.ReadFile(filepath.Join(dir, results.ReportFile))
	require.NoError(t, err)
	assert.Contains(t, string(page), `Built from <code title="13929d2e400751d60afad2f1f4ae1415de497f48">v0.0.0-20261203065030-13929d2e4007&#43;dirty 13929d2e4007 modified</code>, committed 2026-12-03T06:50:30Z.`)

	require.NoError(t, results.WriteSummary(filepath.Join(dir, results.SummaryFile), s))
	require.NoError(t, results.WriteSorted(filepath.Join(dir, results.ResultsFile), rs))
	old := run(t, "random", "", 2, 1, "easy")
	c, err := Compare([]string{dir, old}, CompareOptions{AllowMixed: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"v0.0.0-20261203065030-13929d2e4007+dirty 13929d2e4007 modified", "not recorded"}, c.Builds)
	cmp := filepath.Join(dir, "cmp.html")
	require.NoError(t, WriteComparison(cmp, c))
	page, err = os.ReadFile(cmp)
	require.NoError(t, err)
	assert.Contains(t, string(page), `<td class="l">v0.0.0-20261203065030-13929d2e4007&#43;dirty 13929d2e4007 modified</td>`)
}
