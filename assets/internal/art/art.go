// Package art draws Longcraft's sprite sheet from the ASCII pixel art in
// this package: one palette (palette.go), one table of 16×16 sprites
// (sprites.go) and one 5×7 bitmap font (font.go). The art is original to
// Longcraft and dedicated to the public domain (CC0-1.0; see
// assets/README.md).
//
// The sheet embedded by package assets is this package's output; the
// generator in assets/gen writes it, and the assets tests check that the
// committed PNG still matches what Sheet draws.
package art

import (
	"fmt"
	"image"
	"image/color"

	"github.com/longcraft/longcraft/assets"
)

// Ink is the colour of the font's glyphs. It is white so that a renderer
// can tint text by multiplying.
var Ink = color.NRGBA{255, 255, 255, 255}

// Sheet draws the whole sprite sheet: every sprite in assets.Sprite order,
// then the font, laid out as package assets declares. It panics if a table
// in this package is malformed (a missing sprite, a row of the wrong length,
// a character with no palette entry), which the assets tests catch.
func Sheet() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, assets.SheetWidth, assets.SheetHeight))
	for s := assets.Sprite(0); s < assets.NumSprites; s++ {
		rows, ok := sprites[s]
		if !ok {
			panic(fmt.Sprintf("art: sprite %d has no picture", s))
		}
		drawSprite(img, s, rows)
	}
	if len(sprites) != int(assets.NumSprites) {
		panic(fmt.Sprintf("art: %d sprite pictures for %d sprites", len(sprites), assets.NumSprites))
	}
	drawFont(img)
	return img
}

// drawSprite paints one 16×16 picture into the sprite's cell.
func drawSprite(img *image.NRGBA, s assets.Sprite, rows []string) {
	if len(rows) != assets.Cell {
		panic(fmt.Sprintf("art: sprite %d has %d rows, want %d", s, len(rows), assets.Cell))
	}
	at := s.Rect().Min
	for y, row := range rows {
		if len(row) != assets.Cell {
			panic(fmt.Sprintf("art: sprite %d row %d is %d pixels wide, want %d", s, y, len(row), assets.Cell))
		}
		for x := 0; x < len(row); x++ {
			c, ok := colour(row[x])
			if !ok {
				panic(fmt.Sprintf("art: sprite %d row %d: no palette colour for %q", s, y, row[x]))
			}
			img.SetNRGBA(at.X+x, at.Y+y, c)
		}
	}
}

// colour looks a pixel character up in the palette; '.' and ' ' are
// transparent.
func colour(ch byte) (color.NRGBA, bool) {
	if ch == '.' || ch == ' ' {
		return color.NRGBA{}, true
	}
	c, ok := palette[ch]
	return c, ok
}

// glyphW and glyphH are the size of a drawn glyph: the last column and row
// of each assets.GlyphW×assets.GlyphH cell stay blank as spacing.
const glyphW, glyphH = 5, 7

// drawFont paints every glyph of the font table at its assets.GlyphRect.
// A printable character missing from the table is drawn as a box.
func drawFont(img *image.NRGBA) {
	glyphs := make(map[byte][glyphH]string)
	for _, strip := range font {
		for i := 0; i < len(strip.chars); i++ {
			var g [glyphH]string
			for y, row := range strip.rows {
				if len(row) != len(strip.chars)*(glyphW+1)-1 {
					panic(fmt.Sprintf("art: font strip %q row %d is %d wide, want %d glyphs", strip.chars, y, len(row), len(strip.chars)))
				}
				g[y] = row[i*(glyphW+1) : i*(glyphW+1)+glyphW]
			}
			c := strip.chars[i]
			if _, dup := glyphs[c]; dup {
				panic(fmt.Sprintf("art: font draws %q twice", c))
			}
			glyphs[c] = g
		}
	}
	for c := assets.FontFirst; c <= assets.FontLast; c++ {
		g, ok := glyphs[byte(c)]
		if !ok {
			g = box
		}
		at := assets.GlyphRect(byte(c)).Min
		for y, row := range g {
			for x := 0; x < glyphW; x++ {
				switch row[x] {
				case '#':
					img.SetNRGBA(at.X+x, at.Y+y, Ink)
				case '.':
				default:
					panic(fmt.Sprintf("art: glyph %q row %d: want '#' or '.', got %q", byte(c), y, row[x]))
				}
			}
		}
	}
}

// box stands in for a character the font table does not draw.
var box = [glyphH]string{
	"#####",
	"#...#",
	"#...#",
	"#...#",
	"#...#",
	"#...#",
	"#####",
}
