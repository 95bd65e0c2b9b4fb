package run

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/longcraft/longcraft/bench/results"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
)

// Recorded play scores exactly as the play it records: the planner's
// traces, replayed as agent trace:FILE, give the planner's results.
func TestRecordedPlayScoresAsThePlayer(t *testing.T) {
	t.Parallel()
	o := small(t.TempDir())
	o.Agent, o.Traces, o.Seeds = "planner", "all", 1
	live, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	require.True(t, live.Complete)
	file := filepath.Join(o.Out, results.TraceFile)

	r := small(t.TempDir())
	r.Agent, r.Suite = agent.RecordedPrefix+file, agent.RecordedPrefix+file
	rec, err := Score(context.Background(), r, nil)
	require.NoError(t, err)
	require.True(t, rec.Complete)
	require.Equal(t, "trace:"+results.TraceFile, rec.Summary.Suite)

	want, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	got, err := results.Read(filepath.Join(r.Out, results.ResultsFile))
	require.NoError(t, err)
	require.Len(t, got, len(want))
	byID := map[string]results.Result{}
	for _, g := range got { // in the trace's order: the order episodes finished
		byID[g.ID] = g
	}
	for _, w := range want {
		g, ok := byID[w.ID]
		require.True(t, ok, w.ID)
		require.Empty(t, g.Err, g.ID)
		require.Equal(t, w.Success, g.Success, w.ID)
		require.Equal(t, w.Steps, g.Steps, w.ID)
		require.Equal(t, w.Achievements, g.Achievements, w.ID)
		require.Equal(t, w.Return, g.Return, w.ID)
	}

	// On a suite with tasks the trace lacks, those episodes are errors
	// that say so.
	m := small(t.TempDir())
	m.Agent, m.Seeds = agent.RecordedPrefix+file, 2
	_, err = Score(context.Background(), m, nil)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(m.Out, results.ResultsFile))
	require.NoError(t, err)
	missing := 0
	for _, x := range rs {
		if x.Err != "" {
			require.Contains(t, x.Err, "has no play of task")
			missing++
		}
	}
	require.Equal(t, len(rs)-len(want), missing)

	_, err = Score(context.Background(), Options{Suite: "trace:/nonexistent.lctrace", Agent: "planner", Out: t.TempDir()}, nil)
	require.Error(t, err)
}
