// Package perf measures Longcraft's speed and size: it runs the Go
// benchmarks of sim, render, bench/trace and bench/run (natively and, for
// the core, under Node as WebAssembly), parses their output, and turns the
// samples into figures with min/median/max over repeated runs, each beside
// its target, with a comparison against a saved baseline.
//
// The benchmarks stay the one definition of each measurement: this package
// only runs them and reads what they print.
package perf

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Sample is one line of `go test -bench` output: one run of one benchmark.
type Sample struct {
	Key        string             // "pkg/path.BenchmarkName/sub", without the -GOMAXPROCS suffix
	Iterations int64              // b.N
	Metrics    map[string]float64 // by unit: "ns/op", "B/op", "allocs/op", "steps/s", ...
}

// maxLine bounds one line of benchmark output.
const maxLine = 64 << 10

// Parse reads `go test -bench` output: "pkg:" lines name the package of the
// benchmark lines that follow; other lines (PASS, ok, goos, logs) are
// skipped. prefix is put before every key ("wasm:" for runs under Node).
func Parse(r io.Reader, prefix string) ([]Sample, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	var out []Sample
	pkg := ""
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 {
			continue // a benchmark's own log line, or a failure
		}
		iters, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || iters <= 0 {
			continue
		}
		s := Sample{Key: prefix + pkg + "." + stripProcs(f[0]), Iterations: iters, Metrics: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("benchmark output line %d: %q is not a number", n, f[i])
			}
			s.Metrics[f[i+1]] = v
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("benchmark output: %w", err)
	}
	return out, nil
}

// stripProcs drops the "-N" GOMAXPROCS suffix go test appends to names.
func stripProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}
