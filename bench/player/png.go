package player

import (
	"bytes"
	"image/png"

	"github.com/longcraft/longcraft/render"
)

// encodePNG encodes an RGBA frame of size×size pixels.
func encodePNG(frame []byte, size int) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, render.Image(frame, size, size, render.RGBA)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
