package results

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNumber: integers print as integers and nothing under 10⁹ in
// exponent notation (medians printed "789 / 1e+03", a histogram axis
// "1.98e+03" before); other values to three significant digits.
func TestNumber(t *testing.T) {
	for x, want := range map[float64]string{
		0: "0", 1000: "1000", 789: "789", 1980: "1980", 1234567: "1234567", 999999999: "999999999",
		187.333: "187", 1980.4: "1980", 0.933: "0.933", 2.567: "2.57", 12.34: "12.3", 2.5: "2.5",
		-20.5: "-20.5", -0.7: "-0.7", 0.00012345: "0.000123", -0.0001: "-0.0001", 1e9: "1e+09", 2.5e12: "2.5e+12",
	} {
		assert.Equal(t, want, Number(x), "%v", x)
	}
	assert.Equal(t, "+3", SignedNumber(3))
	assert.Equal(t, "-0.5", SignedNumber(-0.5))
	assert.Equal(t, "0", SignedNumber(0))
	assert.Equal(t, "29.3%", Percent(0.29333))
	assert.Equal(t, "187 [1, 1980]", Interval(187.333, 1, 1980, false))
	assert.Equal(t, "12.3% [0.0, 100.0]", Interval(0.123, 0, 1, true))
}
