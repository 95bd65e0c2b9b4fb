package report

import (
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
)

// TestComparisonMatchesReports: for runs with diagnostic conditions (a
// family and tier played under two views and feedbacks), every figure on
// the comparison page (success, every metric, each bar of its chart) is
// the very figure the run's own report shows for the same group, and
// every group of each report is on the comparison page, unpooled; the
// paired tests run on exactly a group's episodes. Before, the page pooled
// each tier's groups, the diagnostic's with the rest ("hard: 40.0% of
// 15"), and its metric tables pooled conditions by family and tier.
func TestComparisonMatchesReports(t *testing.T) {
	dirs, comparePath := fixturePages(t)
	compare := readPage(t, comparePath)
	onCompare := cells(compare)
	require.NotEmpty(t, onCompare, "the comparison page marks its figures by group and metric")
	for run, dir := range dirs {
		report := cells(readPage(t, filepath.Join(dir, results.ReportFile)))
		require.NotEmpty(t, report)
		groups := map[string]bool{}
		for k, fig := range report {
			groups[k[0]] = true
			if _, shown := onCompare[key(k[0], k[1], run)]; !shown && fig == "–" {
				continue // a metric no run measured has no table on the comparison page
			}
			assert.Equal(t, fig, onCompare[key(k[0], k[1], run)], "run %d, %s, %s: the comparison shows what the report does", run, k[0], k[1])
		}
		assert.Len(t, groups, len(diagnosticConditions), "the report has one row per condition")
	}
	for k, fig := range onCompare {
		if fig == "–" {
			continue
		}
		report := cells(readPage(t, filepath.Join(dirs[k[2][0]-'0'], results.ReportFile)))
		assert.Equal(t, report[[3]string{k[0], k[1], ""}], fig, "%v on the comparison page is on the run's report", k)
	}

	// The chart's bars: each run's bar of a group carries the report's
	// figure for it.
	barRe := regexp.MustCompile(`<title>([^,<]+), ([^<]+): ([^<]+ of \d+)</title>`)
	report := make([]map[string]string, len(dirs))
	for i, dir := range dirs {
		report[i] = map[string]string{}
		for _, m := range barRe.FindAllStringSubmatch(readPage(t, filepath.Join(dir, results.ReportFile)), -1) {
			report[i][html.UnescapeString(m[2])] = m[3]
		}
	}
	bars := barRe.FindAllStringSubmatch(compare, -1)
	require.Len(t, bars, len(dirs)*len(diagnosticConditions), "one bar per run and group")
	for _, m := range bars {
		run := map[string]int{"weak": 0, "strong": 1}[m[1]]
		assert.Equal(t, report[run][html.UnescapeString(m[2])], m[3], "%s's bar on %s", m[1], m[2])
	}

	// The paired tests: group by group, each on all of the group's
	// episodes, and overall.
	c, err := Compare(dirs, CompareOptions{})
	require.NoError(t, err)
	scopes := map[string]int{}
	for _, p := range c.Pairs {
		scopes[p.Scope] = p.N
	}
	require.Len(t, scopes, len(diagnosticConditions)+1)
	for _, cond := range diagnosticConditions {
		var label string
		for _, k := range c.Keys {
			if strings.HasPrefix(k, cond.family+"/"+cond.tier+" ("+cond.view+" view, "+cond.feedback+" feedback") {
				label = k
			}
		}
		require.NotEmpty(t, label, "%+v is a group of its own", cond)
		assert.Equal(t, cond.n, scopes[label], "%s: paired on its own episodes", label)
	}
}
