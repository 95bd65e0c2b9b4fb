package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crafterProportions are the spec's measurements over 20 Crafter worlds
// of 64×64: mean tiles per material and creatures at the start.
var crafterProportions = []struct {
	name string
	mean float64
}{
	{"grass", 1871}, {"water", 855}, {"stone", 548}, {"path", 279}, {"sand", 251},
	{"tree", 203}, {"coal", 44}, {"lava", 25}, {"iron", 17}, {"diamond", 2.7},
	{"cow", 28}, {"zombie", 16}, {"skeleton", 8},
}

// worldgenMeans generates n worlds and returns the mean count of every
// material and creature kind, by name.
func worldgenMeans(t testing.TB, n int) map[string]float64 {
	w, err := New(Config{})
	require.NoError(t, err)
	sums := map[string]float64{}
	for seed := 0; seed < n; seed++ {
		w.Reset(uint64(seed))
		for y := 0; y < w.Height(); y++ {
			for x := 0; x < w.Width(); x++ {
				sums[w.rules.Materials[w.Material(x, y)].Name]++
			}
		}
		for _, o := range w.Objects() {
			sums[o.Kind.String()]++
		}
	}
	for k := range sums {
		sums[k] /= float64(n)
	}
	return sums
}

func TestWorldgenProportions(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 50
	}
	means := worldgenMeans(t, n)
	for _, want := range crafterProportions {
		got := means[want.name]
		t.Logf("%-9s %7.1f  (Crafter %6.1f, %+5.0f%%)", want.name, got, want.mean, 100*(got/want.mean-1))
		assert.InDelta(t, want.mean, got, 0.3*want.mean, "%s per world over %d seeds", want.name, n)
	}
}

func TestWorldgenStartArea(t *testing.T) {
	w, err := New(Config{})
	require.NoError(t, err)
	for seed := uint64(0); seed < 200; seed++ {
		w.Reset(seed)
		px, py := w.Player()
		require.Equal(t, MatGrass, w.Material(px, py), "seed %d", seed)
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				assert.Equal(t, MatGrass, w.Material(px+dx, py+dy), fmt.Sprintf("seed %d around start", seed))
			}
		}
	}
}
