package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// randomActions returns a fixed pseudo-random action sequence.
func randomActions(n int, seed uint64) []Action {
	r := RNG{State: seed}
	acts := make([]Action, n)
	for i := range acts {
		acts[i] = Action(r.Intn(17))
	}
	return acts
}

func newBenchWorld(b testing.TB) *World {
	w, err := New(Config{})
	require.NoError(b, err)
	w.Reset(1)
	return w
}

// BenchmarkStep steps random actions; when an episode ends the world
// restarts from one of 64 freshly reset worlds prepared before the timer
// (a CopyFrom: about 3 µs, since the 64 worlds are out of the core's
// caches, once an episode of about 166 steps, so under 5% of the figure),
// so the figure is Step's, not Reset's. Reset's cost is BenchmarkReset's;
// BenchmarkStepWithReset pays both.
func BenchmarkStep(b *testing.B) { benchSteps(b, (*World).Step) }

// benchSteps is BenchmarkStep with the given step function (the plain
// reference of BenchmarkStepReference too).
func benchSteps(b *testing.B, step func(*World, Action) Outcome) {
	w := newBenchWorld(b)
	starts := make([]*World, 64)
	for i := range starts {
		starts[i] = w.Clone()
		starts[i].Reset(uint64(i))
	}
	acts := randomActions(1<<16, 7)
	episodes := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out := step(w, acts[i&(1<<16-1)]); out.Done {
			episodes++
			w.CopyFrom(starts[episodes%len(starts)])
		}
	}
	b.ReportMetric(float64(b.N)/float64(episodes+1), "steps/episode")
}

// BenchmarkStepWithReset steps random actions and calls Reset with a new
// seed whenever an episode ends: the throughput of a random agent.
func BenchmarkStepWithReset(b *testing.B) {
	w := newBenchWorld(b)
	acts := randomActions(1<<16, 7)
	seed := uint64(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out := w.Step(acts[i&(1<<16-1)]); out.Done {
			seed++
			w.Reset(seed)
		}
	}
}

func BenchmarkReset(b *testing.B) { benchReset(b, true, true) }

// BenchmarkResetGeneric is BenchmarkReset without the vector kernels:
// what WebAssembly, other architectures and amd64 machines without AVX2
// run.
func BenchmarkResetGeneric(b *testing.B) { benchReset(b, false, false) }

// BenchmarkResetAVX2 is BenchmarkReset with the AVX2 kernels where the
// machine would take the AVX-512 ones (decideAVX512, lerp512_amd64.s):
// what an AVX2 machine runs, and what the AVX-512 kernels must beat.
func BenchmarkResetAVX2(b *testing.B) { benchReset(b, true, false) }

// benchReset generates a world of a new seed b.N times, with the vector
// kernels where the machine has them if vector is set, and the AVX-512
// ones where it has those too if wide is set.
func benchReset(b *testing.B, vector, wide bool) {
	w := newBenchWorld(b)
	w.gen.vector = vector && w.gen.vector
	w.gen.wide = wide && w.gen.vector && w.gen.wide
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Reset(uint64(i))
	}
	b.StopTimer()
	used, usedWide := 0.0, 0.0
	if w.gen.vector {
		used = 1
	}
	if w.gen.wide {
		usedWide = 1
	}
	b.ReportMetric(used, "vector")   // 1: the vector kernels ran (longcraft bench reads it)
	b.ReportMetric(usedWide, "wide") // 1: the AVX-512 kernels ran (longcraft bench reads it)
}

// BenchmarkResetSameSeed generates one world over and over. It is not a
// use case: with every branch learnt by the predictor, the difference
// from BenchmarkReset is what mispredicted branches cost generation.
func BenchmarkResetSameSeed(b *testing.B) {
	w := newBenchWorld(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Reset(7)
	}
}

func BenchmarkHash(b *testing.B) {
	w := newBenchWorld(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = w.Hash()
	}
}

func BenchmarkCopyFrom(b *testing.B) {
	w := newBenchWorld(b)
	c := w.Clone()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.CopyFrom(w)
	}
}

// BenchmarkNew builds a default 64×64 world: its B/op is the memory one
// world holds (its fixed arrays, tables and object capacity).
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := New(Config{}); err != nil {
			b.Fatal(err)
		}
	}
}
