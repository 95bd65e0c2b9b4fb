package sim

import "fmt"

// Scene editing: the setters below let tests, task generators and demos
// build exact situations on top of a generated world. They keep the
// world's derived bookkeeping (object grid, chunk counts) consistent and
// refuse states the simulation never produces.

// SetMaterial changes the material of a tile. It fails outside the map,
// for an unknown material, or when an object would be left on a material
// it cannot stand on.
func (w *World) SetMaterial(x, y int, m Material) error {
	if !w.Inside(x, y) {
		return fmt.Errorf("set material at (%d, %d): outside the %d×%d map", x, y, w.width, w.height)
	}
	if m == MatNone || int(m) >= len(w.rules.Materials) {
		return fmt.Errorf("set material at (%d, %d): unknown material %d", x, y, m)
	}
	if j := w.objectIndex(x, y); j >= 0 && !w.canStand(w.objects[j].Kind, m) {
		return fmt.Errorf("set material at (%d, %d): a %s stands there and cannot stand on %s",
			x, y, w.rules.KindName(w.objects[j].Kind), w.rules.Materials[m].Name)
	}
	w.setMaterial(x, y, m)
	return nil
}

// canStand reports whether an object of kind k may occupy material m, as
// its row's Footing says: the player also stands on deadly tiles (and
// dies), arrows fly over water and lava, plants grow on grass; creatures
// walk where the player does.
func (w *World) canStand(k ObjectKind, m Material) bool { return w.rules.canStand(k, m) }

// AddObject puts a new creature, arrow or plant on a free tile. Zero
// Health means the kind's starting health; an object that looks the way
// it faces (an arrow) needs a Facing, a labelled one (a landmark) a label
// its row has a glyph for.
func (w *World) AddObject(o Object) error {
	x, y := int(o.X), int(o.Y)
	name := w.rules.KindName(o.Kind)
	switch {
	case o.Kind == ObjNone || o.Kind == ObjPlayer || int(o.Kind) >= len(w.rules.Creatures):
		return fmt.Errorf("add object at (%d, %d): kind %s cannot be added", x, y, name)
	case !w.Inside(x, y):
		return fmt.Errorf("add %s at (%d, %d): outside the %d×%d map", name, x, y, w.width, w.height)
	case w.objectIndex(x, y) >= 0:
		return fmt.Errorf("add %s at (%d, %d): tile occupied", name, x, y)
	case !w.canStand(o.Kind, w.tiles[w.index(x, y)]):
		return fmt.Errorf("add %s at (%d, %d): cannot stand on %s", name, x, y, w.rules.Materials[w.tiles[w.index(x, y)]].Name)
	}
	switch c := w.rules.Kind(o.Kind); c.Looks {
	case LooksFacing:
		if o.Facing == DirNone || o.Facing > DirDown {
			return fmt.Errorf("add %s at (%d, %d): no direction", name, x, y)
		}
	case LooksLabel:
		if o.Timer < 0 || int(o.Timer) >= len(c.Glyphs) {
			return fmt.Errorf("add %s at (%d, %d): label %d outside 0 to %d", name, x, y, o.Timer, len(c.Glyphs)-1)
		}
	}
	if o.Health == 0 {
		o.Health = w.newCreature(o.Kind, x, y).Health
	}
	if !w.addObject(o) {
		return fmt.Errorf("add %s at (%d, %d): the world holds its maximum of %d objects", name, x, y, len(w.objects))
	}
	return nil
}

// RemoveObjects removes every object but the player.
func (w *World) RemoveObjects() {
	for i := 1; i < int(w.s.NumObjects); i++ {
		w.removeObject(i)
	}
	w.compact()
}

// MovePlayer puts the player on a free tile it can stand on.
func (w *World) MovePlayer(x, y int) error {
	if !w.Inside(x, y) {
		return fmt.Errorf("move player to (%d, %d): outside the %d×%d map", x, y, w.width, w.height)
	}
	if j := w.objectIndex(x, y); j > 0 {
		return fmt.Errorf("move player to (%d, %d): a %s stands there", x, y, w.rules.KindName(w.objects[j].Kind))
	}
	if m := w.tiles[w.index(x, y)]; !w.canStand(ObjPlayer, m) {
		return fmt.Errorf("move player to (%d, %d): cannot stand on %s", x, y, w.rules.Materials[m].Name)
	}
	w.moveObject(0, x, y)
	return nil
}

// SetFacing turns the player.
func (w *World) SetFacing(d Dir) error {
	if d == DirNone || d > DirDown {
		return fmt.Errorf("set facing: invalid direction %d", d)
	}
	w.s.Facing = d
	return nil
}

// SetInventory sets the count of an item within its bounds. Setting health
// also resets the health the next reward and wake-up compare against.
func (w *World) SetInventory(it Item, n int) error {
	if int(it) >= len(w.rules.Items) {
		return fmt.Errorf("set inventory: unknown item %d", it)
	}
	info := &w.rules.Items[it]
	if n < 0 || n > int(info.Max) {
		return fmt.Errorf("set inventory: %s %d outside 0 to %d", info.Name, n, info.Max)
	}
	w.s.Inventory[it] = int8(n)
	if it == ItemHealth {
		w.s.LastHealth, w.s.RewardHealth = int8(n), int8(n)
	}
	return nil
}

// SetSleeping puts the player to sleep or wakes it, without achievements.
func (w *World) SetSleeping(asleep bool) { w.s.Sleeping = asleep }

// SetStepCount sets the step counter (and so the time of day), below the
// episode's length (2³¹ − 1 steps when the ruleset sets none).
func (w *World) SetStepCount(step int) error {
	if n := int(w.episodeLength()); step < 0 || step >= n {
		return fmt.Errorf("set step count: %d outside 0 to %d", step, n-1)
	}
	w.s.Step = int32(step)
	return nil
}
