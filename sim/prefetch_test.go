package sim

import (
	"testing"
	"unsafe"

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
				allocs := testing.AllocsPerRun(1, func() {
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

// TestPrefetchRowsEnds: the kernel returns for empty rows, no rows and
// rows that straddle lines; it has nothing to check but that (an endless
// loop or a fault hangs or kills the test).
func TestPrefetchRowsEnds(t *testing.T) {
	buf := make([]byte, 4096)
	p := unsafe.Pointer(&buf[0])
	for _, c := range []struct {
		n, stride uintptr
		rows      int
	}{{0, 64, 5}, {1, 0, 1}, {64, 64, 0}, {64, 64, -1}, {65, 100, 3}, {4096, 0, 1}, {11, 64, 11}} {
		prefetchRows(p, c.n, c.stride, c.rows)
	}
}
