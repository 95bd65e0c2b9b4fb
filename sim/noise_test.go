package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSmoothConstants checks the unrolled cells' constant weights against
// smoothstep and against the weights the fields compute for themselves.
func TestSmoothConstants(t *testing.T) {
	consts := map[int32]int32{4: smooth4, 8: smooth8, 12: smooth12, 16: smooth16, 20: smooth20, 24: smooth24, 28: smooth28}
	for k, c := range consts {
		require.Equal(t, smoothstep(k), c, "smooth%d", k)
	}
	for shift, span := range map[uint]int{2: 4, 3: 8} {
		f := newNoiseField(shift, shift, 0, 64, 64)
		require.Len(t, f.cellWeights, span)
		for k, w := range f.cellWeights {
			require.Equal(t, smoothstep(int32(k*32/span)), w)
			if k > 0 {
				require.Equal(t, consts[int32(k*32/span)], w, "span %d, tile %d", span, k)
			}
		}
	}
}

// vectorModes are the kernels a test runs: the generic code, and the
// vector kernels where the machine has them.
func vectorModes() []bool {
	if hasVectorKernels() {
		return []bool{false, true}
	}
	return []bool{false}
}

// decideMode is one way a test has worlds decided: generic, or by the
// vector kernels with the AVX2 or the AVX-512 decision kernel.
type decideMode struct{ vector, wide bool }

func (m decideMode) String() string {
	switch {
	case m.wide:
		return "decideAVX512"
	case m.vector:
		return "decideAVX2"
	}
	return "generic"
}

// set makes g decide as m says.
func (m decideMode) set(g *generator) { g.vector, g.wide = m.vector, m.wide }

// decideModes are the decision paths this machine has: generic, AVX2
// where it has the vector kernels, and AVX-512 where it has that too.
func decideModes() []decideMode {
	modes := []decideMode{{}}
	if hasVectorKernels() {
		modes = append(modes, decideMode{vector: true})
	}
	if hasVectorKernels() && hasWideKernels() {
		modes = append(modes, decideMode{vector: true, wide: true})
	}
	return modes
}

// hashModes are the generators whose hashing kernels TestDrawRow and
// TestFill compare with mix64: generic, vector, and vector with
// AVX-512's multiply where the machine has it.
func hashModes() []*generator {
	modes := []*generator{{}}
	if hasVectorKernels() {
		modes = append(modes, &generator{vector: true})
	}
	if hasMul64Kernels() {
		modes = append(modes, &generator{vector: true, mul64: true})
	}
	return modes
}

// TestAcrossCells checks the cell-wise interpolation, vector, unrolled or
// not, against colsLerp tile by tile, for every cell width and for widths
// that end inside a cell.
func TestAcrossCells(t *testing.T) {
	rng := RNG{State: 5}
	for _, vector := range vectorModes() {
		g := &generator{vector: vector}
		for _, shift := range []uint{1, 2, 3, 4} {
			for _, width := range []int{3, 8, 17, 64, 80, 200, 1021, 1024} {
				f := newNoiseField(shift, shift, 0, width, 8)
				vals := make([]int32, f.stride)
				for i := range vals {
					vals[i] = int32(rng.Uint64()%(4*one)) - 2*one
				}
				bias := int32(rng.Uint64()%one) - one/2
				dst := new(rowBuf)
				g.acrossCells(&f, vals, dst, bias)
				for x := range width {
					require.Equal(t, colsLerp(vals, f.col[x], f.wx[x])+bias, dst[x],
						"vector %v, spacing %d, width %d, x %d", vector, 1<<shift, width, x)
				}
			}
		}
	}
}

// TestLerpRows checks the row interpolation, vector or not, against lerp
// at every length up to 40 and at the extreme weights.
func TestLerpRows(t *testing.T) {
	rng := RNG{State: 9}
	for _, vector := range vectorModes() {
		g := &generator{vector: vector}
		for n := range 41 {
			top, bot, dst := make([]int32, n), make([]int32, n), make([]int32, n)
			for i := range n {
				top[i] = int32(rng.Uint64()%(4*one)) - 2*one
				bot[i] = int32(rng.Uint64()%(4*one)) - 2*one
			}
			for _, wt := range []int32{0, 1, 255, 256, 32768, one - 1, int32(rng.Uint64() % one)} {
				g.lerpRows(dst, top, bot, wt)
				for i := range n {
					require.Equal(t, lerp(top[i], bot[i], int64(wt)), dst[i], "vector %v, n %d, t %d, i %d", vector, n, wt, i)
				}
			}
		}
	}
}

// TestFill checks the lattice values drawn, vector or not, against their
// definition at every length up to 70: value i is the (i mod 4)-th 16-bit
// chunk of mix64(key + (i − i mod 4)·splitMixGamma), centred and doubled.
// The values around the lattice must stay untouched.
func TestFill(t *testing.T) {
	rng := RNG{State: 11}
	const guard = 12345
	for _, mode := range hashModes() {
		vector := fmt.Sprintf("%v, mul64 %v", mode.vector, mode.mul64)
		for n := range 71 {
			key := rng.Uint64()
			g := &generator{vector: mode.vector, mul64: mode.mul64, fillLanes: newHashLanes(4), lattice: make([]int32, n+2)}
			g.lattice[0], g.lattice[n+1] = guard, guard
			g.fill(&noiseField{offset: 1, stride: n, rows: 1}, key)
			for i := range n {
				r := mix64(key + uint64(i&^3)*splitMixGamma)
				require.Equal(t, 2*int32(uint16(r>>(16*(i&3))))-one, g.lattice[1+i], "vector %v, n %d, i %d", vector, n, i)
			}
			require.Equal(t, int32(guard), g.lattice[0], "vector %v, n %d", vector, n)
			require.Equal(t, int32(guard), g.lattice[n+1], "vector %v, n %d", vector, n)
		}
	}
}
