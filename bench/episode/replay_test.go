package episode

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// recorded plays spec with a fixed cycle of actions, recording it, and
// returns the episode and its trace.
func recorded(t *testing.T, spec task.Spec, noProgress int) (*Episode, *trace.Episode) {
	tk, w := newTask(t, spec)
	e := New(tk, w, Options{NoProgress: noProgress, Recorder: trace.NewRecorder(tk.Budget), Agent: "cycle"})
	cycle := []sim.Action{sim.ActMoveLeft, sim.ActDo, sim.ActMoveUp, sim.ActDo, sim.ActMoveRight, sim.ActDo, sim.ActMoveDown, sim.ActPlaceTable}
	for i := 0; e.Step(cycle[i%len(cycle)]); i++ {
	}
	return e, e.Trace()
}

// TestReplayGivesTheRecordedFigures: a replay reaches the recorded
// episode's end, success and every metric.
func TestReplayGivesTheRecordedFigures(t *testing.T) {
	for _, c := range []struct {
		spec       task.Spec
		noProgress int
	}{
		{obtainEasy, 0},
		{task.Spec{Family: task.FamilyAchievements, Tier: "easy", Split: task.Eval, Index: 2}, 0},
		{obtainEasy, 25}, // ends as no_progress
	} {
		played, rec := recorded(t, c.spec, c.noProgress)
		e, err := Replay(rec, c.noProgress)
		require.NoError(t, err)
		assert.Equal(t, played.Metrics(), e.Metrics())
		assert.Equal(t, played.End(), e.End())
		if c.noProgress > 0 {
			assert.Equal(t, task.EndNoProgress, e.End())
			_, err := Replay(rec, 0)
			require.NoError(t, err, "without --no-progress it replays, not over")
		}
	}
}

// TestReplayRefusesWhatWasNotPlayed: every way a recording can leave
// what its actions give is named as a divergence.
func TestReplayRefusesWhatWasNotPlayed(t *testing.T) {
	for name, c := range map[string]struct {
		edit func(ep *trace.Episode)
		what string
	}{
		"an action":        {func(ep *trace.Episode) { ep.Actions[3] = byte(sim.ActSleep) }, "recorded"},
		"an outcome":       {func(ep *trace.Episode) { ep.Outcomes[5] ^= 1 }, "recorded"},
		"the final hash":   {func(ep *trace.Episode) { ep.Final++ }, "final state hash"},
		"a checkpoint":     {func(ep *trace.Episode) { ep.Checkpoints[0]++ }, "checkpoint"},
		"the success":      {func(ep *trace.Episode) { ep.Metrics.Success = !ep.Metrics.Success }, "recorded metrics"},
		"the achievements": {func(ep *trace.Episode) { ep.Metrics.Achievements |= 1 << 20 }, "recorded metrics"},
		"the initial hash": {func(ep *trace.Episode) { ep.Initial++ }, "initial state hash"},
		"another seed":     {func(ep *trace.Episode) { ep.Header.Seed++ }, "initial state hash"},
		"steps after the end": {func(ep *trace.Episode) {
			ep.Actions, ep.Outcomes = append(ep.Actions, 0), append(ep.Outcomes, ep.Outcomes[len(ep.Outcomes)-1])
		}, "the episode ended ("},
	} {
		t.Run(name, func(t *testing.T) {
			_, rec := recorded(t, obtainEasy, 0)
			require.GreaterOrEqual(t, len(rec.Checkpoints), 1)
			c.edit(rec)
			_, err := Replay(rec, 0)
			var d *trace.Divergence
			require.True(t, errors.As(err, &d), "%v", err)
			assert.Contains(t, err.Error(), c.what)
		})
	}
	_, rec := recorded(t, obtainEasy, 0)
	rec.Header.Task = nil
	_, err := Replay(rec, 0)
	assert.ErrorContains(t, err, "outside any task")
}
