package assets_test

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/assets"
	"github.com/longcraft/longcraft/assets/internal/art"
)

func name(s assets.Sprite) string { return assets.SpriteName(s) }

func TestNamesCoverSprites(t *testing.T) {
	require.Len(t, assets.SpriteNames(), int(assets.NumSprites))
	assert.Equal(t, "ItemHealth", name(assets.ItemHealth))
	assert.Equal(t, "Digit0", name(assets.Digit0))
	assert.Equal(t, "Selection", name(assets.Selection))
	assert.Equal(t, "IronIngot", name(assets.IronIngot))
	assert.Equal(t, "Flag", name(assets.Flag))
}

func sheet(t *testing.T) *image.NRGBA {
	t.Helper()
	img, err := assets.Sheet()
	require.NoError(t, err)
	return img
}

// pixels returns a sprite's 16×16 pixels, row by row.
func pixels(img *image.NRGBA, s assets.Sprite) [assets.Cell][assets.Cell]color.NRGBA {
	var p [assets.Cell][assets.Cell]color.NRGBA
	r := s.Rect()
	for y := range assets.Cell {
		for x := range assets.Cell {
			p[y][x] = img.NRGBAAt(r.Min.X+x, r.Min.Y+y)
		}
	}
	return p
}

func opaqueCount(img *image.NRGBA, s assets.Sprite) int {
	n := 0
	for _, row := range pixels(img, s) {
		for _, c := range row {
			if c.A != 0 {
				n++
			}
		}
	}
	return n
}

func spriteRange(from, to assets.Sprite) []assets.Sprite {
	var ss []assets.Sprite
	for s := from; s <= to; s++ {
		ss = append(ss, s)
	}
	return ss
}

func TestSheetDecodesAtDeclaredSize(t *testing.T) {
	img := sheet(t)
	assert.Equal(t, image.Rect(0, 0, assets.SheetWidth, assets.SheetHeight), img.Bounds())
	assert.Equal(t, 256, assets.SheetWidth)
	// The sprites take whole rows of 16; the font's 3 rows of 8 pixels follow.
	rows := (int(assets.NumSprites) + assets.Cols - 1) / assets.Cols
	assert.Equal(t, rows*assets.Cell, assets.FontTop)
	assert.Equal(t, assets.FontTop+3*8, assets.SheetHeight)
	assert.Equal(t, assets.FontTop, (assets.NumSprites - 1).Rect().Max.Y, "the font starts right below the last sprite row")
	// Every sprite and glyph rectangle lies inside the sheet.
	for s := assets.Sprite(0); s < assets.NumSprites; s++ {
		assert.True(t, s.Rect().In(img.Bounds()), name(s))
	}
	for c := assets.FontFirst; c <= assets.FontLast; c++ {
		assert.True(t, assets.GlyphRect(byte(c)).In(img.Bounds()), "glyph %q", rune(c))
	}
}

// TestSheetMatchesSource guards against the committed sheet.png drifting
// from the pictures in internal/art: after editing them, run
// go generate ./assets.
func TestSheetMatchesSource(t *testing.T) {
	embedded, drawn := sheet(t), art.Sheet()
	require.Equal(t, embedded.Bounds(), drawn.Bounds())
	var diffs []string
	for y := range assets.SheetHeight {
		for x := range assets.SheetWidth {
			a, b := embedded.NRGBAAt(x, y), drawn.NRGBAAt(x, y)
			if a.A == 0 && b.A == 0 {
				continue
			}
			if a != b {
				diffs = append(diffs, fmt.Sprintf("(%d,%d) sheet.png %v, source %v", x, y, a, b))
			}
		}
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], fmt.Sprintf("… %d more", len(diffs)-5))
	}
	assert.Empty(t, diffs, "sheet.png is stale: run go generate ./assets")
}

func TestPixelsAreOpaqueOrClear(t *testing.T) {
	img := sheet(t)
	for y := range assets.SheetHeight {
		for x := range assets.SheetWidth {
			if a := img.NRGBAAt(x, y).A; a != 0 && a != 255 {
				t.Fatalf("pixel (%d,%d) has alpha %d; pixel art is opaque or clear", x, y, a)
			}
		}
	}
}

func TestEverySpriteHasInk(t *testing.T) {
	img := sheet(t)
	for s := assets.Sprite(0); s < assets.NumSprites; s++ {
		assert.Greater(t, opaqueCount(img, s), 16, "%s is (nearly) empty", name(s))
	}
}

func TestGroundTilesAreOpaque(t *testing.T) {
	img := sheet(t)
	tiles := append(spriteRange(assets.Water, assets.Furnace), assets.Unknown, assets.Darkness,
		assets.Torch, assets.Crystal, assets.Anvil, assets.Bridge)
	for _, s := range tiles {
		assert.Equal(t, assets.Cell*assets.Cell, opaqueCount(img, s), "%s is drawn as a ground tile and must be fully opaque", name(s))
	}
	for _, row := range pixels(img, assets.Darkness) {
		for _, c := range row {
			assert.Less(t, max(c.R, c.G, c.B), uint8(32), "darkness is near-black")
		}
	}
}

// corners are the four corner pixels of a sprite.
func corners(p [assets.Cell][assets.Cell]color.NRGBA) []color.NRGBA {
	const e = assets.Cell - 1
	return []color.NRGBA{p[0][0], p[0][e], p[e][0], p[e][e]}
}

func TestOverlaySpritesHaveClearBackground(t *testing.T) {
	img := sheet(t)
	// Creatures, arrows, plants and the flag are drawn over a ground tile;
	// items are icons. Their backgrounds are clear: at least a fifth of the
	// cell, corners included.
	overlays := append(spriteRange(assets.PlayerLeft, assets.PlantRipe), spriteRange(assets.ItemHealth, assets.ItemIronSword)...)
	overlays = append(overlays, assets.IronIngot, assets.TorchItem, assets.CrystalItem, assets.Compass, assets.BridgeItem, assets.Flag)
	for _, s := range overlays {
		clear := assets.Cell*assets.Cell - opaqueCount(img, s)
		assert.GreaterOrEqual(t, clear, assets.Cell*assets.Cell/5, "%s", name(s))
		for _, c := range corners(pixels(img, s)) {
			assert.Zero(t, c.A, "%s has an opaque corner", name(s))
		}
	}
}

func TestDigitsAreWhiteOnClear(t *testing.T) {
	img := sheet(t)
	seen := map[[assets.Cell][assets.Cell]color.NRGBA]assets.Sprite{}
	for d := range assets.Sprite(10) {
		s := assets.Digit0 + d
		p := pixels(img, s)
		white := 0
		for _, row := range p {
			for _, c := range row {
				if c.A != 0 && min(c.R, c.G, c.B) > 220 {
					white++
				}
			}
		}
		assert.GreaterOrEqual(t, white, 40, "digit %d has too little white ink to read at half size", d)
		for _, c := range corners(p) {
			assert.Zero(t, c.A, "digit %d has an opaque corner", d)
		}
		if other, dup := seen[p]; dup {
			t.Errorf("digit %d looks the same as %s", d, name(other))
		}
		seen[p] = s
	}
}

func TestSelectionIsAFrame(t *testing.T) {
	p := pixels(sheet(t), assets.Selection)
	const e = assets.Cell - 1
	for y := range assets.Cell {
		for x := range assets.Cell {
			c := p[y][x]
			if x == 0 || y == 0 || x == e || y == e {
				assert.Equal(t, uint8(255), c.A, "frame pixel (%d,%d)", x, y)
				assert.True(t, c.R > 200 && c.G > 200 && c.B < 100, "frame pixel (%d,%d) is not bright yellow: %v", x, y, c)
			} else {
				assert.Zero(t, c.A, "inside pixel (%d,%d)", x, y)
			}
		}
	}
}

func TestGlyphs(t *testing.T) {
	img := sheet(t)
	for c := assets.FontFirst; c <= assets.FontLast; c++ {
		r := assets.GlyphRect(byte(c))
		ink := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				px := img.NRGBAAt(x, y)
				if px.A == 0 {
					continue
				}
				ink++
				assert.Equal(t, color.NRGBA{255, 255, 255, 255}, px, "glyph %q ink is white", rune(c))
				assert.True(t, x < r.Max.X-1 && y < r.Max.Y-1, "glyph %q inks its spacing column or row at (%d,%d)", rune(c), x, y)
			}
		}
		if c == ' ' {
			assert.Zero(t, ink, "space is blank")
		} else {
			assert.Positive(t, ink, "glyph %q has no ink", rune(c))
		}
	}
	// Distinct characters look distinct.
	seen := map[string]byte{}
	for c := assets.FontFirst; c <= assets.FontLast; c++ {
		r := assets.GlyphRect(byte(c))
		key := ""
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if img.NRGBAAt(x, y).A != 0 {
					key += "#"
				} else {
					key += "."
				}
			}
		}
		if other, dup := seen[key]; dup {
			t.Errorf("glyphs %q and %q are identical", rune(other), rune(c))
		}
		seen[key] = byte(c)
	}
}

// rgb is a colour with float channels.
type rgb [3]float64

func (a rgb) dist(b rgb) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// ground is the tile a sprite is usually drawn over, or -1 for none.
func ground(s assets.Sprite) assets.Sprite {
	switch {
	case s >= assets.ArrowLeft && s <= assets.ArrowDown:
		return assets.Path
	case s >= assets.PlayerLeft && s <= assets.PlantRipe, s == assets.Flag:
		return assets.Grass
	}
	return -1
}

// tiny downscales a sprite, composited over its usual ground, to 7×7 by
// area-averaging its opaque pixels, as a vision model looking at a small
// frame sees it, and returns the average colour of the covered cells.
func tiny(img *image.NRGBA, s assets.Sprite) rgb {
	const n = 7
	p := pixels(img, s)
	if g := ground(s); g >= 0 {
		under := pixels(img, g)
		for y := range assets.Cell {
			for x := range assets.Cell {
				if p[y][x].A == 0 {
					p[y][x] = under[y][x]
				}
			}
		}
	}
	var total rgb
	cells := 0
	scale := float64(assets.Cell) / n
	for j := range n {
		for i := range n {
			x0, x1 := float64(i)*scale, float64(i+1)*scale
			y0, y1 := float64(j)*scale, float64(j+1)*scale
			var sum rgb
			weight := 0.0
			for y := int(y0); y < assets.Cell && float64(y) < y1; y++ {
				for x := int(x0); x < assets.Cell && float64(x) < x1; x++ {
					c := p[y][x]
					if c.A == 0 {
						continue
					}
					w := (math.Min(x1, float64(x+1)) - math.Max(x0, float64(x))) *
						(math.Min(y1, float64(y+1)) - math.Max(y0, float64(y)))
					sum[0] += w * float64(c.R)
					sum[1] += w * float64(c.G)
					sum[2] += w * float64(c.B)
					weight += w
				}
			}
			if weight == 0 {
				continue
			}
			for k := range sum {
				total[k] += sum[k] / weight
			}
			cells++
		}
	}
	for k := range total {
		total[k] /= float64(cells)
	}
	return total
}

// TestReadableAtSevenPixels checks that things an agent must tell apart
// still differ clearly in colour when a sprite shrinks to 7×7 pixels.
func TestReadableAtSevenPixels(t *testing.T) {
	const minDist = 40
	img := sheet(t)
	type pair struct{ a, b assets.Sprite }
	pairs := []pair{
		{assets.Coal, assets.Iron}, {assets.Iron, assets.Diamond}, {assets.Coal, assets.Diamond},
		{assets.Coal, assets.Stone}, {assets.Iron, assets.Stone}, {assets.Diamond, assets.Stone},
		{assets.Zombie, assets.Cow},
		{assets.Zombie, assets.PlayerLeft}, {assets.Zombie, assets.PlayerRight}, {assets.Zombie, assets.PlayerUp},
		{assets.Zombie, assets.PlayerDown}, {assets.Zombie, assets.PlayerSleep},
		{assets.Skeleton, assets.Zombie},
		{assets.Grass, assets.Tree}, {assets.Water, assets.Lava}, {assets.Table, assets.Furnace},
		{assets.Sand, assets.Path}, {assets.Plant, assets.PlantRipe},
		// The extended ruleset and the landmark flag.
		{assets.Crystal, assets.Diamond}, {assets.Crystal, assets.Stone},
		{assets.Anvil, assets.Furnace},
		{assets.Bridge, assets.Path}, {assets.Bridge, assets.Water},
		{assets.Torch, assets.Grass},
		{assets.Flag, assets.Cow}, {assets.Flag, assets.Zombie},
		{assets.IronIngot, assets.ItemIron},
	}
	vitals := spriteRange(assets.ItemHealth, assets.ItemEnergy)
	for i, a := range vitals {
		for _, b := range vitals[i+1:] {
			pairs = append(pairs, pair{a, b})
		}
	}
	for _, p := range pairs {
		d := tiny(img, p.a).dist(tiny(img, p.b))
		t.Logf("%-11s vs %-11s %6.1f", name(p.a), name(p.b), d)
		assert.Greater(t, d, float64(minDist), "%s and %s look alike at 7×7", name(p.a), name(p.b))
	}
}

// TestSpriteConstantsMatchTheArt: sprites_gen.go is what the table of
// pictures generates (go generate ./assets rewrites it), so the constants,
// their names and the sheet are one list: the art's.
func TestSpriteConstantsMatchTheArt(t *testing.T) {
	committed, err := os.ReadFile("sprites_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(art.Constants()), string(committed), "assets/sprites_gen.go is stale: go generate ./assets")
	assert.Equal(t, art.Names(), assets.SpriteNames(), "the names stringer wrote are the art's: go generate ./assets")
}
