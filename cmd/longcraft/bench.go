package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/internal/perf"
)

func newBenchCmd() *cobra.Command {
	var bf benchFlags
	cmd := &cobra.Command{
		Use:     "bench",
		Short:   "Measure Longcraft's speed and size: one table with targets, JSON, and a baseline comparison",
		Long:    benchLong,
		Example: benchExample,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return bf.bench(cmd) },
	}
	bf.define(cmd)
	return cmd
}

const benchLong = `bench runs the Go benchmarks behind every figure Longcraft claims (sim steps
and resets per second per core, frames at 64/256/512 px and the full map,
trace bytes per step and encode/replay speed, scoring throughput on 1 and all
cores and the scaling ratio, the core under Node as WebAssembly, allocations
per step/reset/frame, memory per world), --count times each, and prints min,
median and max beside each figure's target. This machine is noisy: compare
medians and ranges, not single runs.

It needs a Longcraft checkout (it runs go test there) and, for the
WebAssembly figures, Node.js (--wasm=false skips them). The Python figures
(env-steps/s through longcraft.VecEnv, the per-call overhead, and Python's
rate over the Go batch's) need a python3 with NumPy, cgo and gcc:
--python auto finds /usr/bin/python3 or python3 on PATH with NumPy and
skips the figures, saying so, when there is none; --python none skips them.
Python's rate over the Go batch's comes from --count rounds that run the
two one after the other at 512 and 4,096 worlds (which goes first
alternates), so that each ratio compares runs made under the same load.

--json writes the report; --baseline compares with a saved one (regressions:
worse by more than --threshold with the ranges apart). --crafter-steps and
--crafter-resets take the Python Crafter's figures measured as described in
bench/README.md and print the ratios.`

const benchExample = `  longcraft bench
  longcraft bench --count 10 --json build/bench.json
  longcraft bench --baseline bench/baseline.json
  longcraft bench --crafter-steps 3500 --crafter-resets 25`

// benchFlags are bench's flags: the measurement's options, and what is
// done with its report.
type benchFlags struct {
	o                perf.Options
	out, baseline    string
	threshold        float64
	crafter          perf.Crafter
	failOnRegression bool
	python           string
}

// define defines bench's flags on cmd.
func (bf *benchFlags) define(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&bf.o.Count, "count", 5, "runs of each benchmark (min/median/max over them)")
	f.DurationVar(&bf.o.BenchTime, "benchtime", time.Second, "duration of each benchmark run")
	f.BoolVar(&bf.o.Wasm, "wasm", true, "also measure the core as WebAssembly under Node.js")
	f.StringVar(&bf.python, "python", "auto", "python3 with NumPy for the Python figures: a path, auto, or none")
	f.StringVar(&bf.out, "json", "", "write the report as JSON to this file")
	f.StringVar(&bf.baseline, "baseline", "", "compare with this saved report (e.g. bench/baseline.json)")
	f.Float64Var(&bf.threshold, "threshold", 0.10, "relative change counted as a regression (with the ranges apart)")
	f.BoolVar(&bf.failOnRegression, "fail-on-regression", false, "exit with an error when a figure regressed")
	f.Float64Var(&bf.crafter.StepsPerSec, "crafter-steps", 0, "the Python Crafter's env.step rate (steps/s, random actions, 64×64 image), to print the ratio")
	f.Float64Var(&bf.crafter.ResetsPerSec, "crafter-resets", 0, "the Python Crafter's env.reset rate (resets/s), to print the ratio")
}

// bench checks the flags and what the measurement needs, measures, and
// prints the table, the JSON and the baseline comparison.
func (bf *benchFlags) bench(cmd *cobra.Command) error {
	base, err := bf.prepare(cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	o := bf.o
	r, err := perf.Run(cmd.Context(), o, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if bf.crafter.StepsPerSec > 0 || bf.crafter.ResetsPerSec > 0 {
		r.Crafter = &bf.crafter
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "\n%s/%s, %d CPUs, %s, %s; %d runs of %s each\n", r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPUs,
		r.Machine.CPU, r.Machine.GoVersion, o.Count, o.BenchTime)
	if err := r.WriteTable(w); err != nil {
		return err
	}
	if bf.out != "" {
		if err := r.WriteJSON(bf.out); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", bf.out)
	}
	if base == nil {
		return nil
	}
	return bf.compare(w, base, r)
}

// prepare checks the flags, reads the baseline (nil without one), and
// finds what the measurement needs: Node.js, the Python and the checkout,
// into the options.
func (bf *benchFlags) prepare(log io.Writer) (*perf.Report, error) {
	o := &bf.o
	switch {
	case o.Count < 1:
		return nil, fmt.Errorf("--count %d: at least 1", o.Count)
	case o.BenchTime <= 0:
		return nil, fmt.Errorf("--benchtime %s: must be positive", o.BenchTime)
	case bf.threshold <= 0 || bf.threshold >= 1:
		return nil, fmt.Errorf("--threshold %g: between 0 and 1 (0.1 is 10%%)", bf.threshold)
	}
	var base *perf.Report
	var err error
	if bf.baseline != "" {
		if base, err = perf.ReadReport(bf.baseline); err != nil {
			return nil, err
		}
	}
	if o.Wasm {
		if _, err := exec.LookPath("node"); err != nil {
			return nil, fmt.Errorf("--wasm needs Node.js (apt-get install nodejs), or pass --wasm=false")
		}
	}
	if o.Python, err = findPython(bf.python, log); err != nil {
		return nil, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if o.Root, err = moduleRoot(wd); err != nil {
		return nil, err
	}
	return base, nil
}

// compare prints the comparison of r with the baseline base, and fails
// on the first regression with --fail-on-regression.
func (bf *benchFlags) compare(w io.Writer, base, r *perf.Report) error {
	fmt.Fprintf(w, "\ncompared with %s (%s, %s):\n", bf.baseline, base.Date, base.Machine.CPU)
	changes := perf.Compare(base, r, bf.threshold)
	if err := perf.WriteComparison(w, changes); err != nil {
		return err
	}
	for _, c := range changes {
		if c.Regressed && bf.failOnRegression {
			return fmt.Errorf("%s regressed: %.3g → %.3g %s", c.Name, c.Base.Median, c.Now.Median, c.Unit)
		}
	}
	return nil
}

// findPython resolves --python: a path is checked for NumPy; auto takes
// /usr/bin/python3 or python3 on PATH, the first with NumPy, and skips
// the Python figures (saying so on log) when neither has it; none skips.
func findPython(flag string, log io.Writer) (string, error) {
	hasNumPy := func(py string) bool {
		return exec.Command(py, "-c", "import numpy").Run() == nil
	}
	switch flag {
	case "none", "":
		return "", nil
	case "auto":
		for _, py := range []string{"/usr/bin/python3", "python3"} {
			if p, err := exec.LookPath(py); err == nil && hasNumPy(p) {
				return p, nil
			}
		}
		fmt.Fprintln(log, "no python3 with NumPy (apt-get install python3-numpy): the Python figures are skipped")
		return "", nil
	}
	py, err := exec.LookPath(flag) // a name on PATH, or a path
	if err == nil {
		py, err = filepath.Abs(py) // it runs in the checkout, not here
	}
	if err != nil || !hasNumPy(py) {
		return "", fmt.Errorf("--python %s: cannot import numpy with it (apt-get install python3-numpy), or pass --python none", flag)
	}
	return py, nil
}
