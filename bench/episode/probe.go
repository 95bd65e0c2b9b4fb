package episode

// ProbeSkill is the skill of an agent's claims (beliefs or predictions)
// over a baseline judged on the same claims: right of claims came true,
// baseline is how many the stronger baseline got right (bench/player
// tallies both). With a = right/claims and b = baseline/claims:
//
//	skill = (a − b) / (1 − b)  when a ≥ b (the share of the baseline's errors the agent avoided)
//	skill = (a − b) / b        when a < b (the share of the baseline's hits the agent lost)
//
// so it lies in [−1, 1]: 1 every claim right where the baseline missed
// some, 0 no better than the baseline (and 0 when the baseline was right
// on every claim: nothing was left to show), −1 every claim wrong where
// the baseline hit some. A bounded skill keeps every mean and interval
// of it in range, unlike the unbounded (a − b)/(1 − b) alone. Not
// measured without claims.
func ProbeSkill(right, baseline, claims int) Measure {
	if claims <= 0 {
		return Measure{}
	}
	a, b := float64(right)/float64(claims), float64(baseline)/float64(claims)
	switch {
	case a >= b && b >= 1:
		return Measured(0)
	case a >= b:
		return Measured((a - b) / (1 - b))
	default:
		return Measured((a - b) / b)
	}
}
