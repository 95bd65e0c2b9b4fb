package perf

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// Options say how to run the benchmarks.
type Options struct {
	Root      string        // the Longcraft checkout (go.mod's directory)
	Count     int           // runs of each benchmark (min/median/max over them)
	BenchTime time.Duration // -benchtime of each run
	Wasm      bool          // also run the core's benchmarks under Node
	// Python, when set, is a python3 with NumPy: the Python package's
	// figures are measured too (the shared library is built first, which
	// needs cgo and a C compiler).
	Python string
}

// suites are the `go test` invocations behind Figures: packages and the
// benchmarks each needs.
var suites = []struct {
	pkg, bench string
	wasm       bool
}{
	{"./sim", "^(BenchmarkStep|BenchmarkStepWithReset|BenchmarkReset|BenchmarkResetGeneric|BenchmarkResetAVX2|BenchmarkNew)$", true},
	{"./render", "^(BenchmarkAgentView64|BenchmarkAgentView256|BenchmarkAgentView512|BenchmarkMapView4|BenchmarkCopyRow)$", false},
	{"./bench/trace", "^(BenchmarkEncode|BenchmarkReplay)$", false},
	{"./bench/run", "^BenchmarkSuite$", false},
	{"./bench/vec", "^(BenchmarkStep|BenchmarkMemory)$", false},
}

// Run runs every benchmark behind Figures and returns the report. Progress
// (which package is running) goes to log.
func Run(ctx context.Context, o Options, log io.Writer) (*Report, error) {
	if o.Count < 1 {
		return nil, fmt.Errorf("bench: count %d, at least 1", o.Count)
	}
	r := &Report{Date: time.Now().UTC().Format(time.RFC3339), Count: o.Count,
		Machine: Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}}
	for _, s := range suites {
		out, err := goTest(ctx, o, s.pkg, s.bench, nil, log)
		if err != nil {
			return nil, err
		}
		samples, err := Parse(bytes.NewReader(out), "")
		if err != nil {
			return nil, err
		}
		r.Samples = append(r.Samples, samples...)
		if m := cpuLine.FindSubmatch(out); m != nil && r.Machine.CPU == "" {
			r.Machine.CPU = strings.TrimSpace(string(m[1]))
		}
		if s.wasm && o.Wasm {
			goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
			if err != nil {
				return nil, fmt.Errorf("bench: go env GOROOT: %w", err)
			}
			env := []string{"GOOS=js", "GOARCH=wasm",
				"PATH=" + filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm") + string(os.PathListSeparator) + os.Getenv("PATH")}
			out, err := goTest(ctx, o, s.pkg, "^(BenchmarkStep|BenchmarkReset)$", env, log)
			if err != nil {
				return nil, fmt.Errorf("%w (is Node.js installed? --wasm=false skips the WebAssembly figures)", err)
			}
			samples, err := Parse(bytes.NewReader(out), "wasm:")
			if err != nil {
				return nil, err
			}
			r.Samples = append(r.Samples, samples...)
		}
	}
	if o.Python != "" {
		samples, err := runPython(ctx, o, log)
		if err != nil {
			return nil, err
		}
		r.Samples = append(r.Samples, samples...)
		if samples, err = runPaired(ctx, o, log); err != nil {
			return nil, err
		}
		r.Samples = append(r.Samples, samples...)
	}
	r.Figures = Evaluate(r.Samples)
	return r, nil
}

// runPython builds the Python package's shared library and runs its
// throughput example in --bench mode, which prints `go test -bench` lines
// under the package "python".
func runPython(ctx context.Context, o Options, log io.Writer) ([]Sample, error) {
	lib := filepath.Join("python", "longcraft", "liblongcraft.so")
	build := exec.CommandContext(ctx, "go", "build", "-buildmode=c-shared", "-o", lib, "./cmd/liblongcraft")
	build.Dir, build.Env = o.Root, append(os.Environ(), "CGO_ENABLED=1")
	fmt.Fprintf(log, "running CGO_ENABLED=1 go build -buildmode=c-shared -o %s ./cmd/liblongcraft\n", lib)
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("bench: build the Python package's library (needs cgo and gcc; --python=none skips the Python figures): %w\n%s", err, out)
	}
	args := []string{filepath.Join("python", "examples", "random_agent.py"), "--bench",
		"--count", fmt.Sprint(o.Count), "--seconds", fmt.Sprint(o.BenchTime.Seconds())}
	fmt.Fprintf(log, "running %s %s\n", o.Python, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, o.Python, args...)
	cmd.Dir = o.Root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("bench: %s %s: %w\n%s%s", o.Python, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return Parse(&stdout, "")
}

// pairedCases are the batch sizes whose Python rate is compared with the
// Go batch's, as random_agent.py and vec.BenchmarkStep name them.
const pairedCases = "symbolic-N512,symbolic-N4096"

// runPaired measures Python's rate beside the Go batch's in alternated
// rounds: each round runs vec.BenchmarkStep at pairedCases once and
// random_agent.py at the same cases once, Go first in even rounds and
// Python first in odd ones, so that a round's two figures share the
// machine's state. The suites' own runs of each are minutes apart, and
// on a busy machine their ratio moved by 20% from run to run. Keys are
// prefixed "paired:". It needs runPython's library.
func runPaired(ctx context.Context, o Options, log io.Writer) ([]Sample, error) {
	dir, err := os.MkdirTemp("", "longcraft-bench-")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "vec.test")
	build := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, "./bench/vec")
	build.Dir = o.Root
	fmt.Fprintf(log, "running go test -c -o %s ./bench/vec\n", bin)
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("bench: build the batch's benchmark: %w\n%s", err, out)
	}
	goRun := func() *exec.Cmd {
		re := "^BenchmarkStep$/^(" + strings.ReplaceAll(pairedCases, ",", "|") + ")$"
		cmd := exec.CommandContext(ctx, bin, "-test.run", "^$", "-test.bench", re,
			"-test.count", "1", "-test.benchtime", o.BenchTime.String())
		cmd.Dir = filepath.Join(o.Root, "bench", "vec")
		return cmd
	}
	pyRun := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, o.Python, filepath.Join("python", "examples", "random_agent.py"), "--bench",
			"--count", "1", "--seconds", fmt.Sprint(o.BenchTime.Seconds()), "--only", pairedCases)
		cmd.Dir = o.Root
		return cmd
	}
	output := func(mk func() *exec.Cmd) func() ([]byte, error) {
		return func() ([]byte, error) {
			cmd := mk()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				return nil, fmt.Errorf("bench: %s: %w\n%s%s", strings.Join(cmd.Args, " "), err, stdout.String(), stderr.String())
			}
			return stdout.Bytes(), nil
		}
	}
	return pairedRounds(o.Count, strings.Count(pairedCases, ",")+1, output(goRun), output(pyRun), log)
}

// pairedRounds runs goRun and pyRun once each in each of count rounds, Go
// first in even rounds and Python first in odd ones, and parses their
// output with keys prefixed "paired:". Each run must give perRun samples
// (one per case): Evaluate pairs the i-th run of each side, so a run that
// printed fewer would pair the rounds after it wrongly, silently.
func pairedRounds(count, perRun int, goRun, pyRun func() ([]byte, error), log io.Writer) ([]Sample, error) {
	var out []Sample
	for round := 0; round < count; round++ {
		fmt.Fprintf(log, "running Python and the Go batch alternately at %s, round %d of %d\n", pairedCases, round+1, count)
		order := []func() ([]byte, error){goRun, pyRun}
		if round%2 == 1 {
			order[0], order[1] = pyRun, goRun
		}
		for _, run := range order {
			stdout, err := run()
			if err != nil {
				return nil, err
			}
			samples, err := Parse(bytes.NewReader(stdout), "paired:")
			if err != nil {
				return nil, err
			}
			if len(samples) != perRun {
				return nil, fmt.Errorf("bench: round %d: %d benchmark results, want %d (%s)\n%s", round+1, len(samples), perRun, pairedCases, stdout)
			}
			out = append(out, samples...)
		}
	}
	return out, nil
}

var cpuLine = regexp.MustCompile(`(?m)^cpu: (.*)$`)

// goTest runs one package's benchmarks and returns their output.
func goTest(ctx context.Context, o Options, pkg, bench string, env []string, log io.Writer) ([]byte, error) {
	args := []string{"test", "-run", "^$", "-bench", bench, "-benchmem",
		"-count", fmt.Sprint(o.Count), "-benchtime", o.BenchTime.String(), "-timeout", "60m", pkg}
	what := "go " + strings.Join(args, " ")
	if len(env) > 0 {
		what = strings.Join(env[:2], " ") + " " + what
	}
	fmt.Fprintf(log, "running %s\n", what)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = o.Root
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("bench: %s: %w\n%s%s", what, err, stdout.String(), stderr.String())
	}
	return stdout.Bytes(), nil
}
