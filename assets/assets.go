// Package assets holds Longcraft's original art: one 16×16 pixel-art
// sprite sheet, drawn by gen/main.go in this repository (see README.md for
// its licence) and embedded in the binary.
//
// The sheet is a grid of Cols columns of Cell×Cell sprites in Sprite
// order, followed by the font: the printable ASCII characters (32 to 126)
// as GlyphW×GlyphH cells, FontCols to a row.
package assets

import (
	"bytes"
	_ "embed"
	"fmt"
	"image"
	"image/draw"
	"image/png"
)

//go:generate go run ./gen -consts sprites_gen.go
//go:generate go tool stringer -type=Sprite -output=sprite_string.go
//go:generate go run ./gen -out sheet.png

//go:embed sheet.png
var sheetPNG []byte

// Cell is the side of a sprite in pixels.
const Cell = 16

// Cols is the number of sprites per row of the sheet.
const Cols = 16

// Sprite is the index of a sprite in the sheet.
type Sprite int

// The Sprite constants, one per picture in sheet order, are generated into
// sprites_gen.go from assets/internal/art's table by go generate, which
// also draws the sheet and writes their names (sprite_string.go).

// The font: printable ASCII as GlyphW×GlyphH cells (5×7 glyphs with a
// blank column and row), FontCols glyphs to a row, below the sprites.
const (
	GlyphW    = 6
	GlyphH    = 8
	FontCols  = 32
	FontFirst = 32  // ' '
	FontLast  = 126 // '~'
)

// spriteRows is the number of sheet rows holding sprites.
const spriteRows = (int(NumSprites) + Cols - 1) / Cols

// FontTop is the y of the font's first row in the sheet.
const FontTop = spriteRows * Cell

// SheetWidth and SheetHeight are the sheet's size in pixels.
const (
	SheetWidth  = Cols * Cell
	fontRows    = (FontLast - FontFirst + 1 + FontCols - 1) / FontCols
	SheetHeight = FontTop + fontRows*GlyphH
)

// Rect returns the sprite's rectangle in the sheet.
func (s Sprite) Rect() image.Rectangle {
	x, y := int(s)%Cols*Cell, int(s)/Cols*Cell
	return image.Rect(x, y, x+Cell, y+Cell)
}

// GlyphRect returns the rectangle of character c in the sheet; characters
// outside printable ASCII map to '?'.
func GlyphRect(c byte) image.Rectangle {
	if c < FontFirst || c > FontLast {
		c = '?'
	}
	i := int(c - FontFirst)
	x, y := i%FontCols*GlyphW, FontTop+i/FontCols*GlyphH
	return image.Rect(x, y, x+GlyphW, y+GlyphH)
}

// Sheet decodes the embedded sprite sheet. Each call returns a new image.
func Sheet() (*image.NRGBA, error) {
	img, err := png.Decode(bytes.NewReader(sheetPNG))
	if err != nil {
		return nil, fmt.Errorf("decode embedded sprite sheet: %w", err)
	}
	if b := img.Bounds(); b.Dx() != SheetWidth || b.Dy() != SheetHeight {
		return nil, fmt.Errorf("embedded sprite sheet is %d×%d, want %d×%d", b.Dx(), b.Dy(), SheetWidth, SheetHeight)
	}
	out := image.NewNRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, image.Point{}, draw.Src)
	return out, nil
}
