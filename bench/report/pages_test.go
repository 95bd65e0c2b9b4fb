package report

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// condition is one block of a fixture run: a family and tier played under
// a view and feedback (the standard suite's hard tier is played under
// the tier's own condition and, as a diagnostic, full/full).
type condition struct {
	family, tier, view, feedback, ruleset string
	n                                     int
}

// diagnosticConditions is a suite shaped like the standard suite's hard
// and expert tiers: two families at the tiers' conditions, and obtain
// again under full observability and feedback, the diagnostic the
// comparison page used to pool into the tiers' rows.
var diagnosticConditions = []condition{
	{"obtain", "hard", "partial", "reason", "extended", 6},
	{"collect", "hard", "partial", "reason", "extended", 5},
	{"obtain", "hard", "full", "full", "extended", 4},
	{"obtain", "expert", "partial", "none", "extended", 3},
	{"obtain", "expert", "full", "full", "extended", 3},
}

// fixtureResults plays agent over conds: its successes, steps, return and
// behaviour vary with strength and the episode, spread wide (a few steps
// and a budget's worth in one group of three) so that a normal interval
// would leave the range.
func fixtureResults(agent string, strength int, conds []condition) []results.Result {
	var rs []results.Result
	seed := uint64(1000)
	for _, c := range conds {
		for i := range c.n {
			sp := task.Spec{Family: c.family, Tier: c.tier, Split: task.Eval, Index: uint64(i), Observability: task.Observability(c.view), Feedback: task.Feedback(c.feedback)}
			if c.view == "full" {
				sp.Index += 1000 // the diagnostic's own seeds, as in the standard suite
			}
			seed++
			steps := []int{1, 2, 1980, 40, 1234, 7}[(i+strength)%6]
			success := (i+strength)%3 != 0
			r := results.Result{Index: len(rs), ID: sp.ID(), Spec: sp, Agent: agent, Lock: "L", Seed: seed, Goal: "obtain " + c.family,
				Observability: c.view, Feedback: c.feedback, Ruleset: c.ruleset,
				Metrics: episode.Metrics{Success: success, End: "budget", Steps: steps, Decisions: steps,
					Return: []float64{-0.7, 2.1, 0.1, 5.3}[(i+strength)%4], Milestones: (i + strength) % 4, MilestonesOf: 3 + (i+strength)%2,
					Unlocked: (i + strength) % 5}}
			if success {
				r.End = "goal"
			}
			r.ValidActionRatio = episode.Measured([]float64{0, 1, 0.93, 0.05}[(i+strength)%4])
			r.FailedActions = (i * 7) % 5
			if r.FailedActions > 0 {
				r.RepeatedFailures = episode.Measured(float64(i%2) * 0.9)
			}
			r.TilesVisited, r.TilesSeen, r.Reachable, r.VisitedShare = 1+steps/3, 63+steps, 500, float64(1+steps/3)/500
			r.SeenFraction, r.MaterialsSeen, r.ItemsObtained = float64(63+steps)/4096, 3+i%4, i%6
			rs = append(rs, r)
		}
	}
	return rs
}

// writeRun writes a run directory (results.jsonl, summary.json and
// report.html) of rs, and returns it.
func writeRun(t *testing.T, agent string, rs []results.Result) string {
	t.Helper()
	dir := t.TempDir()
	s := results.Summarize("fixture", agent, rs)
	require.NoError(t, results.WriteSummary(filepath.Join(dir, results.SummaryFile), s))
	require.NoError(t, results.WriteSorted(filepath.Join(dir, results.ResultsFile), rs))
	require.NoError(t, WriteReport(filepath.Join(dir, results.ReportFile), s, rs))
	return dir
}

// fixturePages writes two runs of diagnosticConditions, their reports and
// their comparison page, and returns the directories and the page.
func fixturePages(t *testing.T) (dirs []string, compare string) {
	t.Helper()
	dirs = []string{writeRun(t, "weak", fixtureResults("weak", 0, diagnosticConditions)), writeRun(t, "strong", fixtureResults("strong", 1, diagnosticConditions))}
	c, err := Compare(dirs, CompareOptions{})
	require.NoError(t, err)
	compare = filepath.Join(t.TempDir(), "compare.html")
	require.NoError(t, WriteComparison(compare, c))
	return dirs, compare
}

func readPage(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

var (
	rowRe  = regexp.MustCompile(`(?s)<tr data-group="([^"]*)">(.*?)</tr>`)
	cellRe = regexp.MustCompile(`(?s)<td (?:data-run="(\d+)" )?data-metric="([^"]+)">(.*?)</td>`)
)

// cells reads a page's figures by group, metric and run ("" on a run's
// report, where there is one): every td a page marks with data-metric.
func cells(page string) map[[3]string]string {
	out := map[[3]string]string{}
	for _, row := range rowRe.FindAllStringSubmatch(page, -1) {
		for _, c := range cellRe.FindAllStringSubmatch(row[2], -1) {
			out[[3]string{row[1], c[2], c[1]}] = c[3]
		}
	}
	return out
}

func key(group, metric string, run int) [3]string {
	return [3]string{group, metric, fmt.Sprint(run)}
}
