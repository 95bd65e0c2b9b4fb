package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/run"
	"github.com/longcraft/longcraft/bench/serve"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
	"github.com/stretchr/testify/assert"
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
	// The planner takes 334 steps here (under classic v2; index 0, used
	// before, now takes 77): seeks cross replay snapshots.
	s, err := New(task.Spec{Family: "obtain", Tier: "hard", Split: task.Eval, Index: 6}, Watch, "planner")
	require.NoError(t, err)
	hashes, rewards := []uint64{s.Hash()}, []string{s.Status().Reward}
	for s.Tick() {
		hashes = append(hashes, s.Hash())
		rewards = append(rewards, s.Status().Reward)
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
	require.Greater(t, len(hashes), snapshotEvery+50)
	for _, k := range []int{300, 257, 256, 255, len(hashes) / 2, 1, 0, len(hashes) - 1, 2, 290} {
		require.NoError(t, r.Seek(k))
		require.Equal(t, hashes[k], r.Hash(), "seek %d", k)
		require.Equal(t, k, r.Status().Step)
		require.Equal(t, rewards[k], r.Status().Reward, "seek %d", k)
	}
	i, err := FindEpisode("rec", data, r.Status().TaskID)
	require.NoError(t, err)
	require.Equal(t, 0, i)
	_, err = FindEpisode("rec", data, "ep-0000")
	require.Error(t, err)
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

// serveEpisode plays actions through the HTTP server's handler (no
// network: the test also runs under js/wasm) and returns its last step's
// answer and the finished episode's trace.
func serveEpisode(t *testing.T, spec task.Spec, actions []byte) (serve.StepResponse, *trace.Episode) {
	t.Helper()
	h := serve.New(serve.Config{})
	do := func(method, path string, body any) []byte {
		var rd *bytes.Reader
		if body == nil {
			rd = bytes.NewReader(nil)
		} else {
			b, err := json.Marshal(body)
			require.NoError(t, err)
			rd = bytes.NewReader(b)
		}
		rr := httptest.NewRecorder()
		req := httptest.NewRequest(method, path, rd)
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rr, req)
		require.Less(t, rr.Code, 300, "%s %s: %s", method, path, rr.Body)
		return rr.Body.Bytes()
	}
	var created serve.CreateResponse
	require.NoError(t, json.Unmarshal(do("POST", "/v1/episodes", serve.CreateRequest{Spec: spec}), &created))
	names := created.Info.Actions
	var last serve.StepResponse
	for _, a := range actions {
		require.False(t, last.Terminated || last.Truncated, "the server ended the episode before the runner")
		require.NoError(t, json.Unmarshal(do("POST", "/v1/episodes/"+created.ID+"/step", serve.StepRequest{Action: names[a]}), &last))
	}
	data := do("GET", "/v1/episodes/"+created.ID+"/trace", nil)
	f, err := trace.OpenReader("served", bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	ep, err := f.Episode(0)
	require.NoError(t, err)
	return last, ep
}

// TestOneEpisodeRule: the runner, the HTTP server and the browser play an
// episode through the one episode core, so the same actions on the same
// spec end at the same step, for the same reason, with the same success,
// metrics and trace; an achievements episode plays on past its count.
func TestOneEpisodeRule(t *testing.T) {
	for _, spec := range []task.Spec{
		{Family: task.FamilyAchievements, Tier: "easy", Split: task.Eval, Index: 0},
		{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1},
		{Family: task.FamilyWaypoints, Tier: "medium", Split: task.Eval, Index: 2},
	} {
		name := spec.Family
		s, err := New(spec, Watch, "random")
		require.NoError(t, err)
		for s.Tick() {
		}
		res, runTrace := run.PlayTrace(spec, run.Config{Agent: "random", Certify: true})
		require.Empty(t, res.Err)
		require.NotNil(t, runTrace)
		assert.Equal(t, res.End, s.Ended(), name)
		assert.Equal(t, res.Steps, s.Steps(), name)
		if spec.Family == task.FamilyAchievements {
			assert.NotEqual(t, "goal", s.Ended(), "an achievements episode plays on")
		}
		// The browser's recording says what the runner says.
		data, err := s.Recording(1)
		require.NoError(t, err)
		f, err := trace.OpenReader("rec", bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		ep, err := f.Episode(0)
		require.NoError(t, err)
		assert.Equal(t, res.Success, ep.Metrics.Success, "%s: the recording's success", name)
		assert.Equal(t, runTrace.Actions, ep.Actions, name)
		assert.Equal(t, runTrace.Final, ep.Final, name)

		// The server, given the runner's actions, ends where the runner
		// did, says the same, and records the same trace.
		last, served := serveEpisode(t, spec, runTrace.Actions)
		assert.True(t, last.Terminated || last.Truncated, name)
		assert.Equal(t, res.End, last.Info.End, name)
		assert.Equal(t, res.Success, last.Info.Success, name)
		require.NotNil(t, last.Info.Metrics, name)
		assert.Equal(t, res.Metrics, *last.Info.Metrics, name)
		assert.Equal(t, runTrace.Actions, served.Actions, name)
		assert.Equal(t, runTrace.Outcomes, served.Outcomes, name)
		assert.Equal(t, fmt.Sprint(runTrace.Checkpoints), fmt.Sprint(served.Checkpoints), name) // nil and empty alike
		assert.Equal(t, runTrace.Final, served.Final, name)
		assert.Equal(t, runTrace.Metrics, served.Metrics, name)
	}
}

// TestStatusShowsWhatAnAgentReads: the HUD's observation is the protocol's
// text at the task's budget and feedback level (hard: the reason code only).
func TestStatusShowsWhatAnAgentReads(t *testing.T) {
	s, err := New(hard, Play, "")
	require.NoError(t, err)
	require.True(t, s.Act(sim.ActMakeWoodPickaxe))
	st := s.Status()
	assert.Contains(t, st.Observation, fmt.Sprintf("Step 1 of %d", s.Task.Budget))
	assert.Contains(t, st.Observation, "(needs_nearby)")
	assert.NotContains(t, st.Observation, "table nearby", "reason feedback names no station")
	assert.Contains(t, st.Last, "(needs_nearby)")
}

// TestHUDShowsWhatTheAgentRead: a replay's last outcome is filtered by
// the task's feedback level as the play's was, and Play shows no seed.
func TestHUDShowsWhatTheAgentRead(t *testing.T) {
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1, Feedback: task.FeedbackNone}
	s, err := New(spec, Play, "")
	require.NoError(t, err)
	require.True(t, s.Act(sim.ActMakeWoodPickaxe))
	played := s.Status()
	assert.Zero(t, played.Seed, "no seed in Play")
	data, err := s.Recording(1)
	require.NoError(t, err)
	r, err := OpenReplay("rec", data, 0)
	require.NoError(t, err)
	require.True(t, r.Tick())
	replayed := r.Status()
	assert.Equal(t, played.Last, replayed.Last)
	assert.NotContains(t, replayed.Last, "needs")
	assert.NotZero(t, replayed.Seed)
}

// TestRecordingScoresAsHuman: the browser's recording names its player
// human in its header, and scoring it (--agent trace:FILE) labels the
// results and the summary "trace (human)", whatever the file is called.
func TestRecordingScoresAsHuman(t *testing.T) {
	s, err := New(easy, Play, "")
	require.NoError(t, err)
	for _, a := range keys {
		s.Act(a)
	}
	data, err := s.Recording(0)
	require.NoError(t, err)
	tf, err := trace.OpenReader("rec", bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	ep, err := tf.Episode(0)
	require.NoError(t, err)
	require.Equal(t, "human", ep.Header.Agent)

	file := filepath.Join(t.TempDir(), "planner.lctrace") // the name says nothing
	require.NoError(t, os.WriteFile(file, data, 0o644))
	out := t.TempDir()
	oc, err := run.Score(context.Background(), run.Options{Suite: "trace:" + file, Agent: "trace:" + file, Out: out, Traces: "all",
		Config: run.Config{Certify: true, Workers: 1}}, nil)
	require.NoError(t, err)
	require.Equal(t, "trace (human)", oc.Summary.Agent)
	rs, err := results.Read(filepath.Join(out, results.ResultsFile))
	require.NoError(t, err)
	require.Len(t, rs, 1)
	require.Empty(t, rs[0].Err)
	require.Equal(t, "trace (human)", rs[0].Agent)
	require.Equal(t, len(ep.Actions), rs[0].Steps)
	v, err := run.Verify(out)
	require.NoError(t, err)
	require.True(t, v.OK(), "%v", v.Problems())
}
