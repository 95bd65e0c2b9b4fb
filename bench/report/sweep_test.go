package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/internal/golden"
)

// TestSweepChartsGolden pins the sweep charts' SVG byte for byte: a budget
// sweep of six lines (the palette, dashes and markers in turn, a log
// scale, mean steps in some titles), one line alone (its family's
// colour), a line with two groups at one value, and scenario knobs
// (one chart a knob, the others in the line's name). The other sweep
// tests check what a chart says; this one that a change to how it is
// drawn is seen.
func TestSweepChartsGolden(t *testing.T) {
	g := func(f string, budget int, rate float64, rules string) results.Group {
		gr := results.Group{Family: f, Tier: "easy", Observability: "partial", Feedback: "full", Ruleset: rules, Budget: budget, Episodes: 10, Rate: rate, Low: rate / 2, High: min(1, rate*1.3)}
		if budget%200 == 0 {
			gr.Metrics = map[string]results.Stat{"steps": {N: 10, Mean: float64(budget) / 3}}
		}
		return gr
	}
	var budgets []results.Group
	for i, f := range []string{"collect", "obtain", "survive", "waypoints", "obtain_return", "achievements"} {
		for _, b := range []int{100, 300, 1000, 3000} {
			budgets = append(budgets, g(f, b, float64((i*7+b)%10)/10, ""))
		}
	}
	sc := func(grid, tour, decisions string, rate float64) results.Group {
		return results.Group{Family: "grid grid=" + grid + " tour=" + tour, Tier: "scenario", Scenario: "grid", Params: map[string]string{"grid": grid, "tour": tour, "decisions": decisions},
			Observability: "full", Feedback: "full", Budget: 200, Episodes: 20, Rate: rate, Low: rate / 2, High: rate}
	}
	sets := [][]results.Group{
		budgets,
		budgets[:4],
		{g("obtain", 200, 0.5, "extended"), g("obtain", 200, 0.6, "extended"), g("obtain", 400, 0.7, "extended")},
		{sc("6", "2", "4", 0.9), sc("12", "2", "4", 0.3), sc("6", "3", "4", 0.8), sc("12", "3", "8", 0.1), sc("24", "3", "8", 0.05), sc("6", "3", "8", 0.7)},
	}
	var out strings.Builder
	for i, s := range sets {
		for _, c := range sweepCharts(s) {
			fmt.Fprintf(&out, "set %d, %s: %s\n%s\n", i, c.Key, c.Title, c.Chart)
		}
	}
	golden.File(t, "testdata/sweeps.txt", []byte(out.String()), "a sweep chart is drawn differently")
}
