//go:build linux && amd64

package sim

import (
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestNearMaskReadsNoFurtherThanTheArray: the kernel reads whole groups
// of eight, past end while the array lasts, but never past the array. The
// objects are laid out to end where a page that may not be read begins,
// so a read past them faults; every count at every base is tried, at
// capacities that are and are not multiples of eight.
func TestNearMaskReadsNoFurtherThanTheArray(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; nearMask is all there is")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	defer syscall.Munmap(mem)
	require.NoError(t, syscall.Mprotect(mem[page:], syscall.PROT_NONE))
	size := int(unsafe.Sizeof(Object{}))
	for _, capacity := range []int{1, 7, 8, 9, 63, 64, 65, 71, 130} {
		start := unsafe.Pointer(&mem[page-capacity*size])
		w := &World{objects: unsafe.Slice((*Object)(start), capacity), vectorNear: true}
		for i := range w.objects {
			w.objects[i] = Object{X: int16(i % 23), Y: int16(i % 17)}
		}
		for base := range capacity {
			for end := base + 1; end <= min(base+64, capacity); end++ {
				got := w.nearMask(base, end, 5, 5, 18)
				require.Equal(t, nearMask(w.objects[base:end], 5, 5, 18), got, "capacity %d, objects [%d, %d)", capacity, base, end)
			}
		}
	}
}
