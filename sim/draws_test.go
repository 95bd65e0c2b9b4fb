package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDrawRow checks the row of tile hashes and passed draws, vector or
// not, against mix64 and the thresholds, at every width up to 70
// and at the extreme thresholds.
func TestDrawRow(t *testing.T) {
	rng := RNG{State: 3}
	for _, g := range hashModes() {
		vector := fmt.Sprintf("%v, mul64 %v", g.vector, g.mul64)
		for _, r := range []rarities{
			{cow: 0, zombie: one, skeleton: one - 1, tree: one / 2},
			{cow: cowRarity, zombie: zombieRarity, skeleton: skeletonRarity, tree: treeRarity},
			{cow: int32(rng.Uint64() % one), zombie: int32(rng.Uint64() % one), skeleton: int32(rng.Uint64() % one), tree: int32(rng.Uint64() % one)},
		} {
			g.rarity = r
			g.setDraws()
			for n := range 71 {
				key, base := rng.Uint64(), int(rng.Uint64()%4096)
				g.drawRow(key, base, n)
				for x := range n {
					d := mix64(key + uint64(base+x+1)*splitMixGamma) // the hash of tile base+x
					require.Equal(t, d, g.hashes[x], "vector %v, n %d, x %d", vector, n, x)
					want := map[uint8]bool{
						passCow: draw(d, drawCow) > r.cow, passZombie: draw(d, drawZombie) > r.zombie,
						passSkeleton: draw(d, drawSkeleton) > r.skeleton, passTree: draw(d, drawTree) > r.tree,
					}
					for bits, pass := range want {
						got := g.passes[x] & bits
						require.True(t, got == 0 && !pass || got == bits && pass, "vector %v, n %d, x %d, bits %#x: %#x", vector, n, x, bits, g.passes[x])
					}
				}
			}
		}
	}
}

// benchmarkLerpRows measures one call of the lerp kernel on n values: on
// hosts where a legacy-SSE instruction after VEX code costs a state
// transition, a short call is dominated by it.
func benchmarkLerpRows(b *testing.B, n int, vector bool) {
	if vector && !hasVectorKernels() {
		b.Skip("no AVX2")
	}
	top, bot, dst := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range top {
		top[i], bot[i] = int32(i*37), int32(i*91)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if vector {
			lerpRowsAVX2(&dst[0], &top[0], &bot[0], n, 3, 77)
		} else {
			for k := range dst {
				dst[k] = top[k] + int32((int64(bot[k]-top[k])*(3*256+77))>>16)
			}
		}
	}
}

func BenchmarkLerpRows8(b *testing.B)           { benchmarkLerpRows(b, 8, true) }
func BenchmarkLerpRows1024(b *testing.B)        { benchmarkLerpRows(b, 1024, true) }
func BenchmarkLerpRows8Generic(b *testing.B)    { benchmarkLerpRows(b, 8, false) }
func BenchmarkLerpRows1024Generic(b *testing.B) { benchmarkLerpRows(b, 1024, false) }
