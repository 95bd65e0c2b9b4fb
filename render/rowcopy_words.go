//go:build amd64 || arm64

package render

// wordRows: draw copies 17- to 32-byte rows with copyWords4, whose 8-byte
// loads and stores compile to one instruction each here.
const wordRows = true
