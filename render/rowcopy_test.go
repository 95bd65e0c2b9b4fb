package render

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCopyWords4IsCopy: copyWords4 writes what copy writes, and nothing
// past the row, at every length it takes and every offset of the source
// and destination within a word.
func TestCopyWords4IsCopy(t *testing.T) {
	for n := 17; n <= 32; n++ {
		for off := 0; off < 8; off++ {
			src := make([]byte, n+off)
			for i := range src {
				src[i] = byte(i*37 + 11)
			}
			got, want := make([]byte, n+off+16), make([]byte, n+off+16)
			for i := range got {
				got[i], want[i] = 0xee, 0xee
			}
			copy(want[off:], src[off:])
			copyWords4(got[off:], src[off:])
			require.Equal(t, want, got, "%d bytes at offset %d", n, off)
		}
	}
}

// BenchmarkCopyRow: a 64 px frame's tile rows (81 tiles of 7 rows of 21
// bytes), by copyWords4 and by copy (the reference).
func BenchmarkCopyRow(b *testing.B) {
	src := make([]byte, 21*7)
	dst := make([]byte, 64*64*3)
	const stride = 64 * 3
	b.Run("copyWords4", func(b *testing.B) {
		b.ReportAllocs()
		used := 0.0
		if wordRows {
			used = 1
		}
		b.ReportMetric(used, "drawn") // 1: frames are drawn with it here (longcraft bench reads it)
		for i := 0; i < b.N; i++ {
			for tile := 0; tile < 81; tile++ {
				at := tile/9*7*stride + tile%9*21
				for y := 0; y < 7; y++ {
					copyWords4(dst[at+y*stride:], src[y*21:(y+1)*21])
				}
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for tile := 0; tile < 81; tile++ {
				at := tile/9*7*stride + tile%9*21
				for y := 0; y < 7; y++ {
					copy(dst[at+y*stride:at+y*stride+21], src[y*21:(y+1)*21])
				}
			}
		}
	})
}
