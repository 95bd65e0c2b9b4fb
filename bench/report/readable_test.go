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

// TestPagesAreReadable: the report and the comparison page of runs whose
// figures reach the thousands print no number in exponent notation (the
// histogram's axis said "1.98e+03", medians "1e+03"), and every table
// sits in a frame that scrolls (the per-group table is wider than a
// 1400 px window).
func TestPagesAreReadable(t *testing.T) {
	dirs, comparePath := fixturePages(t)
	pages := []string{comparePath}
	for _, d := range dirs {
		pages = append(pages, filepath.Join(d, results.ReportFile))
	}
	exponent := regexp.MustCompile(`(?:^|[^0-9a-fA-F])[0-9](?:\.[0-9]+)?e(?:[+-]|&#43;)[0-9]`) // as %g prints it (html/template writes + as &#43;); not inside hex ids
	for _, p := range pages {
		page := readPage(t, p)
		assert.Contains(t, page, "1980", "%s: the fixture's largest figure is printed", p)
		assert.Empty(t, exponent.FindAllString(page, -1), "%s: numbers in exponent notation", p)
		assert.Equal(t, strings.Count(page, "<table"), strings.Count(page, `<div class="wide"><table`), "%s: every table scrolls in its frame", p)
	}
}

// TestSweepChartsNameEverySeries: a sweep over budgets in which two lines
// have the same success at every budget: the legend names both, neither
// hides the other (their points differ), and the success chart labels
// every bar with its group, so the budgets' bars are told apart. Before,
// the success chart drew the budgets' bars alike with no label, and equal
// lines were drawn on the same pixels.
func TestSweepChartsNameEverySeries(t *testing.T) {
	g := func(family string, budget int, rate float64) results.Group {
		return results.Group{Family: family, Tier: "easy", Observability: "partial", Feedback: "full", Ruleset: "classic", Budget: budget, Episodes: 10, Rate: rate, Low: rate / 2, High: rate}
	}
	var gs []results.Group
	for _, f := range []string{"collect", "obtain"} {
		for _, b := range []int{100, 300, 1000} {
			gs = append(gs, g(f, b, 1))
		}
	}
	charts := sweepCharts(gs)
	require.Len(t, charts, 1)
	chart := string(charts[0].Chart)
	legend := regexp.MustCompile(`<text class="legend"[^>]*>([^<]*)</text>`).FindAllStringSubmatch(chart, -1)
	var named []string
	for _, m := range legend {
		named = append(named, html.UnescapeString(m[1]))
	}
	assert.ElementsMatch(t, []string{"collect/easy (partial, full, classic rules)", "obtain/easy (partial, full, classic rules)"}, named, "the legend names every line")
	lines := regexp.MustCompile(`<polyline [^>]*points="([^"]*)"`).FindAllStringSubmatch(chart, -1)
	require.Len(t, lines, 2)
	assert.NotEqual(t, lines[0][1], lines[1][1], "equal lines are drawn apart, not one over the other")

	bars := string(successChart(gs))
	for _, gr := range gs {
		assert.Contains(t, bars, ">"+html.EscapeString(gr.Key().Label())+"</text>", "the bar of %s is labelled", gr.Key().Label())
	}
}
