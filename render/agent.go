package render

import (
	"fmt"

	"github.com/longcraft/longcraft/assets"
	"github.com/longcraft/longcraft/sim"
)

// The agent view's grid, as Crafter's: 9 tiles wide, 7 rows of world above
// 2 rows of inventory.
const (
	viewCols  = 9
	viewRows  = 7
	itemRows  = 2
	itemSlots = viewCols * itemRows
	maxCount  = 9 // counts above are drawn as 9
)

// drawn is the ruleset whose materials and items the tile sets hold:
// extended, whose tables begin with classic's (TestRulesetsShareTheirPrefix),
// so one set draws every ruleset.
func drawn() *sim.Rules { return sim.Extended() }

// itemSprites lists the inventory icons in sim.Item order, as the drawn
// rules' rows name them.
func itemSprites() []assets.Sprite {
	var s []assets.Sprite
	for _, it := range drawn().Items {
		s = append(s, spriteNamed(it.Sprite))
	}
	return s
}

// spriteNamed returns the sprite a rules row names, or the fallback
// (TestEveryMaterialAndItemHasASprite keeps every row named).
func spriteNamed(name string) assets.Sprite {
	if sp, ok := assets.SpriteByName(name); ok {
		return sp
	}
	return assets.Unknown
}

// AgentView renders Crafter-style observations of one square size: the
// 9×7 tiles around the player above the inventory, 9 tiles wide, centred
// in the frame. Build one per size and format (building scales every
// sprite for every daylight level); Render then allocates nothing. An
// AgentView is read-only while rendering and may be shared by goroutines.
type AgentView struct {
	size, unit, border int
	format             Format
	atlas              *Atlas
	world              *tileSet // variant = level·2 + sleeping
	layout             *worldLayout
	slots              *tileSet // inventory slots: item·(maxCount+1) + count, on black
	noise              nightNoise
}

// NewAgentView prepares a renderer of size×size frames (size ≥ 9).
func NewAgentView(a *Atlas, size int, f Format) (*AgentView, error) {
	if size < viewCols || size > 4096 {
		return nil, fmt.Errorf("agent view: size %d outside 9 to 4096", size)
	}
	if !f.valid() {
		return nil, fmt.Errorf("agent view: unknown format %d", f)
	}
	unit := size / viewCols
	v := &AgentView{size: size, unit: unit, border: (size - unit*viewCols) / 2, format: f, atlas: a,
		layout: newWorldLayout()}
	v.world = newTileSet(a, v.layout.sprites, unit, f, 2*Levels, func(vr, r, g, b int) (int, int, int) {
		return variant(r, g, b, vr/2, vr%2 == 1)
	})
	v.layout.groundOpaque(v.world)
	v.slots = newSlotSet(a, unit, f)
	v.noise = newNightNoise(unit, viewCols, viewRows, f, size*int(f))
	return v, nil
}

// newSlotSet draws every inventory slot image: each item's icon on black
// with its count (0: an empty slot) as a digit at the lower right.
func newSlotSet(a *Atlas, unit int, f Format) *tileSet {
	icons := itemSprites()
	items := len(icons)
	du := max(unit/2, 1)
	digits := make([][]pixel, 10)
	for d := range digits {
		digits[d] = a.scaled(assets.Digit0+assets.Sprite(d), du)
	}
	sprites := make([]assets.Sprite, 0, items*(maxCount+1))
	for it := 0; it < items; it++ {
		for n := 0; n <= maxCount; n++ {
			sprites = append(sprites, icons[it])
		}
	}
	t := newTileSet(a, sprites, unit, f, 1, func(_, r, g, b int) (int, int, int) { return r, g, b })
	// Composite on black: transparent pixels became black in newTileSet
	// only where the sprite was transparent (zero colour); make every slot
	// opaque, blank the empty ones and stamp the digits.
	bpp := int(f)
	for slot := range t.slots {
		tile := t.tile(0, slot)
		icon := a.scaled(sprites[slot], unit)
		n := slot % (maxCount + 1)
		for i, p := range icon {
			if p.a == 0 || n == 0 {
				tile[i*bpp], tile[i*bpp+1], tile[i*bpp+2] = 0, 0, 0
			}
		}
		if n > 0 {
			for i, p := range digits[n] {
				if p.a == 0 {
					continue
				}
				x, y := unit-du+i%du, unit-du+i/du
				o := (y*unit + x) * bpp
				tile[o], tile[o+1], tile[o+2] = p.r, p.g, p.b
			}
		}
		t.opaque[slot] = true
	}
	return t
}

// Size returns the frame side in pixels.
func (v *AgentView) Size() int { return v.size }

// Format returns the frame's pixel layout.
func (v *AgentView) Format() Format { return v.format }

// FrameBytes returns the size of a frame buffer.
func (v *AgentView) FrameBytes() int { return v.size * v.size * int(v.format) }

// Render draws the observation of w into dst, which must hold FrameBytes.
func (v *AgentView) Render(w *sim.World, dst []byte) {
	dst = dst[:v.FrameBytes()]
	v.clearBorder(dst, int(v.format)*v.size)
	v.RenderOver(w, dst)
}

// RenderOver is Render onto a frame this view drew before (by Render or
// RenderOver), or onto a zeroed RGB buffer (whose border is Render's
// black already): it draws the 9×9 grid of tiles and leaves the border
// around it (the pixels a frame size not divisible by 9 leaves over) as
// it is, since nothing else writes there. A caller that reuses one frame
// buffer for many worlds saves the border's fill, which at 64 px (a
// column and a row of single pixels) cost a tenth of the frame.
func (v *AgentView) RenderOver(w *sim.World, dst []byte) {
	bpp := int(v.format)
	stride := v.size * bpp
	dst = dst[:v.FrameBytes()]
	daylight := w.Daylight()
	sleeping := w.Sleeping()
	level := levelOf(daylight)
	variant := level * 2
	if sleeping {
		variant++
	}
	origin := v.border*stride + v.border*bpp
	v.drawWorld(w, dst, stride, origin, variant)
	v.noise.apply(dst[origin:], stride, bpp, level, noisePattern(w), variant)
	// The inventory strip. As in Crafter, each item has its own slot, in
	// item order, empty while the count is 0; a ruleset with more items
	// than slots packs the held items instead, in item order.
	items := min(len(w.Rules().Items), v.slots.slots/(maxCount+1))
	packed := items > itemSlots
	top := origin + viewRows*v.unit*stride
	it := 0
	for i := 0; i < itemSlots; i++ {
		n := 0
		if packed {
			for it < items && w.Inventory(sim.Item(it)) == 0 {
				it++
			}
		} else {
			it = i
		}
		if it < items {
			n = min(w.Inventory(sim.Item(it)), maxCount)
		}
		at := top + (i/viewCols)*v.unit*stride + (i%viewCols)*v.unit*bpp
		slot := 0 // an empty slot: any item's count-0 image is black
		if n > 0 {
			slot = it*(maxCount+1) + n
		}
		v.slots.draw(dst, stride, at, 0, slot)
		it++
	}
}

// drawWorld draws the 9×7 tiles around the player (its tile the centre)
// and the objects on them, in variant, into the grid at byte offset
// origin of dst.
func (v *AgentView) drawWorld(w *sim.World, dst []byte, stride, origin, variant int) {
	bpp := int(v.format)
	px, py := w.Player()
	x0, y0 := px-viewCols/2, py-viewRows/2
	for ty := 0; ty < viewRows; ty++ {
		for tx := 0; tx < viewCols; tx++ {
			at := origin + ty*v.unit*stride + tx*v.unit*bpp
			v.world.draw(dst, stride, at, variant, v.layout.ground(w.Material(x0+tx, y0+ty)))
		}
	}
	// Then the objects over their tiles. A sprite stays inside its tile,
	// so drawing every ground tile first gives the same pixels as tile by
	// tile (drawWorldPlain in the tests); and one pass over the objects
	// (about 45 in a classic world, a few of them in view) costs less
	// than looking up each of the 63 tiles. Removed objects (Kind ObjNone
	// until their step ends) hold no tile.
	r, facing, sleeping := w.Rules(), w.Facing(), w.Sleeping()
	for _, o := range w.Objects() {
		tx, ty := int(o.X)-x0, int(o.Y)-y0
		if uint(tx) >= viewCols || uint(ty) >= viewRows || o.Kind == sim.ObjNone {
			continue
		}
		at := origin + ty*v.unit*stride + tx*v.unit*bpp
		v.world.draw(dst, stride, at, variant, v.layout.object(r, o, facing, sleeping))
	}
}

// clearBorder blacks out the frame outside the 9×9 grid of tiles.
func (v *AgentView) clearBorder(dst []byte, stride int) {
	bpp := int(v.format)
	grid := v.unit * viewCols
	if grid == v.size {
		return
	}
	fill(dst, stride, 0, v.size, v.border, bpp, 0, 0, 0)
	bottom := v.border + grid
	fill(dst, stride, bottom*stride, v.size, v.size-bottom, bpp, 0, 0, 0)
	fill(dst, stride, v.border*stride, v.border, grid, bpp, 0, 0, 0)
	fill(dst, stride, v.border*stride+bottom*bpp, v.size-bottom, grid, bpp, 0, 0, 0)
}
