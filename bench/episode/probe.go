package episode

// ProbeSkill is the skill of an agent's claims (beliefs or predictions)
// over a baseline judged on the same claims: right of claims came true,
// baseline is how many the stronger baseline got right (bench/player
// tallies both). With a = right/claims and b = baseline/claims:
//
//	skill = (a − b) / (1 − b), clamped to [−1, 1]
//
// the baseline's errors the agent avoided, less those it added, over the
// baseline's errors: 1 every claim right where the baseline missed some,
// 0 no better than the baseline (and 0 when the baseline was right on
// every claim and so was the agent: nothing was left to show), −1 as many
// errors again as the baseline made, or more (any error where the
// baseline made none). One scale on both sides, so that claims both the
// agent and the baseline get right move it neither way: a worse model
// cannot pad its skill towards 0 with free claims. Clamped, every mean
// and interval of it stays in range. Not measured without claims.
func ProbeSkill(right, baseline, claims int) Measure {
	if claims <= 0 {
		return Measure{}
	}
	if baseline >= claims {
		if right >= claims {
			return Measured(0)
		}
		return Measured(-1)
	}
	skill := float64(right-baseline) / float64(claims-baseline)
	return Measured(max(-1, min(1, skill)))
}
