package perf

import (
	"math"
	"sort"
)

// Figure is one measured quantity: how to read it from the samples, its
// unit, and the target the issues set for it.
type Figure struct {
	Name   string
	Unit   string
	Key    string                // the sample key it is read from
	Metric string                // the sample metric
	Scale  func(float64) float64 // metric to unit (nil: as is)
	// Ratio, when set, makes the figure the ratio of two other figures'
	// values run by run (Key's over Ratio's).
	Ratio string
	// Requires names a metric of Ratio's runs that must be nonzero for
	// the figure to apply (e.g. "vector": the vector path was chosen).
	Requires string
	Target   *float64 // nil: none
	Higher   bool     // higher is better (the target is a floor, else a ceiling)
}

const (
	simPkg    = "github.com/longcraft/longcraft/sim"
	renderPkg = "github.com/longcraft/longcraft/render"
	tracePkg  = "github.com/longcraft/longcraft/bench/trace"
	runPkg    = "github.com/longcraft/longcraft/bench/run"
	vecPkg    = "github.com/longcraft/longcraft/bench/vec"
	pyPkg     = "python" // python/examples/random_agent.py --bench
)

// at makes a target.
func at(x float64) *float64 { return &x }

func perSecond(ns float64) float64 { return 1e9 / ns }
func micros(ns float64) float64    { return ns / 1e3 }
func kib(b float64) float64        { return b / 1024 }

// Figures lists what `longcraft bench` reports, in order, with the
// issues' targets.
var Figures = []Figure{
	{Name: "sim steps/s/core (random actions)", Unit: "steps/s", Key: simPkg + ".BenchmarkStep", Metric: "ns/op", Scale: perSecond, Target: at(3e6), Higher: true},
	{Name: "sim steps/s/core incl. resets", Unit: "steps/s", Key: simPkg + ".BenchmarkStepWithReset", Metric: "ns/op", Scale: perSecond, Higher: true},
	{Name: "resets/s/core", Unit: "resets/s", Key: simPkg + ".BenchmarkReset", Metric: "ns/op", Scale: perSecond, Target: at(20000), Higher: true},
	{Name: "resets/s/core, generic code (no AVX2)", Unit: "resets/s", Key: simPkg + ".BenchmarkResetGeneric", Metric: "ns/op", Scale: perSecond, Higher: true},
	// The fast path must win where it is chosen: a vector Reset slower than
	// the generic one (as the legacy-SSE kernels were on AMD Zen 3) misses.
	{Name: "Reset speed-up, vector / generic (AVX2 hosts)", Unit: "×", Key: simPkg + ".BenchmarkResetGeneric", Ratio: simPkg + ".BenchmarkReset", Requires: "vector",
		Metric: "ns/op", Target: at(1), Higher: true},
	{Name: "Reset speed-up, AVX-512 / AVX2 kernels (AVX-512 hosts)", Unit: "×", Key: simPkg + ".BenchmarkResetAVX2", Ratio: simPkg + ".BenchmarkReset", Requires: "wide",
		Metric: "ns/op", Target: at(1), Higher: true},
	{Name: "sprite rows as words, speed-up over copy", Unit: "×", Key: renderPkg + ".BenchmarkCopyRow/copy", Ratio: renderPkg + ".BenchmarkCopyRow/copyWords4", Requires: "drawn",
		Metric: "ns/op", Target: at(1), Higher: true},
	{Name: "agent view 64 px", Unit: "µs/frame", Key: renderPkg + ".BenchmarkAgentView64", Metric: "ns/op", Scale: micros, Target: at(7)},
	{Name: "agent view 256 px", Unit: "µs/frame", Key: renderPkg + ".BenchmarkAgentView256", Metric: "ns/op", Scale: micros},
	{Name: "agent view 512 px", Unit: "µs/frame", Key: renderPkg + ".BenchmarkAgentView512", Metric: "ns/op", Scale: micros, Target: at(150)},
	{Name: "full map, 4 px tiles", Unit: "µs/frame", Key: renderPkg + ".BenchmarkMapView4", Metric: "ns/op", Scale: micros},
	{Name: "trace size", Unit: "B/step", Key: tracePkg + ".BenchmarkEncode", Metric: "B/step", Target: at(2.2)},
	{Name: "trace encode", Unit: "steps/s", Key: tracePkg + ".BenchmarkEncode", Metric: "steps/s", Higher: true},
	{Name: "trace replay", Unit: "steps/s", Key: tracePkg + ".BenchmarkReplay", Metric: "steps/s", Target: at(2e6), Higher: true},
	{Name: "scoring, 1 worker", Unit: "steps/s", Key: runPkg + ".BenchmarkSuite/workers=1", Metric: "steps/s", Higher: true},
	{Name: "scoring, all cores", Unit: "steps/s", Key: runPkg + ".BenchmarkSuite/workers=all", Metric: "steps/s", Higher: true},
	{Name: "scoring scaling, all cores / 1", Unit: "×", Key: runPkg + ".BenchmarkSuite/workers=all", Ratio: runPkg + ".BenchmarkSuite/workers=1", Metric: "steps/s", Target: at(1.85), Higher: true},
	{Name: "wasm steps/s (Node)", Unit: "steps/s", Key: "wasm:" + simPkg + ".BenchmarkStep", Metric: "ns/op", Scale: perSecond, Higher: true},
	{Name: "wasm resets/s (Node)", Unit: "resets/s", Key: "wasm:" + simPkg + ".BenchmarkReset", Metric: "ns/op", Scale: perSecond, Higher: true},
	{Name: "allocations per step", Unit: "allocs", Key: simPkg + ".BenchmarkStep", Metric: "allocs/op", Target: at(0)},
	{Name: "allocations per reset", Unit: "allocs", Key: simPkg + ".BenchmarkReset", Metric: "allocs/op", Target: at(0)},
	{Name: "allocations per frame (64 px)", Unit: "allocs", Key: renderPkg + ".BenchmarkAgentView64", Metric: "allocs/op", Target: at(0)},
	{Name: "allocations per frame (512 px)", Unit: "allocs", Key: renderPkg + ".BenchmarkAgentView512", Metric: "allocs/op", Target: at(0)},
	{Name: "memory per world (64×64)", Unit: "KiB", Key: simPkg + ".BenchmarkNew", Metric: "B/op", Scale: kib},
	{Name: "batch env-steps/s, symbolic, 64 worlds (all cores)", Unit: "steps/s", Key: vecPkg + ".BenchmarkStep/symbolic-N64", Metric: "env-steps/s", Higher: true},
	{Name: "batch env-steps/s, symbolic, 512 worlds", Unit: "steps/s", Key: vecPkg + ".BenchmarkStep/symbolic-N512", Metric: "env-steps/s", Higher: true},
	{Name: "batch env-steps/s, symbolic, 4,096 worlds", Unit: "steps/s", Key: vecPkg + ".BenchmarkStep/symbolic-N4096", Metric: "env-steps/s", Target: at(2e6), Higher: true},
	{Name: "batch env-steps/s, RGB 64 px, 512 worlds", Unit: "steps/s", Key: vecPkg + ".BenchmarkStep/rgb64-N512", Metric: "env-steps/s", Target: at(2e5), Higher: true},
	// The batch's fast paths must win where they are chosen, as the vector Reset must.
	{Name: "batch prefetch speed-up, 4,096 worlds (with / without)", Unit: "×", Key: vecPkg + ".BenchmarkStep/symbolic-N4096", Ratio: vecPkg + ".BenchmarkStep/symbolic-N4096-noprefetch", Requires: "prefetch",
		Metric: "env-steps/s", Target: at(1), Higher: true},
	{Name: "batch RGB streamed / drawn in place, 512 worlds", Unit: "×", Key: vecPkg + ".BenchmarkStep/rgb64-N512", Ratio: vecPkg + ".BenchmarkStep/rgb64-N512-direct", Requires: "streamed",
		Metric: "env-steps/s", Target: at(1), Higher: true},
	{Name: "memory per world in a batch (64×64, 4,096 worlds)", Unit: "KiB", Key: vecPkg + ".BenchmarkMemory", Metric: "KiB/world", Target: at(24)},
	// From Python (longcraft.VecEnv, uniform random actions, all cores).
	{Name: "Python env-steps/s, symbolic, 64 worlds", Unit: "steps/s", Key: pyPkg + ".BenchmarkVecEnv/symbolic-N64", Metric: "env-steps/s", Higher: true},
	{Name: "Python env-steps/s, symbolic, 512 worlds", Unit: "steps/s", Key: pyPkg + ".BenchmarkVecEnv/symbolic-N512", Metric: "env-steps/s", Higher: true},
	{Name: "Python env-steps/s, symbolic, 4,096 worlds", Unit: "steps/s", Key: pyPkg + ".BenchmarkVecEnv/symbolic-N4096", Metric: "env-steps/s", Target: at(2e6), Higher: true},
	{Name: "Python env-steps/s, RGB 64 px, 512 worlds", Unit: "steps/s", Key: pyPkg + ".BenchmarkVecEnv/rgb64-N512", Metric: "env-steps/s", Target: at(2e5), Higher: true},
	{Name: "Python call, 1 world (the per-call overhead)", Unit: "µs/call", Key: pyPkg + ".BenchmarkVecEnv/symbolic-N1", Metric: "ns/op", Scale: micros},
	// Python's rate over the Go batch's, from rounds that alternate the two
	// (runPaired): the i-th Python run over the Go run beside it.
	{Name: "Python / Go batch rate, 512 worlds (alternated)", Unit: "×", Key: "paired:" + pyPkg + ".BenchmarkVecEnv/symbolic-N512", Ratio: "paired:" + vecPkg + ".BenchmarkStep/symbolic-N512", Metric: "env-steps/s", Target: at(0.9), Higher: true},
	{Name: "Python / Go batch rate, 4,096 worlds (alternated)", Unit: "×", Key: "paired:" + pyPkg + ".BenchmarkVecEnv/symbolic-N4096", Ratio: "paired:" + vecPkg + ".BenchmarkStep/symbolic-N4096", Metric: "env-steps/s", Target: at(0.9), Higher: true},
}

// Value is a figure's measured values over repeated runs.
type Value struct {
	Name   string    `json:"name"`
	Unit   string    `json:"unit"`
	Min    float64   `json:"min"`
	Median float64   `json:"median"`
	Max    float64   `json:"max"`
	Runs   []float64 `json:"runs"`
	Target *float64  `json:"target,omitempty"`
	Higher bool      `json:"higher_is_better"`
	// Met says whether the median meets the target (nil: no target or
	// not measured).
	Met *bool `json:"met,omitempty"`
}

// Measured says whether the figure has any run.
func (v Value) Measured() bool { return len(v.Runs) > 0 }

// Evaluate computes every figure from the samples. Figures without samples
// have no runs (for example wasm, when Node is missing).
func Evaluate(samples []Sample) []Value {
	out := make([]Value, 0, len(Figures))
	for _, f := range Figures {
		v := Value{Name: f.Name, Unit: f.Unit, Higher: f.Higher}
		runs := values(samples, f.Key, f.Metric, f.Scale)
		if f.Requires != "" && !nonzero(values(samples, f.Ratio, f.Requires, nil)) {
			runs = nil // does not apply on this machine
		}
		if f.Ratio != "" && runs != nil {
			den := values(samples, f.Ratio, f.Metric, f.Scale)
			n := min(len(runs), len(den))
			ratios := make([]float64, 0, n)
			for i := 0; i < n; i++ {
				if den[i] > 0 {
					ratios = append(ratios, runs[i]/den[i])
				}
			}
			runs = ratios
		}
		v.Runs = runs
		if len(runs) > 0 {
			s := append([]float64(nil), runs...)
			sort.Float64s(s)
			v.Min, v.Max, v.Median = s[0], s[len(s)-1], median(s)
		}
		if f.Target != nil {
			t := *f.Target // a copy: the report must not point into Figures
			v.Target = &t
			if len(runs) > 0 {
				met := v.Median >= t
				if !f.Higher {
					met = v.Median <= t
				}
				v.Met = &met
			}
		}
		out = append(out, v)
	}
	return out
}

// values reads one metric of every run of a benchmark, in run order.
func values(samples []Sample, key, metric string, scale func(float64) float64) []float64 {
	var out []float64
	for _, s := range samples {
		if s.Key != key {
			continue
		}
		x, ok := s.Metrics[metric]
		if !ok || math.IsNaN(x) {
			continue
		}
		if scale != nil {
			x = scale(x)
		}
		out = append(out, x)
	}
	return out
}

// nonzero reports whether any value is not zero.
func nonzero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return true
		}
	}
	return false
}

// median of sorted values.
func median(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
