//go:build !amd64 || race

package vec

// streamed: streamFrame copies through the caches here.
const streamed = false

// streamFrame copies src into dst: Go has no portable non-temporal
// store, so other machines copy through the caches; so do race builds,
// whose detector does not see stores made in assembly.
func streamFrame(dst, src []byte) { copy(dst[:len(src)], src) }
