package prefetch

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestBytesEnds: Bytes returns for empty ranges, ranges within a line,
// ranges that straddle lines and ranges that end on a line's last byte,
// allocates nothing and changes nothing; there is nothing else to check
// (an endless loop or a fault hangs or kills the test).
func TestBytesEnds(t *testing.T) {
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(i)
	}
	for _, c := range [][2]int{{0, 0}, {0, 1}, {0, 64}, {1, 64}, {63, 2}, {100, 0}, {5, 4000}, {4095, 1}, {0, 4096}} {
		allocs := testing.AllocsPerRun(10, func() {
			Bytes(unsafe.Pointer(&buf[c[0]]), uintptr(c[1]))
		})
		require.Zero(t, allocs)
	}
	for i := range buf {
		require.Equal(t, byte(i), buf[i])
	}
	var x struct{ a, b int64 }
	Bytes(unsafe.Pointer(&x), unsafe.Sizeof(x))
}

func BenchmarkBytes(b *testing.B) {
	buf := make([]byte, 256)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Bytes(unsafe.Pointer(&buf[0]), 256)
	}
}
