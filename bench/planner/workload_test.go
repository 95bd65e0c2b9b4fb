package planner

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// certCase is one certification attempt of the certify workload: the
// world as the generator handed it to the certifier, the goal and budget.
type certCase struct {
	w      *sim.World
	goal   task.Goal
	budget int
}

var (
	workloadOnce  sync.Once
	workloadCases []certCase
)

// workloadPerTier is how many eval tasks per tier the workload holds.
const workloadPerTier = 10

// certWorkload returns the certification attempts of the first
// workloadPerTier eval obtain tasks of every tier: what `make certify`
// runs, in small. Every attempt is kept (those the planner fails too, which
// run to the budget), as a snapshot to clone.
func certWorkload(tb testing.TB) []certCase {
	workloadOnce.Do(func() {
		for _, tier := range task.Tiers() {
			for i := range uint64(workloadPerTier) {
				spec := task.Spec{Family: task.FamilyObtain, Tier: tier.Name, Split: task.Eval, Index: i}
				_, err := task.Generate(spec, func(w *sim.World, goal task.Goal, budget int) (bool, int) {
					workloadCases = append(workloadCases, certCase{w: w.Clone(), goal: goal, budget: budget})
					return Solve(w, goal, budget)
				})
				if err != nil {
					tb.Fatal(err)
				}
			}
		}
	})
	return workloadCases
}

// BenchmarkCertify runs the planner (Solve, world steps included) on the
// certification attempts of 40 tasks, 10 per tier, and reports the time
// per planner step.
func BenchmarkCertify(b *testing.B) {
	var solver Solver // as a certifying worker holds one
	benchCertify(b, func(w *sim.World, c certCase) int {
		_, n := solver.Solve(w, c.goal, c.budget)
		return n
	})
}

// BenchmarkCertifyReference is BenchmarkCertify with the planner's
// reference mode, the whole cost field and whole-map scans at every step
// as before the lazy field (a fresh planner a task, as play makes): the
// lazy field's speed-up is the ratio of the two ns/step in one run.
func BenchmarkCertifyReference(b *testing.B) {
	benchCertify(b, func(w *sim.World, c certCase) int {
		return len(play(w, c.goal, c.budget, true))
	})
}

// benchCertify plays the workload's attempts with solve, which returns
// the steps it took, on copies of their worlds, and reports the time per
// planner step and the steps per pass (the same for every mode that plays
// alike).
func benchCertify(b *testing.B, solve func(*sim.World, certCase) int) {
	cases := certWorkload(b)
	worlds := make([]*sim.World, len(cases))
	for i, c := range cases {
		worlds[i] = c.w.Clone()
	}
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	for range b.N {
		for i, c := range cases {
			worlds[i].CopyFrom(c.w)
			total += solve(worlds[i], c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(total, 1)), "ns/step")
	b.ReportMetric(float64(total)/float64(b.N), "steps/op")
}

// play runs a planner (the reference when ref is set) on w for at most
// budget steps and returns its actions.
func play(w *sim.World, goal task.Goal, budget int, ref bool) []sim.Action {
	p := New(goal)
	p.ref = ref
	p.Reset(w.Seed())
	p.trackTiles = !ref // as Solve plays
	prog := task.NewProgress(goal, w)
	var acts []sim.Action
	var last *sim.Outcome
	for len(acts) < budget && !w.Done() && !prog.Update(w) {
		a := p.Act(w, last)
		acts = append(acts, a)
		out := w.Step(a)
		last = &out
	}
	return acts
}

// TestLazyFieldMatchesReference plays the certification attempts of the
// workload, and other goals, with the lazy cost field and nearest-first
// queries and with the reference (the whole field, whole-map scans): the
// actions must be the same, step for step.
func TestLazyFieldMatchesReference(t *testing.T) {
	cases := certWorkload(t)
	if testing.Short() {
		cases = cases[:len(cases)/4]
	}
	for _, g := range []task.Goal{{Kind: task.KindAchievements}, task.Survive(600), task.Obtain("diamond", 1)} {
		for seed := range uint64(3) {
			w, err := sim.New(sim.Config{})
			require.NoError(t, err)
			w.Reset(100 + seed)
			cases = append(cases, certCase{w: w, goal: g, budget: 1500})
		}
	}
	for i, c := range cases {
		fast := play(c.w.Clone(), c.goal, c.budget, false)
		ref := play(c.w.Clone(), c.goal, c.budget, true)
		require.Equal(t, ref, fast, "case %d (%s, seed %d)", i, c.goal, c.w.Seed())
	}
}

// TestTrackedTilesMatchTheWorld plays with the tiles tracked as Solve
// does (only those one step can change are reread) and checks every step
// that the planner's tiles are the world's.
func TestTrackedTilesMatchTheWorld(t *testing.T) {
	cases := certWorkload(t)
	if testing.Short() {
		cases = cases[:len(cases)/4]
	}
	for i, c := range cases {
		w := c.w.Clone()
		p := New(c.goal)
		p.Reset(w.Seed())
		p.trackTiles = true
		prog := task.NewProgress(c.goal, w)
		var last *sim.Outcome
		for n := 0; n < c.budget && !w.Done() && !prog.Update(w); n++ {
			a := p.Act(w, last)
			if p.seen.w == w && p.seen.step == w.StepCount() { // it read the tiles
				W := w.Width()
				for j, m := range p.mat {
					if m != w.Material(j%W, j/W) {
						require.Failf(t, "tile differs", "case %d step %d tile (%d, %d): planner %d, world %d", i, n, j%W, j/W, m, w.Material(j%W, j/W))
					}
					if p.base[j] != p.matCost[m] {
						require.Failf(t, "cost differs", "case %d step %d tile %d", i, n, j)
					}
				}
			}
			out := w.Step(a)
			last = &out
		}
	}
}

// TestNeighbourMatchesTheFormula checks neighbour's shortcut against the
// plain arithmetic on every tile and direction of a small map.
func TestNeighbourMatchesTheFormula(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 7, Height: 5})
	require.NoError(t, err)
	w.Reset(1)
	p := New(task.Obtain("wood", 1))
	p.setup(w)
	for i := -1; i < 35; i++ {
		for d := sim.DirNone; d <= sim.DirDown; d++ {
			x, y := i%7, i/7
			dx, dy := d.Offset()
			x, y = x+dx, y+dy
			want := y*7 + x
			if x < 0 || y < 0 || x >= 7 || y >= 5 {
				want = -1
			}
			require.Equal(t, want, p.neighbour(i, d), "tile %d dir %v", i, d)
		}
	}
}
