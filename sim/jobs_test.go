package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunLerpJobsRows checks runLerpJobs' rows jobs against lerp at
// every length up to 40 (below 8 the runner's own loop, from 8 on
// lerpRowsAVX2) and at every kind of weight: the worlds' fields use few
// weights (the tunnels' short rows only 0 and one half), so they alone
// would not show a wrong low byte of the weight. The values past the
// row must stay as they were.
func TestRunLerpJobsRows(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; the generic code is all there is")
	}
	rng := RNG{State: 23}
	const stride, sentinel = 48, -12345
	lattice := make([]int32, 3*stride)
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
			runLerpJobs(&j, 1, y, false) // rows jobs take no AVX-512 kernel
			top, bot := lattice[rowStart[y]:], lattice[int(rowStart[y])+stride:]
			for i := range n {
				require.Equal(t, lerp(top[i], bot[i], int64(wt)), dst[i], "n %d, weight %d, i %d", n, wt, i)
			}
			for i := n; i < len(dst); i++ {
				require.Equal(t, int32(sentinel), dst[i], "n %d: written past the row at %d", n, i)
			}
		}
	}
}

// TestRunLerpJobsCells checks runLerpJobs' cell jobs, with the counts
// cellsJob gives, against colsLerp at every width to 70 and a few more,
// for cells of 2, 4, 8 and 16 tiles, by the AVX2 kernels and, where the
// machine has them, the AVX-512 ones (wide). Each kernel writes whole
// groups: the AVX-512 ones through the next multiple of 16 tiles, the
// AVX2 ones of 8 (of 16 for cells of 16), and not one value further,
// which a count one group too large, or the runner taking the other
// kernels, would break.
func TestRunLerpJobsCells(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; the generic code is all there is")
	}
	const sentinel = -123456789
	rng := RNG{State: 31}
	widths := []int{100, 255, 257, 1000, 1015, 1017, MaxSide}
	for w := 1; w <= 70; w++ {
		widths = append(widths, w)
	}
	for _, mode := range decideModes()[1:] {
		for _, shift := range []uint{1, 2, 3, 4} {
			span := 1 << shift
			for _, width := range widths {
				f := newNoiseField(shift, shift, 0, width, 8)
				vals := make([]int32, f.stride+latticePad)
				for i := range vals {
					vals[i] = int32(rng.Uint64()%(4*one)) - 2*one
				}
				bias := int32(rng.Uint64()%one) - one/2
				dst := new(rowBuf)
				for i := range dst {
					dst[i] = sentinel
				}
				j := lerpJob{dst: &dst[0], a: &vals[0], split: &f.split, n: f.cellsN, nWide: f.cellsWide, kind: f.cellsKind, bias: bias}
				runLerpJobs(&j, 1, 0, mode.wide)
				group := 8
				if mode.wide || span == 16 {
					group = 16
				}
				end := (width + group - 1) / group * group
				at := fmt.Sprintf("%v, cells of %d, width %d", mode, span, width)
				for x := range width {
					require.Equal(t, colsLerp(vals, f.col[x], f.wx[x])+bias, dst[x], "%s, x %d", at, x)
				}
				for x := width; x < end; x++ {
					require.NotEqual(t, int32(sentinel), dst[x], "%s: the group's tile %d not written", at, x)
				}
				for x := end; x < len(dst); x++ {
					require.Equal(t, int32(sentinel), dst[x], "%s: written past the last group, at %d", at, x)
				}
			}
		}
	}
}
