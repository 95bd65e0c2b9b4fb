package render

import "encoding/binary"

// copyWords4 copies a row of 17 to 32 bytes (src; dst at least as long)
// as four 8-byte words: two from its start and two ending at its end,
// overlapping in the middle (the bytes written twice are the same), every
// load before the stores. It is copy for the rows sprites are drawn in at
// the sizes agent views are asked for most (21 bytes a tile row at 64 px,
// about 600 rows a frame): copy calls memmove for each, which cost about
// 5 ns a row here, several times the row's own loads and stores, and
// copyWords4 inlines. Drawn frames take it only where wordRows says it
// is faster. TestCopyWords4IsCopy holds it to copy at every length, and
// BenchmarkCopyRow to its speed.
func copyWords4(dst, src []byte) {
	le := binary.LittleEndian
	n := len(src)
	a, b, c, d := le.Uint64(src), le.Uint64(src[8:]), le.Uint64(src[n-16:]), le.Uint64(src[n-8:])
	dst = dst[:n]
	le.PutUint64(dst, a)
	le.PutUint64(dst[8:], b)
	le.PutUint64(dst[n-16:], c)
	le.PutUint64(dst[n-8:], d)
}
