package perf

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"text/tabwriter"
)

// Report is what `longcraft bench` writes as JSON, and what a baseline
// file holds.
type Report struct {
	Date    string   `json:"date"`
	Machine Machine  `json:"machine"`
	Count   int      `json:"count"`   // runs of each benchmark
	Figures []Value  `json:"figures"` // in Figures order
	Samples []Sample `json:"samples"` // the raw benchmark lines
	Crafter *Crafter `json:"crafter,omitempty"`
}

// Machine describes where the figures were measured.
type Machine struct {
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
	CPUs      int    `json:"cpus"`
	CPU       string `json:"cpu,omitempty"` // go test's "cpu:" line
	GoVersion string `json:"go"`
}

// Crafter holds the Python Crafter's figures measured by the method of
// bench/README.md, to print the ratios.
type Crafter struct {
	StepsPerSec  float64 `json:"steps_per_sec"`  // env.step with its 64×64 image, random actions
	ResetsPerSec float64 `json:"resets_per_sec"` // env.reset
}

// Figure returns the named figure's value.
func (r *Report) Figure(name string) (Value, bool) {
	for _, v := range r.Figures {
		if v.Name == name {
			return v, true
		}
	}
	return Value{}, false
}

// WriteTable prints the figures as a table: min, median, max, target and
// whether the median meets it.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "figure\tunit\tmin\tmedian\tmax\ttarget\tstatus\t\n")
	for _, v := range r.Figures {
		if !v.Measured() {
			fmt.Fprintf(tw, "%s\t%s\t–\t–\t–\t%s\tnot measured\t\n", v.Name, v.Unit, target(v))
			continue
		}
		status := ""
		if v.Met != nil {
			status = "ok"
			if !*v.Met {
				status = "MISSED"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", v.Name, v.Unit, num(v.Min), num(v.Median), num(v.Max), target(v), status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if c := r.Crafter; c != nil {
		return r.writeCrafter(w, c)
	}
	return nil
}

// writeCrafter prints Longcraft over Crafter: a step with its 64×64 frame
// (Crafter renders one every step), and a reset.
func (r *Report) writeCrafter(w io.Writer, c *Crafter) error {
	step, ok1 := r.Figure("sim steps/s/core (random actions)")
	frame, ok2 := r.Figure("agent view 64 px")
	reset, ok3 := r.Figure("resets/s/core")
	if c.StepsPerSec > 0 && ok1 && ok2 && step.Measured() && frame.Measured() {
		ours := 1 / (1/step.Median + frame.Median/1e6)
		fmt.Fprintf(w, "vs Crafter: step with a 64×64 image %s/s here, %s/s Crafter: %.0f×\n", num(ours), num(c.StepsPerSec), ours/c.StepsPerSec)
	}
	if c.ResetsPerSec > 0 && ok3 && reset.Measured() {
		fmt.Fprintf(w, "vs Crafter: resets %s/s here, %s/s Crafter: %.0f×\n", num(reset.Median), num(c.ResetsPerSec), reset.Median/c.ResetsPerSec)
	}
	return nil
}

func target(v Value) string {
	if v.Target == nil {
		return ""
	}
	if v.Higher {
		return "≥ " + num(*v.Target)
	}
	return "≤ " + num(*v.Target)
}

// num formats a figure with three significant digits and k/M suffixes.
func num(x float64) string {
	a := math.Abs(x)
	switch {
	case a >= 1e6:
		return fmt.Sprintf("%.3g", x/1e6) + "M"
	case a >= 1e4:
		return fmt.Sprintf("%.3g", x/1e3) + "k"
	case a >= 1000 || a == math.Trunc(a):
		return fmt.Sprintf("%.0f", x)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

// WriteJSON writes the report to path.
func (r *Report) WriteJSON(path string) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadReport reads a report (a baseline) written by WriteJSON.
func ReadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", path, err)
	}
	return &r, nil
}

// Change is one figure compared with its baseline.
type Change struct {
	Name      string
	Unit      string
	Base, Now Value
	Ratio     float64 // now median / baseline median
	// Regressed: worse by more than the threshold, and every run now is
	// worse than every baseline run (ranges apart, so not noise alone).
	Regressed bool
}

// Compare compares the figures of now with those of base. threshold is the
// relative change that counts (0.10: 10%).
func Compare(base, now *Report, threshold float64) []Change {
	var out []Change
	for _, n := range now.Figures {
		b, ok := base.Figure(n.Name)
		if !ok || !b.Measured() || !n.Measured() {
			continue
		}
		c := Change{Name: n.Name, Unit: n.Unit, Base: b, Now: n}
		if b.Median != 0 {
			c.Ratio = n.Median / b.Median
		} else if n.Median == 0 {
			c.Ratio = 1
		} else {
			c.Ratio = math.Inf(1)
		}
		if n.Higher {
			c.Regressed = c.Ratio < 1-threshold && n.Max < b.Min
		} else {
			c.Regressed = c.Ratio > 1+threshold && n.Min > b.Max
		}
		out = append(out, c)
	}
	return out
}

// WriteComparison prints a comparison, benchstat-style: medians, their
// ranges, and the change.
func WriteComparison(w io.Writer, changes []Change) error {
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "figure\tunit\tbaseline (min–max)\tnow (min–max)\tchange\t\t\n")
	for _, c := range changes {
		flag := ""
		if c.Regressed {
			flag = "REGRESSION"
		}
		change := "~"
		if !math.IsInf(c.Ratio, 0) && math.Abs(c.Ratio-1) >= 0.005 {
			change = fmt.Sprintf("%+.1f%%", (c.Ratio-1)*100)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s (%s–%s)\t%s (%s–%s)\t%s\t%s\t\n", c.Name, c.Unit,
			num(c.Base.Median), num(c.Base.Min), num(c.Base.Max), num(c.Now.Median), num(c.Now.Min), num(c.Now.Max), change, flag)
	}
	return tw.Flush()
}
