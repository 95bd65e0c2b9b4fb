package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPrefetchChangesNothing: the three phases run with the player on
// every tile (the map's edges and corners included, where the rows are
// cut), on worlds of several shapes and on one never reset, and change
// nothing a world holds or allocate.
func TestPrefetchChangesNothing(t *testing.T) {
	never, err := New(Config{Width: 16, Height: 16})
	require.NoError(t, err)
	never.PrefetchWorld()
	never.PrefetchObjects()
	never.PrefetchView()
	for _, shape := range [][2]int{{9, 9}, {24, 17}, {64, 64}} {
		w, err := New(Config{Width: shape[0], Height: shape[1]})
		require.NoError(t, err)
		w.Reset(3)
		for y := 0; y < shape[1]; y++ {
			for x := 0; x < shape[0]; x++ {
				if w.MovePlayer(x, y) != nil {
					continue
				}
				h := w.Hash()
				// Over 20 runs, so that a stray allocation elsewhere in
				// the process (it happened once in thousands) averages
				// out: the phases themselves would allocate every run.
				allocs := testing.AllocsPerRun(20, func() {
					w.PrefetchWorld()
					w.PrefetchObjects()
					w.PrefetchView()
				})
				require.Zero(t, allocs)
				require.Equal(t, h, w.Hash(), "%v at (%d, %d)", shape, x, y)
			}
		}
	}
}

// TestPrefetchKernelsEnd: the kernels return for empty rows, no rows
// and rows that straddle lines; there is nothing to check but that (an
// endless loop or a fault hangs or kills the test).
func TestPrefetchKernelsEnd(t *testing.T) {
	tiles, slots := make([]Material, 4096), make([]uint8, 4096)
	for _, c := range [][3]int{{0, 64, 5}, {1, 0, 1}, {64, 64, 0}, {64, 64, -1}, {65, 100, 3}, {2048, 0, 1}, {11, 64, 11}} {
		prefetchTileRows(&tiles[0], c[0], c[1], c[2])
		prefetchSlotRows(&slots[0], c[0], c[1], c[2])
	}
	objs, chunks := make([]Object, 70), make([]chunkCounts, 40)
	for _, n := range []int{0, 1, 70} {
		prefetchObjects(&objs[0], n)
		prefetchChunks(&chunks[0], min(n, 40))
	}
	prefetchWorld(&World{})
}
