//go:build !amd64

package prefetch

import "unsafe"

// Enabled reports whether Bytes asks the caches for anything (amd64) or
// does nothing (elsewhere).
const Enabled = false

// Bytes asks for every cache line that holds a byte of [p, p+n): here,
// with no prefetch instruction wired, nothing.
func Bytes(p unsafe.Pointer, n uintptr) {}
