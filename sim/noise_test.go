package sim

import (
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

// TestAcrossCells checks the cell-wise interpolation, unrolled or not,
// against colsLerp tile by tile, for every cell width and for widths that
// end inside a cell.
func TestAcrossCells(t *testing.T) {
	rng := RNG{State: 5}
	for _, shift := range []uint{1, 2, 3, 4} {
		for _, width := range []int{3, 17, 64, 80, 1021} {
			f := newNoiseField(shift, shift, 0, width, 8)
			vals := new(rowBuf)
			for i := range f.stride {
				vals[i] = int32(rng.Uint64()%(2*one)) - one
			}
			dst := new(rowBuf)
			f.acrossCells(vals[:f.stride], dst)
			for x := range width {
				require.Equal(t, colsLerp(vals, f.col[x], f.wx[x]), dst[x], "spacing %d, width %d, x %d", 1<<shift, width, x)
			}
		}
	}
}
