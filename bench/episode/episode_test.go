package episode

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

func newTask(t testing.TB, spec task.Spec) (*task.Task, *sim.World) {
	tk, err := task.Generate(spec, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	return tk, w
}

var obtainEasy = task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1}

// TestEnds pins the end every limit gives, and which end wins.
func TestEnds(t *testing.T) {
	t.Run("budget", func(t *testing.T) {
		spec := obtainEasy
		spec.Budget = 7
		tk, w := newTask(t, spec)
		e := New(tk, w, Options{})
		for e.Step(sim.ActNoop) {
		}
		assert.Equal(t, task.EndBudget, e.End())
		assert.Equal(t, 7, e.Steps())
		assert.False(t, e.Terminated(), "a budget end is a truncation")
		assert.False(t, e.Step(sim.ActNoop), "no step after the end")
		assert.Equal(t, 7, w.StepCount())
	})
	t.Run("no progress", func(t *testing.T) {
		tk, w := newTask(t, obtainEasy)
		e := New(tk, w, Options{NoProgress: 5})
		for e.Step(sim.ActNoop) {
		}
		assert.Equal(t, task.EndNoProgress, e.End())
		assert.Equal(t, 5, e.Steps())
	})
	t.Run("timeout is checked every step", func(t *testing.T) {
		tk, w := newTask(t, obtainEasy)
		now := time.Unix(0, 0)
		clock := func() time.Time { now = now.Add(time.Second); return now } // each read: a second later
		e := New(tk, w, Options{Timeout: 2500 * time.Millisecond, Now: clock})
		for e.Step(sim.ActNoop) {
		}
		assert.Equal(t, task.EndTimeout, e.End())
		assert.Equal(t, 3, e.Steps(), "start at 1 s; after the third step the clock reads 4 s, over 2.5 s later")
	})
	t.Run("a host's stop", func(t *testing.T) {
		tk, w := newTask(t, obtainEasy)
		e := New(tk, w, Options{})
		e.Step(sim.ActNoop)
		e.Stop(task.EndAgentError)
		assert.Equal(t, task.EndAgentError, e.End())
		e.Stop(task.EndStopped)
		assert.Equal(t, task.EndAgentError, e.End(), "the first end stands")
		assert.False(t, e.Terminated())
	})
	t.Run("free play never succeeds", func(t *testing.T) {
		r, err := sim.RulesByName(sim.ClassicName)
		require.NoError(t, err)
		tk := task.FreePlay(r, 3, sim.DefaultSize, 40, task.FeedbackFull, task.Partial)
		w, err := tk.NewWorld()
		require.NoError(t, err)
		e := New(tk, w, Options{})
		for i := 0; e.Step(sim.ActMoveLeft + sim.Action(i%4)); i++ {
		}
		assert.Equal(t, task.EndBudget, e.End())
		assert.False(t, e.Success())
		assert.Contains(t, tk.Describe(), "Free play")
	})
}

// TestAchievementsPlayOn: an achievements episode does not end when its
// count is unlocked; it plays on to death or the budget, succeeding.
func TestAchievementsPlayOn(t *testing.T) {
	tk, w := newTask(t, task.Spec{Family: task.FamilyAchievements, Tier: "easy", Split: task.Eval, Index: 0, Budget: 300})
	tk.Achieve = 1 // reached by the first unlock
	e := New(tk, w, Options{})
	unlockedAt := -1
	rng := sim.RNG{State: 5}
	for e.Step(sim.Action(rng.Intn(len(w.Rules().Actions)))) {
		if w.Achievements() != 0 && unlockedAt < 0 {
			unlockedAt = e.Steps()
		}
	}
	require.Positive(t, unlockedAt, "random play unlocked nothing: pick another seed")
	assert.Greater(t, e.Steps(), unlockedAt, "the episode played on after its count")
	assert.NotEqual(t, task.EndGoal, e.End())
	assert.True(t, e.Success())
}

// TestAgentsReadTheFilteredOutcome: Last is what the task's feedback level
// lets an agent read; LastFull keeps the cause for the evaluator.
func TestAgentsReadTheFilteredOutcome(t *testing.T) {
	for _, c := range []struct {
		fb     task.Feedback
		failed bool
	}{{task.FeedbackFull, true}, {task.FeedbackReason, true}, {task.FeedbackNone, false}} {
		spec := obtainEasy
		spec.Feedback = c.fb
		tk, w := newTask(t, spec)
		e := New(tk, w, Options{})
		assert.Nil(t, e.Last())
		e.Step(sim.ActMakeWoodPickaxe) // no table, no wood
		require.True(t, e.LastFull().Failed())
		assert.Equal(t, c.failed, e.Last().Failed(), c.fb)
		if c.fb != task.FeedbackFull {
			assert.Zero(t, e.Last().Missing, c.fb)
		}
		assert.Equal(t, e.Metrics().FailedActions, 1, "metrics read the full outcome")
	}
}

// TestTraceAndMetrics: the trace the episode records replays to its final
// state, and its metrics agree with it.
func TestTraceAndMetrics(t *testing.T) {
	tk, w := newTask(t, obtainEasy)
	start := w.Clone()
	e := New(tk, w, Options{Recorder: trace.NewRecorder(tk.Budget), Agent: "test"})
	for i := 0; i < 50 && e.Step(sim.Action(i*7%len(w.Rules().Actions))); i++ {
	}
	ep := e.Trace()
	require.NotNil(t, ep)
	assert.Equal(t, "test", ep.Header.Agent)
	assert.Equal(t, tk.Spec, *ep.Header.Task)
	assert.Equal(t, e.Steps(), len(ep.Actions))
	for _, a := range ep.Actions {
		start.Step(sim.Action(a))
	}
	assert.Equal(t, start.Hash(), ep.Final)
	m := e.Metrics()
	assert.Equal(t, ep.Metrics.Steps, m.Steps)
	assert.Equal(t, float64(ep.Metrics.RewardTenths)/10, m.Return)
	assert.Equal(t, ep.Metrics.Success, m.Success)
}

// TestStepAllocatesNothing: the core's step (world, progress, metrics,
// trace) allocates nothing.
func TestStepAllocatesNothing(t *testing.T) {
	tk, w := newTask(t, task.Spec{Family: task.FamilySurvive, Tier: "easy", Split: task.Eval, Index: 0})
	e := New(tk, w, Options{Recorder: trace.NewRecorder(tk.Budget), NoProgress: 1 << 20, Timeout: time.Hour})
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		e.Step(sim.Action(i % 5))
		i++
	})
	assert.Zero(t, allocs)
	assert.Positive(t, e.Steps())
}

// BenchmarkStep measures the core's step with a trace recorder and the
// wall-clock timeout on.
func BenchmarkStep(b *testing.B) {
	tk, w := newTask(b, task.Spec{Family: task.FamilySurvive, Tier: "easy", Split: task.Eval, Index: 0})
	start := w.Clone()
	rec := trace.NewRecorder(tk.Budget)
	e := New(tk, w, Options{Recorder: rec, Timeout: time.Hour})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if e.Over() {
			w.CopyFrom(start)
			e = New(tk, w, Options{Recorder: rec, Timeout: time.Hour})
		}
		e.Step(sim.Action(i % 5))
	}
}

// TestExploration: the exploration metrics count what the player stood on
// and saw, once each, and the items it came to hold.
func TestExploration(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 20, Height: 20})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(strings.Repeat(strings.Repeat(".", 20)+"\n", 9)+strings.Repeat(".", 9)+"@T"+strings.Repeat(".", 9)+"\n"+strings.Repeat(strings.Repeat(".", 20)+"\n", 10)))
	var c Coverage
	c.Begin(w, nil)
	e := c.Exploration()
	assert.Equal(t, 1, e.TilesVisited)
	assert.Equal(t, 9*7, e.TilesSeen, "the 9×7 window around the start")
	assert.Equal(t, 2, e.MaterialsSeen, "grass and the tree")
	assert.Equal(t, 399, e.Reachable, "every grass tile: all but the tree")
	out := w.Step(sim.ActMoveLeft)
	c.Step(w, &out)
	out = w.Step(sim.ActMoveRight) // back: nothing new visited
	c.Step(w, &out)
	e = c.Exploration()
	assert.Equal(t, 2, e.TilesVisited)
	assert.Equal(t, 9*7+7, e.TilesSeen, "one new column of 7")
	out = w.Step(sim.ActDo) // facing right, at the tree: wood
	c.Step(w, &out)
	require.Equal(t, sim.OutCollected, out.Kind)
	assert.Equal(t, 1, c.Exploration().ItemsObtained)
	assert.InDelta(t, float64(9*7+7)/400, c.Exploration().SeenFraction, 1e-12)
	assert.InDelta(t, 2.0/399, c.Exploration().VisitedShare, 1e-12)
	assert.Zero(t, testing.AllocsPerRun(100, func() { c.Step(w, &out) }))
}

// TestUnlockSteps: an episode records the step of each unlock, one per
// achievement unlocked, ascending, within the episode.
func TestUnlockSteps(t *testing.T) {
	tk, w := newTask(t, task.Spec{Family: task.FamilyAchievements, Tier: "easy", Split: task.Eval, Index: 0})
	e := New(tk, w, Options{})
	rng := sim.RNG{State: 7}
	for !e.Over() {
		e.Step(sim.Action(rng.Intn(len(w.Rules().Actions))))
	}
	m := e.Metrics()
	require.Positive(t, m.Unlocked, "random play unlocks something in 1,000 steps")
	require.Len(t, m.UnlockSteps, m.Unlocked)
	assert.True(t, slices.IsSorted(m.UnlockSteps))
	assert.Positive(t, m.UnlockSteps[0])
	assert.LessOrEqual(t, m.UnlockSteps[len(m.UnlockSteps)-1], m.Steps)
}
