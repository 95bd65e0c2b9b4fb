package episode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProbeSkill: no better than the baseline is 0 (a constant claim,
// which the base rate matches or beats, included), the skill stays in
// [−1, 1], and adding claims both get right moves it neither way, above
// the baseline or below it.
func TestProbeSkill(t *testing.T) {
	for _, c := range []struct {
		name                    string
		right, baseline, claims int
		want                    Measure
	}{
		{"no claims", 0, 0, 0, Measure{}},
		{"as good as a perfect baseline", 10, 10, 10, Measured(0)},
		{"a constant the base rate beats", 7, 8, 10, Measured(-0.5)},
		{"the same with claims both get right", 107, 108, 110, Measured(-0.5)},
		{"twice the baseline's errors", 6, 8, 10, Measured(-1)},
		{"an error where the baseline made none", 9, 10, 10, Measured(-1)},
		{"every claim wrong", 0, 8, 10, Measured(-1)},
		{"every claim right", 10, 8, 10, Measured(1)},
		{"half the baseline's errors avoided", 9, 8, 10, Measured(0.5)},
		{"the same with claims both get right", 109, 108, 110, Measured(0.5)},
		{"a baseline that never hits", 5, 0, 10, Measured(0.5)},
	} {
		got := ProbeSkill(c.right, c.baseline, c.claims)
		assert.Equal(t, c.want.OK, got.OK, c.name)
		assert.InDelta(t, c.want.Value, got.Value, 1e-12, c.name)
		assert.True(t, got.Value >= -1 && got.Value <= 1, c.name)
	}
}
