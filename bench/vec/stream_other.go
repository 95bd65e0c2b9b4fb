//go:build !amd64

package vec

// streamFrame copies src into dst: Go has no portable non-temporal
// store, so other machines copy through the caches.
func streamFrame(dst, src []byte) { copy(dst[:len(src)], src) }
