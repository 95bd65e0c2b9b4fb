package sim

import "math/bits"

// updatePlayer applies the player's action and its vitals, in Crafter's
// order: wake or stay asleep, act, hunger/thirst/fatigue, recovery, clamp
// the inventory, wake if hurt.
func (w *World) updatePlayer(a Action, out *Outcome) {
	s := &w.s
	r := w.rules
	kind := ActionNoop
	var info *ActionInfo
	if int(a) < len(r.Actions) {
		info = &r.Actions[a]
		kind = info.Kind
	}
	if s.Sleeping {
		if s.Inventory[ItemEnergy] < r.Items[ItemEnergy].Max {
			kind = ActionSleep
		} else {
			s.Sleeping = false
			w.unlock(r.Events.WakeUp, out)
			out.Events |= EventWoke
		}
	}
	switch kind {
	case ActionMove:
		w.movePlayer(info.Dir, out)
	case ActionDo:
		tx, ty := w.Target()
		if j := w.objectIndex(tx, ty); j >= 0 {
			w.doObject(j, out)
		} else {
			w.doMaterial(tx, ty, out)
		}
	case ActionSleep:
		if s.Inventory[ItemEnergy] < r.Items[ItemEnergy].Max {
			s.Sleeping = true
			out.Kind = OutSlept
		} else {
			out.Reason = ReasonNotTired
		}
	case ActionPlace:
		w.place(&r.Place[info.Recipe], out)
	case ActionMake:
		w.make(&r.Make[info.Recipe], out)
	}
	w.updateVitals()
	// Clamp what may have left its bounds: the vitals (which creatures
	// change too) and the items this update touched.
	// The vitals are named, so their clamps are written out: a loop over
	// the four kept them in memory and tested each bound with a branch.
	inv, items := &s.Inventory, r.Items[:ItemEnergy+1]
	inv[ItemHealth] = min(max(inv[ItemHealth], 0), items[ItemHealth].Max)
	inv[ItemFood] = min(max(inv[ItemFood], 0), items[ItemFood].Max)
	inv[ItemDrink] = min(max(inv[ItemDrink], 0), items[ItemDrink].Max)
	inv[ItemEnergy] = min(max(inv[ItemEnergy], 0), items[ItemEnergy].Max)
	for d := w.touched &^ vitals; d != 0; d &= d - 1 {
		it := bits.TrailingZeros64(uint64(d))
		s.Inventory[it] = min(max(s.Inventory[it], 0), r.Items[it].Max)
	}
	w.touched = 0
	if h := s.Inventory[ItemHealth]; h < s.LastHealth && s.Sleeping {
		s.Sleeping = false
		out.Events |= EventWokeHurt
	}
	s.LastHealth = s.Inventory[ItemHealth]
}

// updateVitals advances the hidden hunger, thirst, fatigue and recovery
// counters. Hunger, thirst and recovery count in halves.
func (w *World) updateVitals() {
	s := &w.s
	v := &w.rules.Vitals
	inv := &s.Inventory
	rate := int16(2)
	if s.Sleeping {
		rate = 1
	}
	s.Hunger += rate
	if s.Hunger > v.HungerLimit {
		s.Hunger = 0
		inv[ItemFood]--
	}
	s.Thirst += rate
	if s.Thirst > v.ThirstLimit {
		s.Thirst = 0
		inv[ItemDrink]--
	}
	if s.Sleeping {
		s.Fatigue = min(s.Fatigue-1, 0)
	} else {
		s.Fatigue++
	}
	if s.Fatigue < -v.RestLimit {
		s.Fatigue = 0
		inv[ItemEnergy]++
	}
	if s.Fatigue > v.FatigueLimit {
		s.Fatigue = 0
		inv[ItemEnergy]--
	}
	// rate is 2 awake and 1 asleep; recovery runs the other way round.
	if inv[ItemFood] > 0 && inv[ItemDrink] > 0 && (inv[ItemEnergy] > 0 || s.Sleeping) {
		s.Recover += 6 - 2*rate // +1 per step (2 halves), +2 asleep (4 halves)
	} else {
		s.Recover -= rate // -1 per step (2 halves), -0.5 asleep (1 half)
	}
	if s.Recover > v.RecoverLimit {
		s.Recover = 0
		inv[ItemHealth]++
	}
	if s.Recover < -v.DegenLimit {
		s.Recover = 0
		inv[ItemHealth]--
	}
}

// movePlayer turns the player and moves it if the tile ahead is free.
func (w *World) movePlayer(d Dir, out *Outcome) {
	w.s.Facing = d
	tx, ty := w.Target()
	m := w.Material(tx, ty)
	out.Material = m
	switch {
	case w.objectIndex(tx, ty) >= 0:
		out.Kind, out.Reason = OutBlocked, ReasonOccupied
		o, _ := w.ObjectAt(tx, ty)
		out.Object = o.Kind
	case m == MatNone || !(w.rules.Materials[m].Walkable || w.rules.Materials[m].Deadly):
		out.Kind, out.Reason = OutBlocked, ReasonInvalidTarget
	default:
		w.moveObject(0, tx, ty)
		out.Kind = OutMoved
		if w.rules.Materials[m].Deadly {
			w.s.Inventory[ItemHealth] = 0
		}
	}
}

// doObject interacts with the object j the player faces, as its row's
// Interact says.
func (w *World) doObject(j int, out *Outcome) {
	r := w.rules
	o := &w.objects[j]
	out.Object = o.Kind
	c := r.Kind(o.Kind)
	switch c.Interact {
	case InteractHarvest:
		if o.Grown <= c.Ripe {
			out.Reason = ReasonNotRipe
			return
		}
		o.Grown = 0
		w.give(ItemFood, c.Food)
		w.unlockKind(o.Kind, out)
		out.Kind, out.Item, out.Count = OutAte, ItemFood, c.Food
	case InteractAttack:
		damage := r.BareHand
		for _, wp := range r.Weapons {
			if w.s.Inventory[wp.Item] > 0 {
				damage = max(damage, wp.Damage)
			}
		}
		o.Health -= damage
		out.Kind, out.Damage = OutAttacked, damage
		if o.Health > 0 {
			return
		}
		out.Defeated = true
		if c.Food > 0 {
			w.give(ItemFood, c.Food)
			w.s.Hunger = 0
			out.Kind, out.Item, out.Count = OutAte, ItemFood, c.Food
		}
		w.unlockKind(o.Kind, out)
	default: // arrows cannot be caught
		out.Reason = ReasonInvalidTarget
	}
}

// unlockKind unlocks the achievement of defeating or eating kind k, if it
// has one.
func (w *World) unlockKind(k ObjectKind, out *Outcome) {
	if a, ok := w.rules.KindAchievement(k); ok {
		w.unlock(a, out)
	}
}

// doMaterial collects from the faced tile.
func (w *World) doMaterial(x, y int, out *Outcome) {
	s := &w.s
	m := w.Material(x, y)
	out.Material = m
	c := w.rules.CollectRuleOf(m)
	if c == nil {
		out.Reason = ReasonInvalidTarget
		return
	}
	if out.Missing = w.lacking(c.Require); out.Missing != 0 {
		out.Reason = ReasonMissingTool
		return
	}
	if c.Light && !w.lit() {
		out.Reason = ReasonNeedsLight
		return
	}
	w.setMaterial(x, y, c.Leaves)
	it := c.Receive.Item
	out.Item = it
	if c.Chance < one && !s.RNG.Chance(c.Chance) {
		out.Reason = ReasonNoLuck
		return
	}
	out.Kind, out.Count = OutCollected, c.Receive.Amount
	if it == ItemDrink {
		out.Kind = OutDrank
	}
	if s.Inventory[it] >= w.rules.Items[it].Max && !w.rules.Items[it].Vital {
		out.Reason, out.Count = ReasonInventoryFull, 0
	}
	w.give(it, c.Receive.Amount)
	switch c.Resets {
	case CounterThirst:
		s.Thirst = 0
	case CounterHunger:
		s.Hunger = 0
	}
	w.unlock(c.Achievement, out)
}

// lit reports whether the player has light: a light item held, or a
// light material within the light radius.
func (w *World) lit() bool {
	r := w.rules
	if r.LightItem != ItemHealth && w.s.Inventory[r.LightItem] > 0 {
		return true
	}
	if r.LightMaterial == MatNone {
		return false
	}
	px, py := w.Player()
	for y := py - r.LightRadius; y <= py+r.LightRadius; y++ {
		for x := px - r.LightRadius; x <= px+r.LightRadius; x++ {
			if w.Material(x, y) == r.LightMaterial {
				return true
			}
		}
	}
	return false
}

// vitals are the items every player update clamps.
const vitals = ItemSet(1<<ItemHealth | 1<<ItemFood | 1<<ItemDrink | 1<<ItemEnergy)

// give adds n of an item (n may be negative), to be clamped at the end of
// the player's update as Crafter does.
func (w *World) give(it Item, n int8) {
	w.s.Inventory[it] += n
	w.touched |= 1 << it
}

// lacking returns the items of need that the inventory holds too few of.
func (w *World) lacking(need []ItemAmount) ItemSet {
	var missing ItemSet
	for _, n := range need {
		if w.s.Inventory[n.Item] < n.Amount {
			missing |= 1 << n.Item
		}
	}
	return missing
}

// consume takes the items of uses from the inventory.
func (w *World) consume(uses []ItemAmount) {
	for _, u := range uses {
		w.give(u.Item, -u.Amount)
	}
}

// nearbyMaterials returns the materials of the 3×3 square around the
// player (MatNone for tiles off the map). Away from the edges it reads
// the three rows directly; nearbyMaterialsPlain, tile by tile, is the
// reference.
func (w *World) nearbyMaterials() MaterialSet {
	px, py := w.Player()
	if px < 1 || py < 1 || px+1 >= w.width || py+1 >= w.height {
		return w.nearbyMaterialsPlain()
	}
	var near MaterialSet
	for i := (py-1)*w.width + px - 1; i <= (py+1)*w.width+px-1; i += w.width {
		row := w.tiles[i : i+3 : i+3]
		near |= 1<<(row[0]&63) | 1<<(row[1]&63) | 1<<(row[2]&63)
	}
	return near
}

func (w *World) nearbyMaterialsPlain() MaterialSet {
	px, py := w.Player()
	var near MaterialSet
	for y := py - 1; y <= py+1; y++ {
		for x := px - 1; x <= px+1; x++ {
			near |= 1 << w.Material(x, y)
		}
	}
	return near
}

// place puts a material or object on the faced tile.
func (w *World) place(p *PlaceRule, out *Outcome) {
	tx, ty := w.Target()
	m := w.Material(tx, ty)
	out.Material, out.Object = m, p.Object
	if len(p.Uses) > 0 {
		out.Item = p.Uses[0].Item
	}
	if j := w.objectIndex(tx, ty); j >= 0 {
		out.Reason, out.Object = ReasonOccupied, w.objects[j].Kind
		return
	}
	if !p.Where.Has(m) || m == MatNone {
		out.Reason = ReasonInvalidTarget
		return
	}
	if out.Missing = w.lacking(p.Uses); out.Missing != 0 {
		out.Reason = ReasonMissingMaterial
		return
	}
	if p.Object != ObjNone {
		if !w.addObject(w.newCreature(p.Object, tx, ty)) {
			out.Reason = ReasonWorldFull
			return
		}
	} else {
		w.setMaterial(tx, ty, p.Material)
		out.Material = p.Material
	}
	w.consume(p.Uses)
	out.Kind = OutPlaced
	w.unlock(p.Achievement, out)
}

// make crafts with the stations in the 3×3 square around the player.
func (w *World) make(mk *MakeRule, out *Outcome) {
	near := w.nearbyMaterials()
	for _, st := range mk.Nearby {
		if !near.Has(st) {
			out.MissingNearby |= 1 << st
		}
	}
	out.Missing = w.lacking(mk.Uses)
	out.Item = mk.Gives.Item
	switch {
	case out.MissingNearby != 0:
		out.Reason = ReasonNeedsNearby
		return
	case out.Missing != 0:
		out.Reason = ReasonMissingMaterial
		return
	}
	it := mk.Gives.Item
	out.Kind, out.Count = OutMade, mk.Gives.Amount
	if w.s.Inventory[it] >= w.rules.Items[it].Max {
		out.Reason, out.Count = ReasonInventoryFull, 0
	}
	w.consume(mk.Uses)
	w.give(it, mk.Gives.Amount)
	w.unlock(mk.Achievement, out)
}
