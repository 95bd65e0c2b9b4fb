package perf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseFile(t *testing.T, prefix string) []Sample {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "bench.txt"))
	require.NoError(t, err)
	defer f.Close()
	s, err := Parse(f, prefix)
	require.NoError(t, err)
	return s
}

func TestParse(t *testing.T) {
	s := parseFile(t, "")
	require.Len(t, s, 9)
	assert.Equal(t, simPkg+".BenchmarkStep", s[0].Key)
	assert.Equal(t, int64(4000000), s[0].Iterations)
	assert.Equal(t, map[string]float64{"ns/op": 300, "steps/episode": 178.3, "B/op": 0, "allocs/op": 0}, s[0].Metrics)
	assert.Equal(t, runPkg+".BenchmarkSuite/workers=all", s[6].Key, "the -GOMAXPROCS suffix goes, the sub-benchmark stays")
	assert.Equal(t, 570000.0, s[6].Metrics["steps/s"])

	w, err := Parse(strings.NewReader("pkg: x\nBenchmarkStep \t 10\t 2 ns/op\n"), "wasm:")
	require.NoError(t, err)
	require.Len(t, w, 1)
	assert.Equal(t, "wasm:x.BenchmarkStep", w[0].Key, "no suffix under wasm (GOMAXPROCS 1)")

	_, err = Parse(strings.NewReader("BenchmarkX-2 10 abc ns/op\n"), "")
	assert.ErrorContains(t, err, "not a number")
}

func TestEvaluate(t *testing.T) {
	vs := Evaluate(parseFile(t, ""))
	byName := map[string]Value{}
	for _, v := range vs {
		byName[v.Name] = v
	}
	require.Len(t, vs, len(Figures))

	step := byName["sim steps/s/core (random actions)"]
	assert.InDelta(t, 1e9/320, step.Min, 1e-6)
	assert.InDelta(t, 1e9/300, step.Median, 1e-6)
	assert.InDelta(t, 1e9/250, step.Max, 1e-6)
	require.NotNil(t, step.Met)
	assert.True(t, *step.Met, "3.33 M steps/s meets ≥ 3 M")

	reset := byName["resets/s/core"]
	assert.InDelta(t, 20000, reset.Median, 1e-9)
	assert.True(t, *reset.Met, "a target met exactly counts")

	scaling := byName["scoring scaling, all cores / 1"]
	assert.Equal(t, []float64{1.9, 1.875}, scaling.Runs, "run by run")
	assert.True(t, *scaling.Met)

	allocs := byName["allocations per step"]
	require.NotNil(t, allocs.Target, "zero is a target for allocations")
	assert.True(t, *allocs.Met)

	assert.InDelta(t, 52.0, byName["memory per world (64×64)"].Median, 1e-9)

	wasm := byName["wasm steps/s (Node)"]
	assert.False(t, wasm.Measured())
	assert.Nil(t, wasm.Met)
	frame := byName["agent view 64 px"]
	assert.False(t, frame.Measured())
	assert.NotNil(t, frame.Target)
	assert.Nil(t, frame.Met, "a target without measurements is neither met nor missed")
}

func TestTableAndCompare(t *testing.T) {
	r := &Report{Figures: Evaluate(parseFile(t, "")), Crafter: &Crafter{ResetsPerSec: 40}}
	var buf bytes.Buffer
	require.NoError(t, r.WriteTable(&buf))
	out := buf.String()
	assert.Contains(t, out, "sim steps/s/core (random actions)")
	assert.Contains(t, out, "not measured")
	assert.Contains(t, out, "vs Crafter: resets 20k/s here, 40/s Crafter: 500×")

	path := filepath.Join(t.TempDir(), "base.json")
	require.NoError(t, r.WriteJSON(path))
	base, err := ReadReport(path)
	require.NoError(t, err)

	// Steps 1.5× slower in every run: a regression. Resets twice as fast:
	// not.
	slower := parseFile(t, "")
	for i := range slower {
		if slower[i].Key == simPkg+".BenchmarkStep" {
			slower[i].Metrics["ns/op"] *= 1.5
		}
		if slower[i].Key == simPkg+".BenchmarkReset" {
			slower[i].Metrics["ns/op"] /= 2
		}
	}
	now := &Report{Figures: Evaluate(slower)}
	changes := Compare(base, now, 0.1)
	got := map[string]Change{}
	for _, c := range changes {
		got[c.Name] = c
	}
	assert.True(t, got["sim steps/s/core (random actions)"].Regressed)
	assert.False(t, got["resets/s/core"].Regressed)
	assert.InDelta(t, 2.0, got["resets/s/core"].Ratio, 1e-9)
	assert.False(t, got["allocations per step"].Regressed)
	buf.Reset()
	require.NoError(t, WriteComparison(&buf, changes))
	assert.Contains(t, buf.String(), "REGRESSION")
	assert.Contains(t, buf.String(), "+100.0%")

	_, err = ReadReport(filepath.Join(t.TempDir(), "missing.json"))
	assert.Error(t, err)
}

func TestNum(t *testing.T) {
	for x, want := range map[float64]string{3.25e6: "3.25M", 10400: "10.4k", 3690: "3690", 2.79: "2.79", 0: "0", 52.3: "52.3"} {
		assert.Equal(t, want, num(x), "%v", x)
	}
}

// FuzzParse: benchmark output is outside input; Parse must not panic, and
// every sample it returns has a key and positive iterations.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "bench.txt"))
	require.NoError(f, err)
	f.Add(data)
	f.Add([]byte("BenchmarkA-2 1 1 ns/op\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := Parse(bytes.NewReader(in), "")
		if err != nil {
			return
		}
		for _, x := range s {
			if x.Key == "" || x.Iterations <= 0 {
				t.Fatalf("bad sample %+v", x)
			}
		}
	})
}

// TestVectorSpeedUp: the vector/generic Reset ratio is computed run by
// run where the vector kernels ran, misses when the vector path is slower,
// and does not apply where they did not run.
func TestVectorSpeedUp(t *testing.T) {
	const name = "Reset speed-up, vector / generic (AVX2 hosts)"
	samples := func(vector, vectorNs, genericNs float64) []Sample {
		return []Sample{
			{Key: simPkg + ".BenchmarkReset", Metrics: map[string]float64{"ns/op": vectorNs, "vector": vector}},
			{Key: simPkg + ".BenchmarkResetGeneric", Metrics: map[string]float64{"ns/op": genericNs}},
		}
	}
	find := func(vs []Value) Value {
		for _, v := range vs {
			if v.Name == name {
				return v
			}
		}
		t.Fatalf("no figure %q", name)
		return Value{}
	}
	v := find(Evaluate(samples(1, 50e3, 75e3)))
	require.True(t, v.Measured())
	assert.InDelta(t, 1.5, v.Median, 1e-9)
	assert.True(t, *v.Met)
	v = find(Evaluate(samples(1, 147e3, 75e3))) // the legacy-SSE kernels on Zen 3
	assert.False(t, *v.Met, "a slower vector path is flagged")
	v = find(Evaluate(samples(0, 75e3, 75e3)))
	assert.False(t, v.Measured(), "no vector path: nothing to compare")
}

// TestFastPathGuards: each fast path's line reads the fast run over the
// plain one the right way round (met when the fast path is faster,
// missed when it is slower), and is not measured where the build has no
// fast path (its flag metric 0), like the vector Reset's.
func TestFastPathGuards(t *testing.T) {
	for _, c := range []struct {
		name, fast, plain, metric, flag string
		higher                          bool // the metric is a rate, not a time
		plainFlags                      bool // the plain benchmark reports the flag too (vec's sub-benchmarks all do; render's copy does not)
	}{
		{"sprite rows as words, speed-up over copy", renderPkg + ".BenchmarkCopyRow/copyWords4", renderPkg + ".BenchmarkCopyRow/copy", "ns/op", "drawn", false, false},
		{"batch prefetch speed-up, 4,096 worlds (with / without)", vecPkg + ".BenchmarkStep/symbolic-N4096", vecPkg + ".BenchmarkStep/symbolic-N4096-noprefetch", "env-steps/s", "prefetch", true, true},
		{"batch RGB streamed / drawn in place, 512 worlds", vecPkg + ".BenchmarkStep/rgb64-N512", vecPkg + ".BenchmarkStep/rgb64-N512-direct", "env-steps/s", "streamed", true, true},
	} {
		guard := func(flag, speedUp float64) Value {
			fast, plain := 100.0, 100.0
			if c.higher {
				fast *= speedUp
			} else {
				fast /= speedUp
			}
			// The flag goes where the real benchmarks report it.
			plainMetrics := map[string]float64{c.metric: plain}
			if c.plainFlags {
				plainMetrics[c.flag] = flag
			}
			vs := Evaluate([]Sample{
				{Key: c.fast, Metrics: map[string]float64{c.metric: fast, c.flag: flag}},
				{Key: c.plain, Metrics: plainMetrics},
			})
			for _, v := range vs {
				if v.Name == c.name {
					return v
				}
			}
			t.Fatalf("no figure %q", c.name)
			return Value{}
		}
		v := guard(1, 1.5)
		require.True(t, v.Measured(), c.name)
		assert.InDelta(t, 1.5, v.Median, 1e-9, c.name)
		assert.True(t, *v.Met, c.name)
		v = guard(1, 0.8)
		assert.InDelta(t, 0.8, v.Median, 1e-9, c.name)
		assert.False(t, *v.Met, "%s: a slower fast path is flagged", c.name)
		assert.False(t, guard(0, 1.5).Measured(), "%s: no fast path in this build, nothing to compare", c.name)
	}
}

// TestPythonRatioIsPaired checks that Python's rate over the Go batch's is
// read from the alternated rounds (runPaired's "paired:" samples), round
// by round, and not from the suites' runs minutes apart.
func TestPythonRatioIsPaired(t *testing.T) {
	rate := func(key string, v float64) Sample {
		return Sample{Key: key, Metrics: map[string]float64{"env-steps/s": v}}
	}
	py, goBatch := pyPkg+".BenchmarkVecEnv/symbolic-N512", vecPkg+".BenchmarkStep/symbolic-N512"
	samples := []Sample{
		rate(py, 0.6e6), rate(goBatch, 1.2e6), // the suites' runs: 0.5 if paired with each other
		rate("paired:"+goBatch, 1.0e6), rate("paired:"+py, 0.95e6), // round 1
		rate("paired:"+py, 1.1e6), rate("paired:"+goBatch, 1.25e6), // round 2 (Python first)
		rate("paired:"+goBatch, 0.8e6), rate("paired:"+py, 0.76e6), // round 3
	}
	for _, v := range Evaluate(samples) {
		if v.Name != "Python / Go batch rate, 512 worlds (alternated)" {
			continue
		}
		require.Len(t, v.Runs, 3)
		assert.InDelta(t, 0.95, v.Runs[0], 1e-9)
		assert.InDelta(t, 0.88, v.Runs[1], 1e-9)
		assert.InDelta(t, 0.95, v.Runs[2], 1e-9)
		assert.InDelta(t, 0.95, v.Median, 1e-9)
		assert.True(t, *v.Met)
		return
	}
	t.Fatal("no Python / Go figure")
}

// TestPairedRoundsAlternate checks runPaired's schedule: count rounds of
// one Go run and one Python run, Go first in even rounds and Python first
// in odd ones, every sample keyed "paired:".
func TestPairedRoundsAlternate(t *testing.T) {
	var ran []string
	side := func(name, pkg, bench string) func() ([]byte, error) {
		return func() ([]byte, error) {
			ran = append(ran, name)
			return []byte("pkg: " + pkg + "\n" + bench + "\t10\t100 ns/op\t5 env-steps/s\n"), nil
		}
	}
	samples, err := pairedRounds(3, 1, side("go", vecPkg, "BenchmarkStep/symbolic-N512-2"),
		side("python", pyPkg, "BenchmarkVecEnv/symbolic-N512"), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []string{"go", "python", "python", "go", "go", "python"}, ran)
	require.Len(t, samples, 6)
	for i, s := range samples {
		want := "paired:" + vecPkg + ".BenchmarkStep/symbolic-N512"
		if ran[i] == "python" {
			want = "paired:" + pyPkg + ".BenchmarkVecEnv/symbolic-N512"
		}
		assert.Equal(t, want, s.Key, "sample %d", i)
	}
	_, err = pairedRounds(2, 1, side("go", vecPkg, "BenchmarkStep/symbolic-N512-2"),
		func() ([]byte, error) { return nil, errors.New("no python") }, io.Discard)
	assert.ErrorContains(t, err, "no python")
	// A run that gives fewer results than cases would shift the pairing.
	_, err = pairedRounds(2, 2, side("go", vecPkg, "BenchmarkStep/symbolic-N512-2"),
		side("python", pyPkg, "BenchmarkVecEnv/symbolic-N512"), io.Discard)
	assert.ErrorContains(t, err, "1 benchmark results, want 2")
}
