package fidelity

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// Within reports whether the estimate lies within ±tol (a fraction) of
// Crafter's figure.
func (r Result) Within(tol float64) bool { return math.Abs(r.RelDiff()) <= tol }

// WriteTable prints results as an aligned table: Crafter's figure, the
// estimate with its 95% sampling interval, the relative difference, and
// whether it is within ±tol.
func WriteTable(w io.Writer, results []Result, tol float64) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "statistic (per step unless noted)\tCrafter\tLongcraft\t95%% interval\tdifference\twithin ±%.0f%%\n", 100*tol)
	for _, r := range results {
		ok := "yes"
		if !r.Within(tol) {
			ok = "NO"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t[%s, %s]\t%+.1f%%\t%s\n", r.Name, num(r.Crafter), num(r.Value), num(r.Low()), num(r.High()), 100*r.RelDiff(), ok)
	}
	return tw.Flush()
}

// num prints a statistic with four significant digits.
func num(v float64) string { return fmt.Sprintf("%.4g", v) }

// SampleFor returns the episodes a sample needs so that a faithful
// implementation, whose true value is Crafter's figure, lands outside ±tol
// with probability at most p for any of the statistics (a Bonferroni bound
// over the statistics, each estimate taken as normal with the per-episode
// spread measured in results).
func SampleFor(results []Result, tol, p float64) int {
	z := normalQuantile(1 - p/float64(2*len(results)))
	n := 0
	for _, r := range results {
		rel := r.EpisodeSD / r.Crafter
		n = max(n, int(math.Ceil(math.Pow(z*rel/tol, 2))))
	}
	return n
}

// FailureBound is the probability, by the same bound as SampleFor, that a
// faithful implementation falls outside ±tol on some statistic with a
// sample of n episodes.
func FailureBound(results []Result, tol float64, n int) float64 {
	var p float64
	for _, r := range results {
		se := r.EpisodeSD / r.Crafter / math.Sqrt(float64(n))
		p += math.Erfc(tol / se / math.Sqrt2)
	}
	return p
}

// normalQuantile inverts the standard normal distribution function.
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }
