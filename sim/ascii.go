package sim

import (
	"fmt"
	"strings"
)

// The ASCII map format, for tests, task files and debugging: one line per
// row, one character per tile. A material's character is its Glyph in the
// rules table, an object's one of its kind's Glyphs (Rules.ASCIILegend
// lists a ruleset's, and `longcraft map --help` prints them). Objects
// stand on their row's Ground material. Classic's:
//
//	objects    @ player (on grass)    C cow (grass)    Z zombie (grass)
//	           S skeleton (path)      p plant (grass)  P ripe plant (grass)
//	           < > ^ v arrows flying left, right, up, down (over path)
//	           1 … 9 landmarks A … I (on grass)
//
// Blank lines around the map and trailing spaces are ignored.

// materialOfGlyph returns the material of r whose glyph is c.
func (r *Rules) materialOfGlyph(c byte) (Material, bool) {
	if c == ' ' {
		return MatNone, false
	}
	for m := range r.Materials {
		if r.Materials[m].Glyph == c {
			return Material(m), true
		}
	}
	return MatNone, false
}

// ASCIILegend lists the characters of r's ASCII map ("~ water, . grass,
// …, 1-9 landmarks A-I"), derived from the rules table: the legend agents
// read beside the map under full observability. The objects come in
// legendGroup order, kind by kind within a group: classic's legend read
// "… p plant, P ripe plant, <>^v arrows, 1-9 landmarks A-I" before its
// kinds were rows, and an observation's text must not change with them.
func (r *Rules) ASCIILegend() string {
	var b strings.Builder
	for _, m := range r.Materials[1:] {
		fmt.Fprintf(&b, "%c %s, ", m.Glyph, m.Name)
	}
	first := true
	for group := 0; group < legendGroups; group++ {
		for k := ObjPlayer; int(k) < len(r.Creatures); k++ {
			c := &r.Creatures[k]
			if legendGroup(c.Looks) != group {
				continue
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			g := c.Glyphs
			switch c.Looks {
			case LooksPlayer:
				fmt.Fprintf(&b, "%s you", g)
			case LooksFacing:
				fmt.Fprintf(&b, "%s %ss", g, c.Name)
			case LooksRipe:
				fmt.Fprintf(&b, "%c %s, %c ripe %s", g[0], c.Name, g[1], c.Name)
			case LooksLabel:
				fmt.Fprintf(&b, "%c-%c %ss %s-%s", g[0], g[len(g)-1], c.Name, LandmarkName(0), LandmarkName(len(g)-1))
			default:
				fmt.Fprintf(&b, "%s %s", g, c.Name)
			}
		}
	}
	return b.String()
}

// legendGroups is the number of legendGroup's groups.
const legendGroups = 3

// legendGroup is where a kind of looks l stands in the legend: the player,
// creatures and plants first, then what flies (one glyph a facing), then
// the labelled markers.
func legendGroup(l Looks) int {
	switch l {
	case LooksFacing:
		return 1
	case LooksLabel:
		return 2
	}
	return 0
}

// objectOfGlyph returns the object character c stands for in r's maps:
// its kind (ObjNone if it is no object) and its ground, facing, label
// and ripeness.
func (r *Rules) objectOfGlyph(c byte) (o Object, ground Material) {
	g := r.glyphs[c]
	if g.kind == ObjNone {
		return Object{}, MatNone
	}
	row := &r.Creatures[g.kind]
	o.Kind = g.kind
	switch row.Looks {
	case LooksFacing:
		o.Facing = Dir(1 + g.look)
	case LooksRipe:
		if g.look == 1 {
			o.Grown = row.Ripe + 1
		}
	case LooksLabel:
		o.Timer = g.look
	}
	return o, row.Ground
}

// ParseASCII splits an ASCII map into rows and checks that it is
// rectangular, has no blank tile and holds exactly one player. Which
// characters are materials depends on the rules: LoadASCII checks them.
func ParseASCII(text string) (rows []string, err error) {
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line = strings.TrimRight(line, " \t")
		if line == "" {
			if len(rows) > 0 {
				break // the map ends at its first blank line
			}
			continue
		}
		rows = append(rows, line)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("ascii map: empty")
	}
	players := 0
	for y, row := range rows {
		if len(row) != len(rows[0]) {
			return nil, fmt.Errorf("ascii map: row %d has %d tiles, row 1 has %d", y+1, len(row), len(rows[0]))
		}
		for x := 0; x < len(row); x++ {
			c := row[x]
			if c == '@' { // the player in every ruleset (compileCreatures)
				players++
			}
			if c <= ' ' || c > '~' {
				return nil, fmt.Errorf("ascii map: row %d, column %d: unknown tile %q", y+1, x+1, c)
			}
		}
	}
	if players != 1 {
		return nil, fmt.Errorf("ascii map: %d players, want exactly one '@'", players)
	}
	return rows, nil
}

// LoadASCII replaces the map, the objects and the player's position with
// those of an ASCII map of exactly the world's size. The rest of the state
// (inventory, step, RNG) is kept, except the record of which chunks have
// held an object: the loaded scene starts it afresh, as a new episode
// would, from the player and the objects it places.
func (w *World) LoadASCII(text string) error {
	rows, err := ParseASCII(text)
	if err != nil {
		return err
	}
	if len(rows) != w.height || len(rows[0]) != w.width {
		return fmt.Errorf("ascii map: %d×%d, the world is %d×%d", len(rows[0]), len(rows), w.width, w.height)
	}
	w.RemoveObjects()
	for y, row := range rows {
		for x := 0; x < len(row); x++ {
			m, ok := w.rules.materialOfGlyph(row[x])
			if o, ground := w.rules.objectOfGlyph(row[x]); o.Kind != ObjNone {
				m, ok = ground, true
			}
			if !ok {
				return fmt.Errorf("ascii map: row %d, column %d: %q is not a tile of the %s rules (%s)", y+1, x+1, row[x], w.rules.Name, w.rules.ASCIILegend())
			}
			w.setMaterial(x, y, m)
		}
	}
	// The player first, so that its old tile is free for the others.
	for y, row := range rows {
		if x := strings.IndexByte(row, '@'); x >= 0 {
			if err := w.MovePlayer(x, y); err != nil {
				return fmt.Errorf("ascii map: %w", err)
			}
		}
	}
	for c := range w.chunks {
		w.chunks[c].held = false
	}
	w.dueFresh = 0
	px, py := w.Player()
	w.chunks[w.chunkOf(px, py)].held = true
	for y, row := range rows {
		for x := 0; x < len(row); x++ {
			obj, _ := w.rules.objectOfGlyph(row[x])
			if obj.Kind == ObjNone || obj.Kind == ObjPlayer {
				continue
			}
			obj.X, obj.Y = int16(x), int16(y)
			if err := w.AddObject(obj); err != nil {
				return fmt.Errorf("ascii map: %w", err)
			}
		}
	}
	return nil
}

// ASCII renders the map in the format LoadASCII reads (the player as @,
// whatever it stands on).
func (w *World) ASCII() string {
	var b strings.Builder
	b.Grow((w.width + 1) * w.height)
	for y := 0; y < w.height; y++ {
		for x := 0; x < w.width; x++ {
			b.WriteByte(w.asciiAt(x, y))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (w *World) asciiAt(x, y int) byte {
	if o, ok := w.ObjectAt(x, y); ok {
		if c := w.rules.Kind(o.Kind); c.Glyphs != "" {
			g, _ := w.rules.Look(o, w.s.Facing, w.s.Sleeping)
			if uint(g) < uint(len(c.Glyphs)) {
				return c.Glyphs[g]
			}
		}
	}
	if m := w.Material(x, y); int(m) < len(w.rules.Materials) {
		return w.rules.Materials[m].Glyph
	}
	return '?'
}
