package sim

import (
	"fmt"
	"strings"
)

// The ASCII map format, for tests, task files and debugging: one line per
// row, one character per tile. A material's character is its Glyph in the
// rules table (Rules.ASCIILegend lists a ruleset's, and `longcraft map
// --help` prints them). Objects stand on the material their kind lives on:
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

// objectLegend is the legend of the object characters, which every
// ruleset shares.
const objectLegend = "@ you, C cow, Z zombie, S skeleton, p plant, P ripe plant, <>^v arrows, 1-9 landmarks A-I"

// ASCIILegend lists the characters of r's ASCII map ("~ water, . grass,
// …, 1-9 landmarks A-I"), derived from the rules table: the legend agents
// read beside the map under full observability.
func (r *Rules) ASCIILegend() string {
	var b strings.Builder
	for _, m := range r.Materials[1:] {
		fmt.Fprintf(&b, "%c %s, ", m.Glyph, m.Name)
	}
	b.WriteString(objectLegend)
	return b.String()
}

// asciiObject describes an object character.
type asciiObject struct {
	kind   ObjectKind
	ground Material
	facing Dir
	ripe   bool
	label  int8
}

func parseObjectChar(c byte) (asciiObject, bool) {
	switch c {
	case '@':
		return asciiObject{kind: ObjPlayer, ground: MatGrass}, true
	case 'C':
		return asciiObject{kind: ObjCow, ground: MatGrass}, true
	case 'Z':
		return asciiObject{kind: ObjZombie, ground: MatGrass}, true
	case 'S':
		return asciiObject{kind: ObjSkeleton, ground: MatPath}, true
	case 'p':
		return asciiObject{kind: ObjPlant, ground: MatGrass}, true
	case 'P':
		return asciiObject{kind: ObjPlant, ground: MatGrass, ripe: true}, true
	case '<':
		return asciiObject{kind: ObjArrow, ground: MatPath, facing: DirLeft}, true
	case '>':
		return asciiObject{kind: ObjArrow, ground: MatPath, facing: DirRight}, true
	case '^':
		return asciiObject{kind: ObjArrow, ground: MatPath, facing: DirUp}, true
	case 'v':
		return asciiObject{kind: ObjArrow, ground: MatPath, facing: DirDown}, true
	}
	if c >= '1' && c <= '9' {
		return asciiObject{kind: ObjLandmark, ground: MatGrass, label: int8(c - '1')}, true
	}
	return asciiObject{}, false
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
			if o, ok := parseObjectChar(c); ok {
				if o.kind == ObjPlayer {
					players++
				}
				continue
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
			if o, isObject := parseObjectChar(row[x]); isObject {
				m, ok = o.ground, true
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
			o, ok := parseObjectChar(row[x])
			if !ok || o.kind == ObjPlayer {
				continue
			}
			obj := Object{X: int16(x), Y: int16(y), Kind: o.kind, Facing: o.facing, Timer: o.label}
			if o.ripe {
				obj.Grown = w.rules.Creature.PlantRipe + 1
			}
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
		switch o.Kind {
		case ObjPlayer:
			return '@'
		case ObjCow:
			return 'C'
		case ObjZombie:
			return 'Z'
		case ObjSkeleton:
			return 'S'
		case ObjPlant:
			if o.Grown > w.rules.Creature.PlantRipe {
				return 'P'
			}
			return 'p'
		case ObjArrow:
			return "?<>^v"[o.Facing]
		case ObjLandmark:
			return '1' + byte(o.Timer)
		}
	}
	if m := w.Material(x, y); int(m) < len(w.rules.Materials) {
		return w.rules.Materials[m].Glyph
	}
	return '?'
}
