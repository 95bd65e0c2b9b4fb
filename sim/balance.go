package sim

import "math/bits"

// balance spawns and despawns creatures chunk by chunk, following each
// balance rule of the ruleset (zombies by night, skeletons in tunnels,
// cows on grass). Only chunks that have held an object are balanced: a
// chunk nothing ever entered gets no zombies until something walks in.
func (w *World) balance() {
	light := int64(w.Daylight())
	rules := w.rules.balance
	// The population bounds follow daylight only, so they are the same in
	// every chunk; Go's division truncates toward zero like Crafter's int().
	var lo, hi [maxBalanceRules]int
	for r := range rules {
		br := &rules[r]
		lo[r] = int((int64(br.MinBase) + int64(br.MinLight)*light>>16) / one)
		hi[r] = int((int64(br.MaxBase) + int64(br.MaxLight)*light>>16) / one)
	}
	// A rule's spawns and despawns change only its own kind's counts, in
	// the chunk acted on, and each rule has a kind of its own (its row's),
	// so every rule's due chunks can be decided before any acts (see
	// balanceDue), and kept from the last balance for the chunks whose
	// counts have not changed since; a world of more than 64 chunks
	// decides rule by rule.
	var due [maxBalanceRules]uint64
	oneMask := len(w.chunks) <= 64 && !w.balanceRuleByRule
	if oneMask {
		due = w.dueChunks(&lo, &hi)
	}
	for r := range rules {
		br := &rules[r]
		for base := 0; base < len(w.chunks); base += 64 {
			d := due[r]
			if !oneMask {
				d = balanceDue(w.chunks[base:min(base+64, len(w.chunks))], r, lo[r], hi[r], br.MinSpace)
			}
			for d != 0 {
				c := base + bits.TrailingZeros64(d)
				d &= d - 1
				space, pop := int(w.chunks[c].space[r]), int(w.chunks[c].pop[r])
				if pop < lo[r] && space >= max(br.MinSpace, 1) {
					w.spawn(c, br, space)
				} else {
					w.despawn(c, br, pop)
				}
			}
		}
	}
}

// balanceDue returns a mask with bit j set when chunks[j] (at most 64) is
// held and rule r would spawn (pop < lo, space ≥ minSpace and > 0) or
// despawn (pop > hi) there. It has no branches: which chunks are held and
// which are due follows the map, so a test per chunk was mispredicted
// often. Deciding a rule's chunks before acting on any is the same as
// deciding each in turn, since acting on a chunk changes only its own
// counts (a spawn lands in the chunk, a despawn leaves it).
func balanceDue(chunks []chunkCounts, r, lo, hi, minSpace int) uint64 {
	lo, hi, minSpace = dueBounds(lo, hi, minSpace)
	var due uint64
	for j := range chunks {
		c := &chunks[j]
		due |= dueBit(int(c.space[r&3]), int(c.pop[r&3]), lo, hi, minSpace) & b2u(c.held) << (j & 63)
	}
	return due
}

// dueChunks returns every rule's due chunks of a world of at most 64
// chunks, deciding again only the chunks changed since the last balance
// (all of them when a rule's bounds moved). A chunk's bits are what
// balanceDue would give it: TestDueChunksKept checks them after every
// step.
func (w *World) dueChunks(lo, hi *[maxBalanceRules]int) [maxBalanceRules]uint64 {
	rules := w.rules.balance
	all := uint64(1)<<len(w.chunks) - 1 // len 64: the shift gives 0, and 0 − 1 all ones
	stale := all &^ w.dueFresh
	for r := range rules {
		var l [3]int
		l[0], l[1], l[2] = dueBounds(lo[r], hi[r], rules[r].MinSpace)
		if l != w.dueLimits[r] { // daylight moved this rule's bounds
			w.dueLimits[r] = l
			w.due[r] = w.dueRule(r, all)
		} else if stale != 0 {
			w.due[r] = w.due[r]&^stale | w.dueRule(r, stale)
		}
	}
	w.dueFresh = all
	return w.due
}

// dueRule decides rule r's due bits of the chunks in mask under its kept
// bounds.
func (w *World) dueRule(r int, mask uint64) uint64 {
	l := &w.dueLimits[r&3]
	var due uint64
	for ; mask != 0; mask &= mask - 1 {
		c := bits.TrailingZeros64(mask)
		ch := &w.chunks[c]
		due |= dueBit(int(ch.space[r&3]), int(ch.pop[r&3]), l[0], l[1], l[2]) & b2u(ch.held) << c
	}
	return due
}

// dueBounds clamps a rule's bounds for dueBit: counts are bytes, so
// bounds beyond [-1, 256] decide nothing more, and clamped, dueBit's
// differences cannot overflow.
func dueBounds(lo, hi, minSpace int) (int, int, int) {
	return min(max(lo, 0), 256), min(max(hi, -1), 256), min(max(minSpace, 1), 256)
}

// dueBit is 1 when a chunk of these counts is due, without branches.
func dueBit(space, pop, lo, hi, minSpace int) uint64 {
	spawn := (pop - lo) & (minSpace - 1 - space) // negative when both hold
	despawn := hi - pop                          // negative when pop > hi
	return uint64((spawn|despawn)>>(bits.UintSize-1)) & 1
}

// b2u is 1 for true; the compiler makes it a byte load, not a branch.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// spawn may add a creature of br's kind on one of the space tiles of br's
// material in chunk c.
func (w *World) spawn(c int, br *balanceRule, space int) {
	rng := &w.s.RNG
	if !rng.Chance(br.SpawnP) {
		return
	}
	x, y := w.randomTileInChunk(c, br.Material, space)
	if w.objAt[w.index(x, y)] == 0 && w.distance(x, y) >= br.SpawnDist {
		w.addObject(w.newCreature(br.kind, x, y))
	}
}

// despawn may remove one of the pop creatures of br's kind in chunk c.
func (w *World) despawn(c int, br *balanceRule, pop int) {
	rng := &w.s.RNG
	if !rng.Chance(br.DespawnP) {
		return
	}
	i := w.nthCreatureInChunk(c, br.kind, rng.Intn(pop))
	o := &w.objects[i]
	if w.distance(int(o.X), int(o.Y)) >= br.DespawnDist {
		w.removeObject(i)
	}
}

// newCreature returns a fresh object of kind k at (x, y), with its row's
// health.
func (w *World) newCreature(k ObjectKind, x, y int) Object {
	return Object{X: int16(x), Y: int16(y), Kind: k, Health: w.rules.Kind(k).Health}
}

// chunkBounds returns the tile rectangle [x0, x1) × [y0, y1) of chunk c.
func (w *World) chunkBounds(c int) (x0, y0, x1, y1 int) {
	cs := w.rules.Creature.ChunkSize
	x0, y0 = (c%w.chunksX)*cs, (c/w.chunksX)*cs
	return x0, y0, min(x0+cs, w.width), min(y0+cs, w.height)
}

// randomTileInChunk draws a tile of material m uniformly among the space
// such tiles of chunk c. It probes random tiles of the chunk first (cheap
// when m is common) and counts through the chunk only if all probes miss.
func (w *World) randomTileInChunk(c int, m Material, space int) (x, y int) {
	x0, y0, x1, y1 := w.chunkBounds(c)
	cw, ch := x1-x0, y1-y0
	rng := &w.s.RNG
	for range 16 {
		k := rng.Intn(cw * ch)
		x, y = x0+k%cw, y0+k/cw
		if w.tiles[w.index(x, y)] == m {
			return x, y
		}
	}
	return w.nthTileInChunk(c, m, rng.Intn(space))
}

// nthTileInChunk returns the n-th tile of material m in chunk c, in
// row-major order. The chunk holds more than n such tiles.
func (w *World) nthTileInChunk(c int, m Material, n int) (x, y int) {
	x0, y0, x1, y1 := w.chunkBounds(c)
	for y = y0; y < y1; y++ {
		for x = x0; x < x1; x++ {
			if w.tiles[w.index(x, y)] == m {
				if n == 0 {
					return x, y
				}
				n--
			}
		}
	}
	panic("sim: chunk material count out of step with the tiles")
}

// nthCreatureInChunk returns the index of the n-th live object of kind k
// in chunk c, in array order. The chunk holds more than n of them.
func (w *World) nthCreatureInChunk(c int, k ObjectKind, n int) int {
	for i := 1; i < int(w.s.NumObjects); i++ {
		o := &w.objects[i]
		if o.Kind == k && w.chunkOf(int(o.X), int(o.Y)) == c {
			if n == 0 {
				return i
			}
			n--
		}
	}
	panic("sim: chunk population out of step with the objects")
}
