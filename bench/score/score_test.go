package score

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCrafter(t *testing.T) {
	for _, c := range []struct {
		rates []float64
		want  float64
	}{
		{nil, 0},
		{[]float64{0, 0, 0}, 0},
		{[]float64{100, 100}, 100},
		{[]float64{100, 0}, math.Sqrt(101) - 1}, // geometric mean of 1+s
		{[]float64{3, 3, 3, 3}, 3},
	} {
		assert.InDelta(t, c.want, Crafter(c.rates), 1e-9, "%v", c.rates)
	}
}

func TestProgression(t *testing.T) {
	assert.InDelta(t, 50.0, Progression([]int{11, 11}, 22), 1e-9)
	assert.InDelta(t, 25.0, Progression([]int{0, 11}, 22), 1e-9)
	assert.Zero(t, Progression(nil, 22))
}
