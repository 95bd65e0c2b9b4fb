package sim

import (
	"fmt"
	"sort"
)

// maxBalanceRules bounds the balance rules of a ruleset: chunkCounts keeps
// a count of each in a fixed array, and world generation one in each lane
// of a packed word (see tileInfo).
const maxBalanceRules = 4

// balanceRule is a row's balance rule with the row's kind. It points at
// the row's rule, so that an edit to a compiled table's balance numbers
// takes effect as it did when the rules were a list.
type balanceRule struct {
	*BalanceRule
	kind ObjectKind
}

// glyphObject is what an object character of the ASCII map stands for:
// kind and the index of the glyph in its row (a facing, ripeness or
// label); kind ObjNone when the character is no object.
type glyphObject struct {
	kind ObjectKind
	look int8
}

// compileCreatures checks the object rows and builds the lookup arrays
// the simulation reads by kind.
func (r *Rules) compileCreatures() error {
	cs := r.Creatures
	switch {
	case len(cs) <= int(ObjPlayer):
		return fmt.Errorf("rules %s: %d object kinds; rows for none and the player come first", r.Name, len(cs))
	case len(cs) > 256 || len(r.Materials)+len(cs)-int(ObjPlayer) > 256:
		return fmt.Errorf("rules %s: %d object kinds and %d materials do not fit the byte of a symbolic id", r.Name, len(cs), len(r.Materials))
	case cs[ObjNone].Update != nil || cs[ObjPlayer].Update != nil:
		// Removed objects keep their place until the step ends, and the
		// player has its own update.
		return fmt.Errorf("rules %s: the rows of none and the player must have no update", r.Name)
	case cs[ObjPlayer].Looks != LooksPlayer || cs[ObjPlayer].Glyphs != "@":
		// ParseASCII, which knows no rules, counts the players by '@'.
		return fmt.Errorf("rules %s: the player's row must look like a player and be drawn '@' in ASCII maps", r.Name)
	}
	r.update = [256]func(*World, int){}
	r.hostile, r.tramples, r.missiles = KindSet{}, KindSet{}, KindSet{}
	r.starts = [numStartPlaces]ObjectKind{}
	r.glyphs = [256]glyphObject{}
	r.balance = r.balance[:0]
	for k := range r.balanceOf {
		r.balanceOf[k] = -1
	}
	names := make(map[string]bool, len(cs))
	for i := range cs {
		c, k := &cs[i], ObjectKind(i)
		if c.Name == "" || names[c.Name] {
			return fmt.Errorf("rules %s: object kind %d: empty or repeated name %q", r.Name, i, c.Name)
		}
		names[c.Name] = true
		if err := r.compileKind(k, c); err != nil {
			return fmt.Errorf("rules %s: object %s: %w", r.Name, c.Name, err)
		}
	}
	sort.SliceStable(r.balance, func(a, b int) bool { return r.balance[a].Order < r.balance[b].Order })
	for i, b := range r.balance {
		r.balanceOf[b.kind] = int8(i)
	}
	return nil
}

// compileKind checks row c of kind k and adds it to the lookup arrays.
func (r *Rules) compileKind(k ObjectKind, c *CreatureInfo) error {
	glyphs, sprites, ok := c.Looks.counts()
	switch {
	case !ok:
		return fmt.Errorf("unknown looks %d", c.Looks)
	case k == ObjNone:
		// A removed object: it has no look.
	case len(c.Glyphs) < glyphs || (c.Looks != LooksLabel && len(c.Glyphs) != glyphs) || len(c.Sprites) != sprites:
		return fmt.Errorf("%d glyphs and %d sprites, its looks take %d and %d", len(c.Glyphs), len(c.Sprites), glyphs, sprites)
	case int(c.Ground) >= len(r.Materials) || c.Ground == MatNone:
		return fmt.Errorf("ground material %d unknown", c.Ground)
	case !r.canStand(k, c.Ground):
		return fmt.Errorf("cannot stand on its ground %s", r.Materials[c.Ground].Name)
	}
	for j := 0; j < len(c.Glyphs); j++ {
		g := c.Glyphs[j]
		if _, isMat := r.materialOfGlyph(g); isMat || g <= ' ' || g > '~' || r.glyphs[g].kind != ObjNone {
			return fmt.Errorf("glyph %q is not printable or stands for something else", g)
		}
		r.glyphs[g] = glyphObject{kind: k, look: int8(j)}
	}
	if c.Achievement != "" {
		if _, ok := r.achByName[c.Achievement]; !ok {
			return fmt.Errorf("unknown achievement %q", c.Achievement)
		}
	}
	if c.Interact > InteractHarvest || c.Footing > FootSoil || c.Start >= numStartPlaces {
		return fmt.Errorf("unknown interaction %d, footing %d or start place %d", c.Interact, c.Footing, c.Start)
	}
	if c.Shoot != 0 && c.Missile == ObjNone {
		// shoot would add an object of no kind, which no removal records.
		return fmt.Errorf("shoots (Shoot %d) but has no missile", c.Shoot)
	}
	if c.Missile != ObjNone && (int(c.Missile) >= len(r.Creatures) || r.Creatures[c.Missile].Looks != LooksFacing) {
		// A missile flies the way it faces.
		return fmt.Errorf("missile kind %d is not a kind that faces its way", c.Missile)
	}
	if c.Start != StartNone || c.Balance != nil {
		// World generation and balancing make objects with the row's
		// health and nothing else: a second player (which no update moves
		// and arrows hurt as a creature), an object of no kind (which no
		// removal records, so compaction would not drop it), or one with
		// no facing for a kind that flies the way it faces.
		if k == ObjNone || k == ObjPlayer || c.Looks == LooksFacing {
			return fmt.Errorf("a start place or a balance rule must place a creature that needs no facing")
		}
	}
	if c.Start != StartNone {
		if r.starts[c.Start] != ObjNone {
			return fmt.Errorf("start place %d taken by %s too", c.Start, r.Creatures[r.starts[c.Start]].Name)
		}
		r.starts[c.Start] = k
	}
	if c.Balance != nil {
		if m := c.Balance.Material; m == MatNone || int(m) >= len(r.Materials) {
			// Its chunks would count no tiles of it: the rule would
			// never spawn, silently.
			return fmt.Errorf("balance material %d unknown", m)
		}
		if len(r.balance) == maxBalanceRules {
			return fmt.Errorf("more than %d balance rules", maxBalanceRules)
		}
		r.balance = append(r.balance, balanceRule{c.Balance, k})
	}
	if c.Hostile {
		r.hostile.add(k)
	}
	if c.Missile != ObjNone {
		r.missiles.add(c.Missile)
	}
	if c.Tramples {
		r.tramples.add(k)
	}
	r.update[k] = c.Update
	return nil
}

// canStand reports whether an object of kind k may occupy material m.
func (r *Rules) canStand(k ObjectKind, m Material) bool {
	info := &r.Materials[m]
	c := r.Kind(k)
	switch c.Footing {
	case FootPlayer:
		return info.Walkable || info.Deadly
	case FootFlight:
		return info.ArrowPasses
	case FootSoil:
		return c.Soil.Has(m)
	}
	return info.Walkable
}
