package task

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/sim"
)

func TestSplitsCannotOverlap(t *testing.T) {
	// By construction: the top bit of a seed is its split.
	train, eval := map[uint64]bool{}, map[uint64]bool{}
	for _, fam := range Families() {
		for _, tier := range Tiers() {
			for i := uint64(0); i < 2000; i++ {
				s := SeedFor(Train, fam, tier.Name, i)
				require.Equal(t, Train, SplitOf(s))
				train[s] = true
				e := SeedFor(Eval, fam, tier.Name, i)
				require.Equal(t, Eval, SplitOf(e))
				eval[e] = true
			}
		}
	}
	for s := range train {
		require.False(t, eval[s], "seed %d in both splits", s)
	}
	// And the eval variant families are held out of training.
	for _, f := range FamiliesFor(Eval) {
		assert.NotContains(t, FamiliesFor(Train), f)
	}
}

func TestSpecIDIsStable(t *testing.T) {
	s := Spec{Family: FamilyObtain, Tier: "medium", Split: Train, Index: 7}
	// Pinned: changing the id scheme breaks every stored result.
	assert.Equal(t, "ep-7c60628bb3dc9b34", s.ID())
	s2 := s
	s2.Index = 8
	assert.NotEqual(t, s.ID(), s2.ID())
}

func TestFeedbackFilter(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 5, Height: 5})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII("#####\n#.@.#\n#...#\n#####\n#####"))
	require.NoError(t, w.SetFacing(sim.DirUp))
	out := w.Step(sim.ActDo) // stone without a pickaxe
	require.Equal(t, sim.ReasonMissingTool, out.Reason)
	full := FeedbackFull.Filter(out)
	assert.Equal(t, out, full)
	reason := FeedbackReason.Filter(out)
	assert.Equal(t, sim.ReasonMissingTool, reason.Reason)
	assert.Zero(t, reason.Missing)
	none := FeedbackNone.Filter(out)
	assert.Equal(t, sim.OutNothing, none.Kind)
	assert.Equal(t, sim.ReasonNone, none.Reason)
	assert.Equal(t, "do: nothing happened", text.Outcome(none, w.Rules()))
}

func TestVariantsAreDeterministicAndValid(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		for _, split := range []Split{Train, Eval} {
			a, notesA, err := ApplyVariants(sim.Extended(), seed, FamiliesFor(split))
			require.NoError(t, err)
			b, notesB, err := ApplyVariants(sim.Extended(), seed, FamiliesFor(split))
			require.NoError(t, err)
			require.Equal(t, notesA, notesB)
			require.Len(t, notesA, 2)
			require.True(t, allObtainable(a))
			require.Equal(t, a.Make, b.Make)
		}
	}
	// Seeds draw different variants.
	_, n1, _ := ApplyVariants(sim.Classic(), 1, FamiliesFor(Train))
	_, n2, _ := ApplyVariants(sim.Classic(), 2, FamiliesFor(Train))
	assert.NotEqual(t, n1, n2)
}

func TestProgressWaypointsInOrder(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 9, Height: 3})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(".2..@..1.\n.........\n#########"))
	p := NewProgress(Waypoints(0, 1), w) // landmark A ('1') first, then B ('2')
	walk := func(a sim.Action, n int) {
		for i := 0; i < n; i++ {
			w.Step(a)
			p.Update(w)
		}
	}
	walk(sim.ActMoveLeft, 2) // next to B first: does not count
	r, total := p.Stages()
	assert.Equal(t, 0, r)
	assert.Equal(t, 2, total)
	walk(sim.ActMoveRight, 4) // next to A
	r, _ = p.Stages()
	assert.Equal(t, 1, r)
	walk(sim.ActMoveLeft, 4)
	done, _ := p.Reached()
	assert.True(t, done)
}

// TestProgressResetAndCopy: a Progress reset for another goal and world
// follows that one as a new one would, and a copy keeps its own leaves
// and landmarks when the original is reset (they share no memory).
func TestProgressResetAndCopy(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 9, Height: 3})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(".2..@..1.\n.........\n#########"))
	p := NewProgress(Waypoints(0, 1), w)
	var c Progress
	c.CopyFrom(p)
	require.Equal(t, p, &c)

	other, err := sim.New(sim.Config{Width: 9, Height: 3})
	require.NoError(t, err)
	other.Reset(2)
	require.NoError(t, other.LoadASCII("...1@2...\n.........\n#########"))
	p.Reset(Waypoints(1, 0), other)
	assert.Equal(t, NewProgress(Waypoints(1, 0), other), p, "a reset Progress is a new one")
	assert.Equal(t, map[int][2]int{0: {7, 0}, 1: {1, 0}}, c.landmarks, "the copy's landmarks")
	assert.Equal(t, []int{0}, c.leaves[0].Order, "the copy's first leaf")
	assert.Equal(t, []int{1}, p.leaves[0].Order)
	assert.Equal(t, map[int][2]int{0: {3, 0}, 1: {5, 0}}, p.landmarks)
}

func TestGenerateEveryFamilyAndTier(t *testing.T) {
	for _, tier := range Tiers() {
		for _, fam := range Families() {
			spec := Spec{Family: fam, Tier: tier.Name, Split: Eval, Index: 3}
			a, err := Generate(spec, nil)
			require.NoError(t, err, "%s/%s", fam, tier.Name)
			b, err := Generate(spec, nil)
			require.NoError(t, err)
			assert.Equal(t, a.Goal, b.Goal, "deterministic")
			assert.Equal(t, a.Seed, b.Seed)
			assert.Equal(t, Eval, SplitOf(a.Seed))
			assert.Equal(t, tier.Variants, len(a.Variants) > 0, "%s/%s variants", fam, tier.Name)
			w, err := a.NewWorld()
			require.NoError(t, err)
			assert.Equal(t, tier.MapSize, w.Width())
			assert.NotContains(t, a.Describe(), "variant")
			if fam == FamilyObtain {
				assert.GreaterOrEqual(t, a.Depth, tier.MinDepth)
				assert.LessOrEqual(t, a.Depth, tier.MaxDepth)
			}
			if fam == FamilyWaypoints {
				n := 0
				for _, o := range w.Objects() {
					if o.Kind == sim.ObjLandmark {
						n++
					}
				}
				assert.Equal(t, tier.Landmarks, n)
			}
		}
	}
	_, err := Generate(Spec{Family: "nope", Tier: "easy", Split: Train}, nil)
	assert.Error(t, err)
	_, err = Generate(Spec{Family: FamilyObtain, Tier: "nope", Split: Train}, nil)
	assert.Error(t, err)
}

func TestGenerateRegeneratesUntilCertified(t *testing.T) {
	calls := 0
	cert := func(w *sim.World, g Goal, budget int) (bool, int) {
		calls++
		return calls == 3, 42 // the first two worlds "fail"
	}
	task, err := Generate(Spec{Family: FamilyObtain, Tier: "easy", Split: Train, Index: 1}, cert)
	require.NoError(t, err)
	assert.True(t, task.Certified)
	assert.Equal(t, 3, task.Attempts)
	assert.Equal(t, 42, task.PlannerSteps)
	assert.Equal(t, Train, SplitOf(task.Seed), "regenerated seeds keep their split")
	first, err := Generate(Spec{Family: FamilyObtain, Tier: "easy", Split: Train, Index: 1}, nil)
	require.NoError(t, err)
	assert.NotEqual(t, first.Seed, task.Seed)
	_, err = Generate(Spec{Family: FamilyObtain, Tier: "easy", Split: Train, Index: 1},
		func(*sim.World, Goal, int) (bool, int) { return false, 0 })
	assert.ErrorContains(t, err, "no certifiable world")
}

// TestSurviveBudgetShorterThanGoal: a budget too short to survive is an
// error, not silently raised.
func TestSurviveBudgetShorterThanGoal(t *testing.T) {
	_, err := Generate(Spec{Family: FamilySurvive, Tier: "easy", Split: Eval, Budget: 7}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "shorter than")
}
