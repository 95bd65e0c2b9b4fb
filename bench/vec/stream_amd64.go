//go:build !race

package vec

// streamed: streamFrame stores around the caches here.
const streamed = true

// streamFrame copies src into dst (as long) with non-temporal stores
// (stream_amd64.s), which write whole lines to memory without reading
// them into the caches first; the tail past a multiple of 32 bytes goes
// by copy.
func streamFrame(dst, src []byte) {
	dst = dst[:len(src)]
	n := len(src) &^ 31
	if n > 0 {
		streamCopy(&dst[0], &src[0], n)
	}
	copy(dst[n:], src[n:])
}

// streamCopy copies n bytes (a multiple of 32) from src to dst with
// stores that bypass the caches, then fences them.
//
//go:noescape
func streamCopy(dst, src *byte, n int)
