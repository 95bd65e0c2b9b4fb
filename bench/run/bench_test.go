package run

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// runnerEpisode sets up the runner's inner loop on a medium achievements
// task with the named agent, recording a trace, and a snapshot of its start.
func runnerEpisode(t testing.TB, name string) (*episode.Episode, agent.Agent, *task.Task, *sim.World) {
	tk, err := task.Generate(task.Spec{Family: task.FamilyAchievements, Tier: "medium", Split: task.Eval, Index: 1}, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	a, err := agent.New(name, tk, agent.Options{})
	require.NoError(t, err)
	a.Reset(tk.Seed)
	start := w.Clone()
	return episode.New(tk, w, episode.Options{Recorder: trace.NewRecorder(tk.Budget)}), a, tk, start
}

// TestRunnerStepAllocatesNothing: the inner loop (agent, step, progress,
// metrics, trace) allocates nothing per step with the built-in agents.
func TestRunnerStepAllocatesNothing(t *testing.T) {
	for _, name := range agent.Names(func(k agent.Kind) bool { return k.Offline }) {
		e, a, _, _ := runnerEpisode(t, name)
		allocs := testing.AllocsPerRun(100, func() {
			e.Step(a.Act(e.World(), e.Last()))
		})
		assert.Zero(t, allocs, name)
		assert.Positive(t, e.Steps(), name)
	}
}

// benchmarkSteps measures steps of the runner's inner loop, or of bare
// sim.Step with the same policy's actions; finished episodes restart from
// a snapshot (world generation is BenchmarkReset's business).
func benchmarkSteps(b *testing.B, name string, runner bool) {
	rec := trace.NewRecorder(10000)
	e, a, tk, start := runnerEpisode(b, name)
	w := e.World()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if runner {
			if e.Over() {
				w.CopyFrom(start)
				e = episode.New(tk, w, episode.Options{Recorder: rec})
			}
			e.Step(a.Act(w, e.Last()))
		} else {
			if w.Done() || w.Dead() {
				w.CopyFrom(start)
			}
			w.Step(a.Act(w, nil))
		}
	}
}

// The runner's overhead over bare stepping, with the random agent (its
// choice costs the same in both).
func BenchmarkStepBare(b *testing.B)   { benchmarkSteps(b, "random", false) }
func BenchmarkStepRunner(b *testing.B) { benchmarkSteps(b, "random", true) }

// BenchmarkSuite plays the default suite without certification with the
// random agent on 1 worker and on one per core: steps per second, task
// generation included. The ratio of the two is the scaling over cores.
// The random agent costs next to nothing, so this measures the runner;
// the explorer's own search (about 20 µs a step) would dominate it.
func BenchmarkSuite(b *testing.B) {
	s, err := suite.Load("default")
	require.NoError(b, err)
	specs := s.Expand()
	idx := make([]int, len(specs))
	for i := range idx {
		idx[i] = i
	}
	for _, workers := range []int{1, runtime.NumCPU()} {
		name := "workers=1"
		if workers > 1 {
			name = "workers=all"
		}
		b.Run(name, func(b *testing.B) {
			steps := 0
			for i := 0; i < b.N; i++ {
				err := Suite(context.Background(), specs, idx, Config{Agent: "random", Workers: workers},
					func(d Done) error { steps += d.Result.Steps; return nil })
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
