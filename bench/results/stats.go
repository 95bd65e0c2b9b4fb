package results

import (
	"math"
	"math/rand/v2"
	"slices"
)

// McNemarExact is the exact two-sided McNemar test of paired successes:
// b episodes where only the first run succeeded, c where only the second
// did. Under no difference each discordant pair goes either way with
// probability 1/2, so p = min(1, 2·P(X ≤ min(b, c))) with X ~ Bin(b+c, 1/2);
// 1 when no pair is discordant.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	lnHalf := float64(n) * math.Log(0.5)
	sum := 0.0
	for i := 0; i <= k; i++ {
		sum += math.Exp(lnChoose(n, i) + lnHalf)
	}
	return math.Min(1, 2*sum)
}

// lnChoose is ln C(n, k).
func lnChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// PairedBootstrap returns the mean of diffs (one per paired episode) and
// a 95% percentile bootstrap interval for it: resamples of the pairs with
// replacement, drawn from a generator seeded by seed, so a page written
// twice shows the same interval.
func PairedBootstrap(diffs []float64, resamples int, seed uint64) (mean, lo, hi float64) {
	n := len(diffs)
	if n == 0 {
		return 0, 0, 0
	}
	for _, d := range diffs {
		mean += d
	}
	mean /= float64(n)
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74))
	means := make([]float64, resamples)
	for r := range means {
		s := 0.0
		for range n {
			s += diffs[rng.IntN(n)]
		}
		means[r] = s / float64(n)
	}
	slices.Sort(means)
	return mean, quantile(means, 0.025), quantile(means, 0.975)
}

// BootstrapMean is a 95% percentile bootstrap interval for the mean of
// the values in clusters: each resample draws as many clusters as there
// are, with replacement, whole (the episodes of one world are one
// observation), from a generator seeded by seed. Every resample's mean
// lies between the smallest and the largest value, so the interval never
// leaves the values' range, and so never the metric's. One cluster: the
// interval is its mean alone (nothing to resample).
func BootstrapMean(clusters [][]float64, resamples int, seed uint64) (lo, hi float64) {
	if len(clusters) == 0 {
		return 0, 0
	}
	sums, counts := make([]float64, len(clusters)), make([]int, len(clusters))
	least, most := math.Inf(1), math.Inf(-1)
	for i, c := range clusters {
		for _, x := range c {
			sums[i] += x
			least, most = math.Min(least, x), math.Max(most, x)
		}
		counts[i] = len(c)
	}
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74))
	means := make([]float64, resamples)
	n := len(clusters)
	for r := range means {
		s, k := 0.0, 0
		for range n {
			i := rng.IntN(n)
			s += sums[i]
			k += counts[i]
		}
		means[r] = s / float64(k)
	}
	slices.Sort(means)
	// Rounding can put a mean of equal values a last bit beyond them.
	clamp := func(x float64) float64 { return math.Min(math.Max(x, least), most) }
	return clamp(quantile(means, 0.025)), clamp(quantile(means, 0.975))
}

// quantile is the q-quantile of sorted xs, interpolated.
func quantile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}

// NewcombeDiff is Newcombe's hybrid score interval (his method 10) for the
// difference of two independent proportions k1/n1 − k2/n2, built from
// their Wilson intervals: what unpaired runs are compared with.
func NewcombeDiff(k1, n1, k2, n2 int) (diff, lo, hi float64) {
	p1, p2 := Fraction(k1, n1), Fraction(k2, n2)
	l1, u1 := Wilson(k1, n1)
	l2, u2 := Wilson(k2, n2)
	diff = p1 - p2
	return diff, diff - math.Sqrt((p1-l1)*(p1-l1)+(u2-p2)*(u2-p2)), diff + math.Sqrt((u1-p1)*(u1-p1)+(p2-l2)*(p2-l2))
}

// NewcombePaired is Newcombe's interval for the difference of two paired
// proportions (his 1998 method 10): both runs played the same n episodes,
// a succeeded in both, b in the first only, c in the second only. It
// combines the Wilson intervals of the two success rates with their
// correlation φ (shrunk toward 0 as Newcombe prescribes: ad − bc is taken
// as 0 when between 0 and n/2, and reduced by n/2 above), so it stays
// honest where the bootstrap is not: when every discordant pair goes one
// way, a percentile bootstrap collapses to a point.
func NewcombePaired(a, b, c, n int) (diff, lo, hi float64) {
	d := n - a - b - c
	p1, p2 := Fraction(a+b, n), Fraction(a+c, n)
	l1, u1 := Wilson(a+b, n)
	l2, u2 := Wilson(a+c, n)
	phi := 0.0
	if den := float64(a+b) * float64(c+d) * float64(a+c) * float64(b+d); den > 0 {
		num := float64(a)*float64(d) - float64(b)*float64(c)
		switch {
		case num > float64(n)/2:
			num -= float64(n) / 2
		case num >= 0:
			num = 0
		}
		phi = num / math.Sqrt(den)
	}
	diff = p1 - p2
	lo = diff - math.Sqrt(math.Max(0, (p1-l1)*(p1-l1)-2*phi*(p1-l1)*(u2-p2)+(u2-p2)*(u2-p2)))
	hi = diff + math.Sqrt(math.Max(0, (u1-p1)*(u1-p1)-2*phi*(u1-p1)*(p2-l2)+(p2-l2)*(p2-l2)))
	return diff, lo, hi
}
