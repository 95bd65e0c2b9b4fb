package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunLerpJobsRows checks runLerpJobs' rows jobs against lerp at
// every length up to 40 (below 8 the runner's own loop, from 8 on
// lerpRowsAVX2), with the runner wide or not, and at every kind of
// weight: the worlds' fields use few weights (the tunnels' short rows
// only 0 and one half), so they alone would not show a wrong low byte of
// the weight. The values past the row must stay as they were.
func TestRunLerpJobsRows(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; the generic code is all there is")
	}
	rng := RNG{State: 23}
	const stride, sentinel = 48, -12345
	lattice := make([]int32, 3*stride)
	for _, mode := range decideModes()[1:] {
		for n := 1; n <= 40; n++ {
			for _, wt := range []int32{0, 1, 255, 256, 32768, one - 1, int32(rng.Uint64() % one)} {
				for i := range lattice {
					lattice[i] = int32(rng.Uint64()%(4*one)) - 2*one
				}
				y := int(rng.Uint64() % 2)
				rowStart, wy := []int32{0, stride}, []int32{wt, wt}
				dst := make([]int32, n+16)
				for i := range dst {
					dst[i] = sentinel
				}
				j := lerpJob{dst: &dst[0], a: &lattice[0], rowStart: &rowStart[0], wy: &wy[0], stride: stride, n: n, kind: jobRows}
				runLerpJobs(&j, 1, y, mode.wide)
				top, bot := lattice[rowStart[y]:], lattice[int(rowStart[y])+stride:]
				for i := range n {
					require.Equal(t, lerp(top[i], bot[i], int64(wt)), dst[i], "%v, n %d, weight %d, i %d", mode, n, wt, i)
				}
				for i := n; i < len(dst); i++ {
					require.Equal(t, int32(sentinel), dst[i], "%v, n %d: written past the row at %d", mode, n, i)
				}
			}
		}
	}
}
