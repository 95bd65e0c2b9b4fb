package run

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
)

// `score --agent trace:FILE --set budget=5` (the suite is then the trace's
// tasks): plan skips LoadSweep for a recorded suite, so the
// --set (and a --sweep) silently does nothing: the run plays the recorded
// budgets under the recorded suite's name. It should be refused or applied.
func TestSetOnRecordedSuiteIsNotIgnored(t *testing.T) {
	o := small(t.TempDir())
	o.Agent, o.Traces, o.Seeds, o.Tiers = "planner", "all", 1, []string{"easy"}
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	file := agent.RecordedPrefix + filepath.Join(o.Out, results.TraceFile)

	set, err := suite.ParseSet("budget=5")
	require.NoError(t, err)
	sw, err := suite.ParseSweep("budget=5,7")
	require.NoError(t, err)
	for _, r := range []Options{
		{Suite: file, Agent: file, Set: []suite.Set{set}},
		{Suite: file, Agent: file, Sweep: []suite.Sweep{sw}},
	} {
		_, specs, _, err := Plan(r)
		if err != nil {
			continue // refused: fine
		}
		for _, sp := range specs {
			require.Contains(t, []int{5, 7}, sp.Budget, "--set/--sweep on a recorded suite silently ignored (spec %s budget %d)", sp.ID(), sp.Budget)
		}
	}
}
