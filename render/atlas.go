package render

import (
	"fmt"
	"image"

	"github.com/longcraft/longcraft/assets"
)

// Atlas is the decoded sprite sheet: every sprite as Cell×Cell RGBA pixels
// and every font glyph as a bit mask. It is read-only once loaded, and
// renderers of any size share one.
type Atlas struct {
	sprites [assets.NumSprites][assets.Cell * assets.Cell]pixel
	glyphs  [assets.FontLast - assets.FontFirst + 1]glyph
}

// pixel is an 8-bit RGBA colour; a is 0 (transparent) or 255 (opaque)
// after scaling.
type pixel struct{ r, g, b, a uint8 }

// glyph is a 5×7 character, one row of bits per byte (bit 4 leftmost).
type glyph [7]uint8

// LoadAtlas decodes the embedded sprite sheet.
func LoadAtlas() (*Atlas, error) {
	sheet, err := assets.Sheet()
	if err != nil {
		return nil, fmt.Errorf("load atlas: %w", err)
	}
	a := &Atlas{}
	for s := assets.Sprite(0); s < assets.NumSprites; s++ {
		r := s.Rect()
		for y := 0; y < assets.Cell; y++ {
			for x := 0; x < assets.Cell; x++ {
				c := sheet.NRGBAAt(r.Min.X+x, r.Min.Y+y)
				a.sprites[s][y*assets.Cell+x] = pixel{c.R, c.G, c.B, c.A}
			}
		}
	}
	for c := assets.FontFirst; c <= assets.FontLast; c++ {
		r := assets.GlyphRect(byte(c))
		var gl glyph
		for y := 0; y < 7; y++ {
			for x := 0; x < 5; x++ {
				if sheet.NRGBAAt(r.Min.X+x, r.Min.Y+y).A >= 128 {
					gl[y] |= 1 << (4 - x)
				}
			}
		}
		a.glyphs[c-assets.FontFirst] = gl
	}
	return a, nil
}

// glyph returns the glyph of c ('?' outside printable ASCII).
func (a *Atlas) glyph(c byte) *glyph {
	if c < assets.FontFirst || c > assets.FontLast {
		c = '?'
	}
	return &a.glyphs[c-assets.FontFirst]
}

// scaled returns sprite s at unit×unit pixels. Upscaling takes the nearest
// source pixel, which keeps pixel art crisp; downscaling averages the
// opaque source pixels each target pixel covers and makes it opaque when
// they cover at least half of it, which keeps small sprites readable.
func (a *Atlas) scaled(s assets.Sprite, unit int) []pixel {
	const n = assets.Cell
	src := &a.sprites[s]
	out := make([]pixel, unit*unit)
	if unit >= n {
		for y := 0; y < unit; y++ {
			sy := y * n / unit
			for x := 0; x < unit; x++ {
				out[y*unit+x] = src[sy*n+x*n/unit]
			}
		}
		return out
	}
	// Each target pixel covers [x·n/unit, (x+1)·n/unit) source pixels on
	// each axis; weights are in 1/unit of a source pixel.
	for y := 0; y < unit; y++ {
		for x := 0; x < unit; x++ {
			var r, g, b, w, total int
			for sy := y * n / unit; sy*unit < (y+1)*n; sy++ {
				wy := min((sy+1)*unit, (y+1)*n) - max(sy*unit, y*n)
				for sx := x * n / unit; sx*unit < (x+1)*n; sx++ {
					wx := min((sx+1)*unit, (x+1)*n) - max(sx*unit, x*n)
					p := src[sy*n+sx]
					total += wx * wy
					if p.a >= 128 {
						ww := wx * wy
						r += int(p.r) * ww
						g += int(p.g) * ww
						b += int(p.b) * ww
						w += ww
					}
				}
			}
			if w*2 >= total && w > 0 {
				out[y*unit+x] = pixel{uint8(r / w), uint8(g / w), uint8(b / w), 255}
			}
		}
	}
	return out
}

// image returns the sprite as an image, for tests and tools.
func (a *Atlas) image(s assets.Sprite) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, assets.Cell, assets.Cell))
	for i, p := range a.sprites[s] {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = p.r, p.g, p.b, p.a
	}
	return img
}
