package prefetch

import "unsafe"

// Enabled reports whether Bytes asks the caches for anything (amd64) or
// does nothing (elsewhere).
const Enabled = true

// Bytes asks for every cache line that holds a byte of [p, p+n). A
// prefetch never faults, so p may point anywhere (n = 0 asks for
// nothing).
func Bytes(p unsafe.Pointer, n uintptr) {
	if n > 0 {
		lines(p, n)
	}
}

// lines issues PREFETCHT0 on the lines of [p, p+n), n > 0
// (prefetch_amd64.s).
//
//go:noescape
func lines(p unsafe.Pointer, n uintptr)
