package render

import "github.com/longcraft/longcraft/assets"

// Format is a frame's pixel layout.
type Format int

// Formats: 3 bytes per pixel for models and files, 4 for browser canvases
// (alpha always 255).
const (
	RGB  Format = 3
	RGBA Format = 4
)

func (f Format) valid() bool { return f == RGB || f == RGBA }

// span is a run of opaque pixels on one row of a sprite, [x0, x1).
type span struct{ y, x0, x1 uint16 }

// tileSet holds sprites scaled to one unit and converted to one format,
// once per variant, so that drawing a tile is copying its rows.
type tileSet struct {
	unit, bpp int
	slots     int
	size      int      // bytes of one tile: unit·unit·bpp
	pix       []byte   // [variant][slot][size]
	spans     [][]span // per slot: its opaque runs, the same in every variant
	opaque    []bool   // per slot: no transparent pixel, so rows copy whole
}

// newTileSet scales sprites to unit and converts them for each of the
// variants; tint maps a colour through a variant.
func newTileSet(a *Atlas, sprites []assets.Sprite, unit int, f Format, variants int,
	tint func(v, r, g, b int) (int, int, int)) *tileSet {
	bpp := int(f)
	t := &tileSet{unit: unit, bpp: bpp, slots: len(sprites), size: unit * unit * bpp}
	t.pix = make([]byte, variants*t.slots*t.size)
	t.spans = make([][]span, t.slots)
	t.opaque = make([]bool, t.slots)
	for slot, s := range sprites {
		px := a.scaled(s, unit)
		t.opaque[slot] = true
		for y := 0; y < unit; y++ {
			for x := 0; x < unit; {
				if px[y*unit+x].a == 0 {
					t.opaque[slot] = false
					x++
					continue
				}
				x0 := x
				for x < unit && px[y*unit+x].a != 0 {
					x++
				}
				t.spans[slot] = append(t.spans[slot], span{uint16(y), uint16(x0), uint16(x)})
			}
		}
		for v := 0; v < variants; v++ {
			dst := t.tile(v, slot)
			for i, p := range px {
				r, g, b := tint(v, int(p.r), int(p.g), int(p.b))
				o := i * bpp
				dst[o], dst[o+1], dst[o+2] = uint8(r), uint8(g), uint8(b)
				if bpp == 4 {
					dst[o+3] = 255
				}
			}
		}
	}
	return t
}

// tile returns the pixels of slot in variant v.
func (t *tileSet) tile(v, slot int) []byte {
	o := (v*t.slots + slot) * t.size
	return t.pix[o : o+t.size : o+t.size]
}

// draw copies slot (variant v) onto dst, whose rows are stride bytes
// apart, with its top-left corner at byte offset at: whole rows for opaque
// sprites, the opaque runs for the others.
func (t *tileSet) draw(dst []byte, stride, at, v, slot int) {
	src := t.tile(v, slot)
	row := t.unit * t.bpp
	if t.opaque[slot] {
		if wordRows && row > 16 && row <= 32 { // 64 px agent views: see copyWords4
			for range t.unit {
				copyWords4(dst[at:at+row], src[:row])
				at += stride
				src = src[row:]
			}
			return
		}
		for y := 0; y < t.unit; y++ {
			copy(dst[at+y*stride:at+y*stride+row], src[y*row:(y+1)*row])
		}
		return
	}
	for _, s := range t.spans[slot] {
		d := at + int(s.y)*stride + int(s.x0)*t.bpp
		o := int(s.y)*row + int(s.x0)*t.bpp
		n := int(s.x1-s.x0) * t.bpp
		copy(dst[d:d+n], src[o:o+n])
	}
}

// fill sets a w×h pixel rectangle at byte offset at to one colour.
func fill(dst []byte, stride, at, w, h, bpp int, r, g, b uint8) {
	for y := 0; y < h; y++ {
		row := dst[at+y*stride : at+y*stride+w*bpp]
		for x := 0; x < len(row); x += bpp {
			row[x], row[x+1], row[x+2] = r, g, b
			if bpp == 4 {
				row[x+3] = 255
			}
		}
	}
}
