package perf

import (
	"bytes"
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
