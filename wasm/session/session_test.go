package session

import (
	"bytes"
	"testing"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
	"github.com/stretchr/testify/require"
)

var easy = task.Spec{Family: "obtain", Tier: "easy", Split: task.Eval, Index: 3}
var hard = task.Spec{Family: "obtain", Tier: "hard", Split: task.Eval, Index: 3}

// keys is a scripted human play: walk, act, try to place and make.
var keys = []sim.Action{sim.ActMoveLeft, sim.ActMoveLeft, sim.ActDo, sim.ActMoveUp, sim.ActDo, sim.ActDo,
	sim.ActPlaceTable, sim.ActMoveRight, sim.ActMakeWoodPickaxe, sim.ActNoop, sim.ActSleep}

func TestPlayRecordingReplaysNatively(t *testing.T) {
	s, err := New(hard, Play, "")
	require.NoError(t, err)
	for _, a := range keys {
		require.True(t, s.Act(a))
	}
	st := s.Status()
	require.Equal(t, len(keys), st.Step)
	require.Equal(t, "play", st.Mode)
	require.NotEmpty(t, st.Last)
	require.NotEmpty(t, st.Goal)

	data, err := s.Recording(0)
	require.NoError(t, err)
	tf, err := trace.OpenReader("rec", bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	require.True(t, tf.Indexed)
	ep, err := tf.Episode(0)
	require.NoError(t, err)
	rep, err := trace.Run(ep)
	require.NoError(t, err)
	require.Equal(t, len(keys), rep.Steps)
	require.Equal(t, s.Hash(), ep.Final)
	require.Equal(t, "human", ep.Header.Agent)
}

func TestWatchPlannerReachesGoalAndReplaySeeks(t *testing.T) {
	s, err := New(easy, Watch, "planner")
	require.NoError(t, err)
	hashes := []uint64{s.Hash()}
	for s.Tick() {
		hashes = append(hashes, s.Hash())
	}
	require.Equal(t, "goal", s.Ended())
	require.False(t, s.Act(sim.ActNoop), "a finished episode takes no more steps")

	data, err := s.Recording(1)
	require.NoError(t, err)
	n, err := Episodes("rec", data)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	r, err := OpenReplay("rec", data, 0)
	require.NoError(t, err)
	require.Equal(t, "planner", r.Status().Agent)
	require.NoError(t, r.Seek(r.Budget()))
	require.Equal(t, hashes[len(hashes)-1], r.Hash())
	// Back and forth: every position matches the live episode's state.
	for _, k := range []int{len(hashes) / 2, 1, 0, len(hashes) - 1, 2} {
		require.NoError(t, r.Seek(k))
		require.Equal(t, hashes[k], r.Hash(), "seek %d", k)
		require.Equal(t, k, r.Status().Step)
	}
	_, err = OpenReplay("rec", data, 1)
	require.Error(t, err)
	_, err = OpenReplay("junk", []byte("not a trace"), 0)
	require.Error(t, err)
}

func TestWatchUnknownAgent(t *testing.T) {
	_, err := New(easy, Watch, "nobody")
	require.Error(t, err)
	_, err = New(task.Spec{Family: "nope", Tier: "easy"}, Play, "")
	require.Error(t, err)
}
