package report

import (
	"html/template"
	"strings"

	"github.com/longcraft/longcraft/bench/results"
)

// statText is a group's metric as every page prints it: the mean and its
// 95% interval (results.Stat's CI95), "–" where no episode measured it,
// never 0; the mean alone for a summary written before it had intervals.
func statText(st results.Stat, m results.Metric) string {
	switch {
	case st.N == 0:
		return "–"
	case st.CI95 == nil && m.Percent:
		return results.Percent(st.Mean)
	case st.CI95 == nil:
		return results.Number(st.Mean)
	}
	return results.Interval(st.Mean, st.CI95[0], st.CI95[1], m.Percent)
}

// statCell is a table cell's content for a group's metric: the mean, its
// interval below it and, for a metric that is not a fraction, the median
// (three short lines keep a table of twenty metrics narrow). The
// report's per-group table and the comparison's metric tables both show
// it, so a figure reads the same on either page
// (TestComparisonMatchesReports).
func statCell(st results.Stat, m results.Metric) template.HTML {
	text := statText(st, m)
	mean, ci, _ := strings.Cut(text, " [")
	h := template.HTMLEscapeString(mean)
	if ci != "" {
		h += `<br><small>[` + template.HTMLEscapeString(ci) + `</small>`
	}
	if st.N > 0 && !m.Percent {
		h += `<br><small>median ` + template.HTMLEscapeString(results.Number(st.Median)) + `</small>`
	}
	return template.HTML(h)
}

// successText is a group's success with its Wilson interval as every page
// prints it, "29.3% [22.6, 37.1]", and the worlds it counts when they are
// fewer than the episodes.
func successText(g results.Group) string {
	t := results.Interval(g.Rate, g.Low, g.High, true)
	if g.Worlds > 0 {
		t += " over " + results.Number(float64(g.Worlds)) + " worlds"
	}
	return t
}
