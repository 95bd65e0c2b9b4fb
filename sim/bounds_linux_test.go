//go:build linux

package sim

import (
	"os"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// guarded hands out int32 slices that end exactly where a page the
// process may not touch begins, so that a kernel reading or writing one
// value past a slice faults instead of reading its neighbour.
type guarded struct {
	t    *testing.T
	maps [][]byte
}

func (gd *guarded) int32s(n int) []int32 {
	page := os.Getpagesize()
	size := (n*4+page-1)/page*page + page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(gd.t, err)
	gd.maps = append(gd.maps, mem)
	require.NoError(gd.t, syscall.Mprotect(mem[size-page:], syscall.PROT_NONE))
	return unsafe.Slice((*int32)(unsafe.Pointer(&mem[size-page-n*4])), n)
}

func (gd *guarded) free() {
	for _, m := range gd.maps {
		require.NoError(gd.t, syscall.Munmap(m))
	}
	gd.maps = nil
}

// guard moves w's lattice, lattice column rows and across-first rows
// against guarded pages, and points the jobs at them.
func (gd *guarded) guard(w *World) {
	g := w.gen
	g.lattice = gd.int32s(len(g.lattice))
	for f := range g.cols {
		if g.cols[f] != nil {
			g.cols[f] = gd.int32s(len(g.cols[f]))
		}
	}
	for f := range g.across {
		if g.across[f].top != nil {
			g.across[f].top = (*rowBuf)(gd.int32s(MaxSide))
			g.across[f].bot = (*rowBuf)(gd.int32s(MaxSide))
		}
	}
	g.newLerpJobs(w.width)
}

// TestKernelsStayInTheirArrays generates worlds with the lattice (which
// the cell kernels read up to latticePad values past a row), the
// lattice column rows and the across-first rows each ending at a page
// the process may not touch, on every path the machine has: a kernel
// that reads or writes past its array faults here, where the goldens
// would not see it (the values past a row only reach tiles past the
// map's width). Widths cover every remainder of the kernels' groups.
func TestKernelsStayInTheirArrays(t *testing.T) {
	gd := &guarded{t: t}
	defer gd.free()
	rng := RNG{State: 77}
	var widths []int
	for w := 3; w <= 80; w++ { // New takes widths from 3
		widths = append(widths, w)
	}
	for w := 81; w < 1000; w += 37 {
		widths = append(widths, w)
	}
	for w := 1000; w <= MaxSide; w++ {
		widths = append(widths, w)
	}
	for _, width := range widths {
		height := 3 + int(rng.Uint64()%20)
		for _, mode := range decideModes() {
			for _, rules := range []*Rules{Classic(), Extended()} {
				w, err := New(Config{Width: width, Height: height, Rules: rules})
				require.NoError(t, err)
				mode.set(w.gen)
				gd.guard(w)
				w.Reset(rng.Uint64())
				w.Reset(rng.Uint64())
				w.gen = nil // before its memory goes
				gd.free()
			}
		}
	}
}
