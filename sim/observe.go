package sim

import "encoding/binary"

// LocalView copies and tests a row of nine tiles as eight and one.
var _ = [1]struct{}{}[ViewSize-9]

// ViewSize is the side of the player's local view: Longcraft's 9×9
// square (Crafter's image is 9×9 units, of which the world takes 9×7).
const ViewSize = 9

// Crafter's local view: 9 tiles wide, 7 high (crafter/env.py gives its
// LocalView the grid [view[0], view[1] - item_rows], 9×(9-2) at the
// default view), the player at column 4, row 3.
const CrafterViewWidth, CrafterViewHeight = 9, 7

// Window is the rectangle of tiles centred on the player that a local
// observation covers: HalfW tiles east and west of the player, HalfH
// north and south. Both fit in the ViewSize square.
type Window struct{ HalfW, HalfH int }

// SquareWindow is the ViewSize×ViewSize view; CrafterWindow Crafter's
// 9×7.
func SquareWindow() Window  { return Window{ViewSize / 2, ViewSize / 2} }
func CrafterWindow() Window { return Window{CrafterViewWidth / 2, CrafterViewHeight / 2} }

// Width and Height are the window's sides in tiles.
func (v Window) Width() int  { return 2*v.HalfW + 1 }
func (v Window) Height() int { return 2*v.HalfH + 1 }

// WindowView writes the semantic view of window v (at most ViewSize a
// side) centred on the player into dst (at least Width×Height bytes),
// row-major: LocalView's square, cropped.
func (w *World) WindowView(dst []uint8, v Window) {
	var sq [ViewSize * ViewSize]uint8
	w.LocalView(sq[:])
	x0, y0 := ViewSize/2-v.HalfW, ViewSize/2-v.HalfH
	for y := 0; y < v.Height(); y++ {
		copy(dst[y*v.Width():(y+1)*v.Width()], sq[(y0+y)*ViewSize+x0:])
	}
}

// Symbolic observations use one byte per tile, Crafter's semantic
// numbering: 0 outside the map, then the materials by id, then the object
// kinds from the player on (the player is len(Rules.Materials): 13 in
// classic, as in Crafter). An object hides the material under it.
// Rules.SemanticNames names every id; docs/players.md lists them.

// SemanticID returns the symbolic id of object kind k.
func (r *Rules) SemanticID(k ObjectKind) uint8 {
	return uint8(len(r.Materials) + int(k) - int(ObjPlayer))
}

// SemanticNames returns the name of every symbolic id of r, by id: the
// legend agents read beside symbolic views ("outside" for 0).
func (r *Rules) SemanticNames() []string {
	names := make([]string, 0, len(r.Materials)+len(r.Creatures)-int(ObjPlayer))
	names = append(names, "outside")
	for _, m := range r.Materials[1:] {
		names = append(names, m.Name)
	}
	for _, c := range r.Creatures[ObjPlayer:] {
		names = append(names, c.Name)
	}
	return names
}

// SemanticAt returns the symbolic id of tile (x, y).
func (w *World) SemanticAt(x, y int) uint8 {
	if !w.Inside(x, y) {
		return 0
	}
	i := w.index(x, y)
	if j := w.objectAt(i); j >= 0 {
		return w.rules.SemanticID(w.objects[j].Kind)
	}
	return uint8(w.tiles[i])
}

// Observation is everything a symbolic agent sees, in fixed-size fields so
// that filling it allocates nothing.
type Observation struct {
	// View is the ViewSize×ViewSize local view around the player (at its
	// centre), row-major, in semantic ids.
	View         [ViewSize * ViewSize]uint8
	Inventory    [MaxItems]int8 // counts by Item, vitals included
	Achievements AchievementSet
	Daylight     int32 // 1/65536 units
	Facing       Dir
	Sleeping     bool
	X, Y         int // the player's position
	Step         int
}

// Observe fills o with the current observation.
func (w *World) Observe(o *Observation) {
	w.LocalView(o.View[:])
	o.Inventory = w.s.Inventory
	o.Achievements = w.s.Achievements
	o.Daylight = w.Daylight()
	o.Facing = w.s.Facing
	o.Sleeping = w.s.Sleeping
	o.X, o.Y = w.Player()
	o.Step = int(w.s.Step)
}

// LocalView writes the ViewSize×ViewSize semantic view centred on the
// player into dst (at least ViewSize² bytes), row-major. Away from the
// map's edges (almost always) it reads each row of tiles and object slots
// as one slice, without a bounds check per tile: localViewPlain, tile by
// tile through SemanticAt, is the reference it must equal
// (TestLocalViewFastPath) and beat (BenchmarkLocalView).
func (w *World) LocalView(dst []uint8) {
	px, py := w.Player()
	const half = ViewSize / 2
	dst = dst[:ViewSize*ViewSize]
	if px < half || py < half || px+half >= w.width || py+half >= w.height {
		w.localViewPlain(dst, px, py)
		return
	}
	kinds := len(w.rules.Materials) - int(ObjPlayer) // SemanticID's offset
	for dy := 0; dy < ViewSize; dy++ {
		i := (py-half+dy)*w.width + px - half
		// A row's tiles are copied as they are (a tile's semantic id is
		// its material), eight in one load and store (the compiler merges
		// the byte loads), and its nine slots tested in two loads, since
		// most rows hold no object.
		t, slots := (*[ViewSize]Material)(w.tiles[i:i+ViewSize]), w.objAt[i:i+ViewSize]
		row := dst[dy*ViewSize : (dy+1)*ViewSize]
		binary.LittleEndian.PutUint64(row, materials8((*[8]Material)(t[:8])))
		row[8] = uint8(t[8])
		if binary.LittleEndian.Uint64(slots)|uint64(slots[8]) == 0 {
			continue
		}
		for dx, j := range slots {
			if j != 0 {
				row[dx] = uint8(kinds + int(w.objects[w.objectAt(i+dx)].Kind))
			}
		}
	}
}

// localViewPlain is LocalView tile by tile: the reference, and the path
// near the edges, where tiles outside the map read 0.
func (w *World) localViewPlain(dst []uint8, px, py int) {
	const half = ViewSize / 2
	for dy := 0; dy < ViewSize; dy++ {
		row := dst[dy*ViewSize : (dy+1)*ViewSize]
		for dx := range row {
			row[dx] = w.SemanticAt(px-half+dx, py-half+dy)
		}
	}
}

// SemanticMap writes the whole map in semantic ids into dst (at least
// Width×Height bytes), row-major.
func (w *World) SemanticMap(dst []uint8) {
	dst = dst[:w.width*w.height]
	for i, m := range w.tiles {
		dst[i] = uint8(m)
	}
	for _, o := range w.objects[:w.s.NumObjects] {
		if o.Kind != ObjNone {
			dst[w.index(int(o.X), int(o.Y))] = w.rules.SemanticID(o.Kind)
		}
	}
}
