package sim

import "math/bits"

// updateCreatures runs every object other than the player that lies within
// the update radius, in array order. Objects added during the loop (new
// arrows) wait for the next step, as in Crafter.
//
// The objects are taken 64 at a time: first a mask of those in range,
// computed without branches, then the set bits in order. Only about one
// object in eight is in range, at random places in the array, so a test
// and branch per object was mispredicted on most of the ones that act.
// Deciding the mask first is the same as testing each object when its
// turn comes, because no update moves another object (an arrow damages
// what it hits; only the object itself moves) and the player is still.
func (w *World) updateCreatures() {
	n := int(w.s.NumObjects)
	// Distances are below 2·MaxSide, so a radius beyond 65536 means all.
	radius := min(max(w.rules.Creature.UpdateRadius, 0), 1<<16)
	px, py := int(w.objects[0].X), int(w.objects[0].Y)
	for base := 0; base < n; base += 64 {
		near := w.nearMask(base, min(base+64, n), px, py, radius)
		if base == 0 {
			near &^= 1 // the player
		}
		for near != 0 {
			i := base + bits.TrailingZeros64(near)
			near &= near - 1
			if update := w.rules.update[w.objects[i].Kind]; update != nil {
				update(w, i)
			}
		}
	}
}

// nearMask is nearMask(w.objects[base:end]), with the vector kernel where
// the world may use it (radius within [0, 65536], end − base ≤ 64). The
// kernel reads whole groups of eight objects: past end, while the array
// lasts, since the bits of objects past end are dropped.
func (w *World) nearMask(base, end, px, py, radius int) uint64 {
	n := end - base
	if !w.vectorNear || n == 0 {
		return nearMask(w.objects[base:end], px, py, radius)
	}
	groups := min((n+7)/8, (len(w.objects)-base)/8)
	pxy := uint32(uint16(px)) | uint32(uint16(py))<<16
	near := nearMaskAVX2(&w.objects[base], groups, pxy, int32(radius))
	if tail := groups * 8; tail < n { // the array's last few objects
		near |= nearMask(w.objects[base+tail:end], px, py, radius) << tail
	}
	if n < 64 {
		near &= 1<<n - 1
	}
	return near
}

// nearMask returns a mask with bit j set when objs[j] (at most 64) lies
// within L1 distance radius (exclusive) of (px, py).
func nearMask(objs []Object, px, py, radius int) uint64 {
	var near uint64
	for j := range objs {
		o := &objs[j]
		d := abs(int(o.X)-px) + abs(int(o.Y)-py) - radius
		near |= uint64(d>>(bits.UintSize-1)&1) << (j & 63) // 1 when d < 0
	}
	return near
}

// canEnter reports whether a creature may step onto (x, y): a free tile
// of a walkable material (grass, sand and path in classic; skeletons too,
// which spawn in tunnels but leave them).
func (w *World) canEnter(x, y int) bool {
	if !w.Inside(x, y) {
		return false
	}
	i := w.index(x, y)
	return w.objAt[i] == 0 && w.rules.walkable.Has(w.tiles[i])
}

// tryMove moves object i one tile in direction d if it can; it reports
// whether the tile was free. A creature removed at the start of this
// update (it died) stays where it is but still reports a free tile, as
// Crafter's move does once its object is gone: a dead skeleton that
// "fled" ends its update there.
func (w *World) tryMove(i int, d Dir) bool {
	o := &w.objects[i]
	dx, dy := d.Offset()
	x, y := int(o.X)+dx, int(o.Y)+dy
	if !w.canEnter(x, y) {
		return false
	}
	if o.Kind != ObjNone {
		w.moveObject(i, x, y)
	}
	return true
}

// randomDir draws one of the four directions.
func (w *World) randomDir() Dir { return Dir(1 + w.s.RNG.Intn(4)) }

// toward returns the direction from object i toward the player along the
// longer axis (long) or the shorter one; DirNone if already aligned on it.
func (w *World) toward(i int, long bool) Dir {
	o := &w.objects[i]
	dx := int(w.objects[0].X) - int(o.X)
	dy := int(w.objects[0].Y) - int(o.Y)
	horizontal := abs(dx) > abs(dy)
	if !long {
		horizontal = abs(dx) <= abs(dy)
	}
	switch {
	case horizontal && dx < 0:
		return DirLeft
	case horizontal && dx > 0:
		return DirRight
	case horizontal:
		return DirNone
	case dy < 0:
		return DirUp
	case dy > 0:
		return DirDown
	}
	return DirNone
}

// removeIfDead removes object i when its health is gone, at the start of
// its own update. The rest of that update still runs on the tombstone, as
// in Crafter, whose removal only stops an object from moving: a dead cow
// still draws its move, a dead zombie still makes its attack check, a
// dead skeleton may still shoot.
func (w *World) removeIfDead(i int) {
	if w.objects[i].Health <= 0 {
		w.removeObject(i)
	}
}

// updateCow wanders: with probability Move it steps in a random
// direction.
func (w *World) updateCow(i int) {
	move := w.rules.Creatures[w.objects[i].Kind].Move
	w.removeIfDead(i)
	// One draw decides both whether and where the cow moves.
	r := w.s.RNG.Uint64()
	if uint32(r>>48) < move {
		w.tryMove(i, Dir(1+(r&3)))
	}
}

// updateZombie chases the player when within Near (with probability
// Chase, along the longer axis with probability LongAxis; else it steps
// at random) and hits it within Reach once Cooldown steps have passed
// since its last hit, for Damage, or SleepDamage if it sleeps.
func (w *World) updateZombie(i int) {
	o := &w.objects[i]
	// Its row before removeIfDead: a zombie that died loses its kind but
	// still finishes its update.
	c := &w.rules.Creatures[o.Kind]
	w.removeIfDead(i)
	rng := &w.s.RNG
	if w.distance(int(o.X), int(o.Y)) <= c.Near && rng.Chance(c.Chase) {
		w.tryMove(i, w.toward(i, rng.Chance(c.LongAxis)))
	} else {
		w.tryMove(i, w.randomDir())
	}
	if w.distance(int(o.X), int(o.Y)) > c.Reach {
		return
	}
	if o.Timer > 0 {
		o.Timer--
		return
	}
	damage := c.Damage
	if w.s.Sleeping {
		damage = c.SleepDamage
	}
	w.hurtPlayer(damage)
	o.Timer = c.Cooldown
}

// updateSkeleton keeps its distance: within Flee it steps away from the
// player (along the longer axis with probability LongAxis) if it can;
// else within Reach it shoots a Missile with probability Shoot, within
// Near it approaches with probability Chase, and otherwise it steps at
// random with probability Move. It reloads for Cooldown steps.
func (w *World) updateSkeleton(i int) {
	o := &w.objects[i]
	c := &w.rules.Creatures[o.Kind] // before removeIfDead, as a zombie's
	w.removeIfDead(i)
	rng := &w.s.RNG
	o.Timer = max(o.Timer-1, 0)
	dist := w.distance(int(o.X), int(o.Y))
	if dist <= c.Flee && w.tryMove(i, w.toward(i, rng.Chance(c.LongAxis)).Opposite()) {
		return
	}
	switch {
	case dist <= c.Reach && rng.Chance(c.Shoot):
		w.shoot(i, w.toward(i, true), c)
	case dist <= c.Near && rng.Chance(c.Chase):
		w.tryMove(i, w.toward(i, rng.Chance(c.LongAxis)))
	case rng.Chance(c.Move):
		w.tryMove(i, w.randomDir())
	}
}

// shoot fires c's missile from object i in direction d if it has
// reloaded and the next tile is free for the missile.
func (w *World) shoot(i int, d Dir, c *CreatureInfo) {
	o := &w.objects[i]
	if o.Timer > 0 || d == DirNone {
		return
	}
	dx, dy := d.Offset()
	x, y := int(o.X)+dx, int(o.Y)+dy
	if !w.Inside(x, y) || w.objAt[w.index(x, y)] != 0 || !w.rules.canStand(c.Missile, w.tiles[w.index(x, y)]) {
		return
	}
	if w.addObject(Object{X: int16(x), Y: int16(y), Kind: c.Missile, Facing: d, Health: w.rules.Kind(c.Missile).Health}) {
		w.objects[i].Timer = c.Cooldown
	}
}

// damageObject takes health from object j (the player's lives in the
// inventory).
func (w *World) damageObject(j int, damage int8) {
	switch {
	case j == 0:
		w.hurtPlayer(damage)
	case !w.rules.Kind(w.objects[j].Kind).Immune:
		w.objects[j].Health -= damage
	}
}

// updateArrow flies one tile the way it faces; it deals Damage to what it
// hits, and breaks materials that arrows break.
func (w *World) updateArrow(i int) {
	o := &w.objects[i]
	dx, dy := o.Facing.Offset()
	x, y := int(o.X)+dx, int(o.Y)+dy
	if j := w.objectIndex(x, y); j >= 0 {
		w.damageObject(j, w.rules.Creatures[o.Kind].Damage)
		w.removeObject(i)
		return
	}
	m := w.Material(x, y)
	info := &w.rules.Materials[m]
	if m == MatNone || !info.ArrowPasses {
		w.removeObject(i)
		if m != MatNone && info.ArrowLeaves != MatNone {
			w.setMaterial(x, y, info.ArrowLeaves)
		}
		return
	}
	w.moveObject(i, x, y)
}

// updatePlant grows, and loses a point of health when anything that
// tramples stands next to it, however many do.
func (w *World) updatePlant(i int) {
	o := &w.objects[i]
	if o.Grown < 1<<15-1 {
		o.Grown++
	}
	x, y := int(o.X), int(o.Y)
	for d := DirLeft; d <= DirDown; d++ {
		dx, dy := d.Offset()
		if j := w.objectIndex(x+dx, y+dy); j >= 0 {
			if w.rules.tramples.Has(w.objects[j].Kind) {
				o.Health--
				break
			}
		}
	}
	w.removeIfDead(i)
}
