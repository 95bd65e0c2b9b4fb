package sim

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/golden"
)

func newWorld(t testing.TB) *World {
	t.Helper()
	w, err := New(Config{})
	require.NoError(t, err)
	return w
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Width: 2, Height: 64}, {Width: 64, Height: MaxSide + 1}, {MaxObjects: -1}, {MaxObjects: 70000},
	} {
		_, err := New(cfg)
		assert.Error(t, err, "%+v", cfg)
	}
}

func TestClassicTable(t *testing.T) {
	r := Classic()
	assert.Len(t, r.Actions, 17)
	assert.Len(t, r.Achievements, 22)
	assert.Len(t, r.Items, 16)
	assert.Len(t, r.Materials, 13)
	// Every recipe's achievement is named after it, as in Crafter.
	for _, c := range r.Collect {
		assert.Equal(t, "collect_"+r.Items[c.Receive.Item].Name, r.Achievements[c.Achievement])
	}
	for i, p := range r.Place {
		assert.Equal(t, "place_"+p.Name, r.Achievements[p.Achievement])
		a, ok := r.ActionByName("place_" + p.Name)
		require.True(t, ok)
		assert.Equal(t, i, r.Actions[a].Recipe)
	}
	for i, m := range r.Make {
		assert.Equal(t, "make_"+m.Name, r.Achievements[m.Achievement])
		assert.Equal(t, m.Name, r.Items[m.Gives.Item].Name)
		a, ok := r.ActionByName("make_" + m.Name)
		require.True(t, ok)
		assert.Equal(t, i, r.Actions[a].Recipe)
	}
	// Every achievement is reachable by some rule or event.
	reach := map[Achievement]bool{r.Events.WakeUp: true}
	for k := range r.Creatures {
		if a, ok := r.KindAchievement(ObjectKind(k)); ok {
			reach[a] = true
		}
	}
	for _, c := range r.Collect {
		reach[c.Achievement] = true
	}
	for _, p := range r.Place {
		reach[p.Achievement] = true
	}
	for _, m := range r.Make {
		reach[m.Achievement] = true
	}
	assert.Len(t, reach, 22)
}

// play steps w with the actions, resetting with the next seed when an
// episode ends, and returns the hash after every step.
func play(w *World, seed uint64, acts []Action) []uint64 {
	w.Reset(seed)
	hashes := make([]uint64, len(acts))
	for i, a := range acts {
		if out := w.Step(a); out.Done {
			seed++
			w.Reset(seed)
		}
		hashes[i] = w.Hash()
	}
	return hashes
}

func TestDeterminism(t *testing.T) {
	acts := randomActions(5000, 99)
	a := play(newWorld(t), 7, acts)
	b := play(newWorld(t), 7, acts)
	require.Equal(t, a, b, "same seed and actions must give the same hash at every step")
	c := play(newWorld(t), 8, acts)
	assert.NotEqual(t, a[0], c[0], "different seeds give different worlds")
}

func TestResetIsComplete(t *testing.T) {
	// A world reset after a long episode equals a fresh one.
	w := newWorld(t)
	play(w, 3, randomActions(3000, 1))
	w.Reset(11)
	fresh := newWorld(t)
	fresh.Reset(11)
	assert.Equal(t, fresh.Hash(), w.Hash())
	assert.Equal(t, fresh.ASCII(), w.ASCII())
}

func TestCloneContinuesIdentically(t *testing.T) {
	w := newWorld(t)
	w.Reset(5)
	acts := randomActions(2000, 3)
	for _, a := range acts[:150] {
		w.Step(a)
	}
	c := w.Clone()
	snap := newWorld(t)
	snap.CopyFrom(w)
	require.Equal(t, w.Hash(), c.Hash())
	require.Equal(t, w.Hash(), snap.Hash())
	for i, a := range acts[150:] {
		ow, oc, os := w.Step(a), c.Step(a), snap.Step(a)
		require.Equal(t, ow, oc, "step %d", i)
		require.Equal(t, ow, os, "step %d", i)
		require.Equal(t, w.Hash(), c.Hash(), "step %d", i)
		require.Equal(t, w.Hash(), snap.Hash(), "step %d", i)
	}
	// The clone is independent: stepping it leaves the original alone.
	h := w.Hash()
	c.Step(ActMoveLeft)
	assert.Equal(t, h, w.Hash())
	// A clone carries no generation scratch until its first Reset, which
	// then generates the same world as any other.
	c.Reset(8)
	w.Reset(8)
	assert.Equal(t, w.Hash(), c.Hash())
}

func TestCopyFromRejectsOtherShapes(t *testing.T) {
	a := newWorld(t)
	b, err := New(Config{Width: 32, Height: 32})
	require.NoError(t, err)
	assert.Panics(t, func() { a.CopyFrom(b) })
}

// goldenRuns are the episodes whose hashes must never change (unless the
// rules version does): they pin worldgen, the RNG and every rule, natively
// and under GOOS=js GOARCH=wasm.
var goldenRuns = []struct {
	seed    uint64
	actions uint64 // seed of the action sequence
}{{0, 1}, {1, 2}, {42, 3}, {1 << 40, 4}, {0xdeadbeefcafe, 5}}

func goldenLines(t *testing.T) []string {
	var lines []string
	for _, g := range goldenRuns {
		w := newWorld(t)
		w.Reset(g.seed)
		lines = append(lines, fmt.Sprintf("seed %d step 0 hash %016x", g.seed, w.Hash()))
		for i, a := range randomActions(3000, g.actions) {
			out := w.Step(a)
			if (i+1)%500 == 0 || out.Done {
				lines = append(lines, fmt.Sprintf("seed %d step %d hash %016x", g.seed, i+1, w.Hash()))
			}
			if out.Done {
				break
			}
		}
	}
	return lines
}

func TestGoldenHashes(t *testing.T) {
	path := filepath.Join("testdata", "golden_hashes.txt")
	got := goldenLines(t)
	golden.File(t, path, []byte(strings.Join(got, "\n")+"\n"), "world hashes changed: a rule, worldgen or the RNG changed; bump Rules.Version and rewrite")
}

func TestNoAllocations(t *testing.T) {
	w := newWorld(t)
	w.Reset(1)
	c := w.Clone()
	generic := newWorld(t) // the generic code, where the vector kernels run
	decideMode{}.set(generic.gen)
	acts := randomActions(1024, 5)
	var obs Observation
	view := make([]uint8, w.Width()*w.Height())
	i, seed := 0, uint64(1)
	cases := map[string]func(){
		"Reset":         func() { seed++; w.Reset(seed) },
		"Reset generic": func() { seed++; generic.Reset(seed) },
		"Step": func() {
			if w.Step(acts[i%len(acts)]).Done {
				w.Reset(seed)
			}
			i++
		},
		"Hash":        func() { _ = w.Hash() },
		"CopyFrom":    func() { c.CopyFrom(w) },
		"Observe":     func() { w.Observe(&obs) },
		"SemanticMap": func() { w.SemanticMap(view) },
	}
	for name, f := range cases {
		assert.Zero(t, testing.AllocsPerRun(200, f), name)
	}
}

// TestEverySizeUpToMaxSide: the default object capacity fits its bound at
// every size sim.New accepts. It used to be area/8, over the bound above
// 724 tiles a side, so New refused sizes MaxSide says are fine.
func TestEverySizeUpToMaxSide(t *testing.T) {
	for _, side := range []int{3, 64, 724, 725, 1000, MaxSide} {
		w, err := New(Config{Width: side, Height: side})
		require.NoError(t, err, "side %d", side)
		assert.LessOrEqual(t, len(w.objects), maxObjects)
	}
	_, err := New(Config{Width: MaxSide + 1, Height: 3})
	assert.Error(t, err)
}

// TestStepBeforeReset: a world made by New and never Reset has no episode;
// Step on it reports done and changes nothing (it used to index the
// missing player and panic).
func TestStepBeforeReset(t *testing.T) {
	w, err := New(Config{})
	require.NoError(t, err)
	before := w.Hash()
	out := w.Step(ActMoveLeft)
	assert.True(t, out.Done)
	assert.True(t, w.Done())
	assert.Equal(t, before, w.Hash())
	w.Reset(1)
	assert.False(t, w.Done(), "a reset world plays")
}

// TestEndlessEpisodeEndsAtTheCounter: with no episode length, an episode
// ends (time up) when its step counter is full, instead of wrapping to
// negative steps, where the time of day was read at a negative index and
// Step panicked; SetStepCount refuses counts the counter cannot hold
// instead of cutting them to 32 bits.
func TestEndlessEpisodeEndsAtTheCounter(t *testing.T) {
	r := Classic().Clone()
	r.Vitals.EpisodeLength = 0
	require.NoError(t, r.Compile())
	w, err := New(Config{Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.Error(t, w.SetStepCount(math.MaxInt32))
	require.Error(t, w.SetStepCount(1<<40+5))
	require.NoError(t, w.SetStepCount(math.MaxInt32-3))
	var last Outcome
	for range 3 {
		require.False(t, w.Done())
		last = w.Step(ActNoop)
	}
	assert.True(t, last.Done)
	assert.NotZero(t, last.Events&EventTimeUp, "the last step is time up")
	assert.Equal(t, math.MaxInt32, w.StepCount())
	out := w.Step(ActNoop) // done: changes nothing
	assert.True(t, out.Done)
	assert.Equal(t, math.MaxInt32, w.StepCount())
	assert.NotPanics(t, func() { _ = w.Daylight() })
}

// TestBalanceStep: the division-free test of a balance step agrees with
// the remainder for every period up to 100 and steps up to 10^5, and at
// the ends of the step counter's range.
func TestBalanceStep(t *testing.T) {
	w := newBenchWorld(t)
	for d := int32(1); d <= 100; d++ {
		r := w.rules.Clone()
		r.Creature.BalanceEvery = d
		require.NoError(t, r.Compile())
		w.rules = r
		steps := []int32{math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32 - d, math.MaxInt32 / d * d}
		for n := int32(0); n < 100_000; n++ {
			steps = append(steps, n)
		}
		for _, n := range steps {
			w.s.Step = n
			if w.balanceStep() != (n%d == 0) {
				require.Fail(t, "balanceStep", "step %d, period %d: got %v", n, d, w.balanceStep())
			}
		}
	}
	// A period edited in place after Compile (the tests' habit) counts.
	w.rules.Creature.BalanceEvery = 1 << 30
	for _, n := range []int32{10, 20, 100, 1 << 30} {
		w.s.Step = n
		assert.Equal(t, n == 1<<30, w.balanceStep(), "step %d after an edit without Compile", n)
	}
}
