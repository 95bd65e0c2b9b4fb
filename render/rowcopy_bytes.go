//go:build !amd64 && !arm64

package render

// wordRows: draw copies every row with copy. Under WebAssembly (Node),
// copyWords4 was no faster than copy (a 64 px frame's rows: 12.6–17.3 µs
// against 11.4–14.0), and other machines are not measured.
const wordRows = false
