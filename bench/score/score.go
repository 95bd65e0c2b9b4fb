// Package score holds the published aggregate scores that Longcraft
// reports beside its own metrics: Crafter's score (the geometric mean of
// the achievements' success rates) and BALROG's progression. They are
// pure functions of per-episode counts, defined once here for the runner's
// summary, rollouts and the fidelity check.
//
// It is a leaf: it must not import anything of Longcraft's.
package score

import "math"

// Crafter is the Crafter benchmark's score: the geometric mean of the
// achievements' success rates, S = exp(mean ln(1 + s_i)) − 1, with s_i in
// percent. It rewards breadth: unlocking many achievements sometimes beats
// unlocking few always.
func Crafter(ratesPercent []float64) float64 {
	if len(ratesPercent) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range ratesPercent {
		sum += math.Log1p(s)
	}
	return math.Expm1(sum / float64(len(ratesPercent)))
}

// Progression is BALROG's progression: the mean fraction of the
// achievements unlocked per episode, in percent.
func Progression(unlockedPerEpisode []int, achievements int) float64 {
	if len(unlockedPerEpisode) == 0 || achievements == 0 {
		return 0
	}
	total := 0
	for _, n := range unlockedPerEpisode {
		total += n
	}
	return 100 * float64(total) / float64(len(unlockedPerEpisode)*achievements)
}

// ProgressionSE is the standard error of Progression, in percent points:
// the sample standard deviation of the episodes' progressions over the
// square root of their number, as BALROG reports it ("mean ± standard
// error"). Zero for fewer than two episodes.
func ProgressionSE(unlockedPerEpisode []int, achievements int) float64 {
	n := len(unlockedPerEpisode)
	if n < 2 || achievements == 0 {
		return 0
	}
	mean := Progression(unlockedPerEpisode, achievements)
	ss := 0.0
	for _, u := range unlockedPerEpisode {
		d := 100*float64(u)/float64(achievements) - mean
		ss += d * d
	}
	return math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
}
