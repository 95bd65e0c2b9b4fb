package planner

import (
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Vital thresholds.
const (
	thirstyAt  = 4 // start drinking at this drink or below
	hungryAt   = 4
	fedAt      = 8 // stop hunting at this food
	criticalAt = 2 // drink or eat before anything but a fight
	braveAt    = 6 // … and at night only with this much health
	hurtAt     = 3 // shelter at this health or below …
	healedAt   = 6 // … until this health
	nightDark  = 65536 * 35 / 100
	// Dusk: while the light fades (the darkest step is at 70% of the day),
	// shelter once it drops below duskLight.
	duskFrom  = sim.DayLength / 5
	duskTo    = sim.DayLength * 7 / 10
	duskLight = 65536 * 65 / 100
	// Dawn: a sheltered planner stays in while zombies are within
	// dawnZombies and the light is below dawnLight.
	dawnLight   = 65536 * 85 / 100
	dawnZombies = 10
	// Evening: from this phase on, top up food and drink below topUpAt.
	eveningFrom  = sim.DayLength * 35 / 100
	topUpAt      = 6
	topUpDrinkAt = 7
	restAt       = 2 // sleep at this energy or below, day or night
	nightRest    = 7 // at night, sleep below this energy
	// sleepInPlace: with no shelter in reach, sleep in the open only this
	// tired.
	sleepInPlace = 1
	shelterReach = 60 // farthest shelter considered, in path cost
	shelterTries = 90 // steps before giving up on a chosen shelter
)

// fight attacks an adjacent zombie or skeleton, turning to it first.
func (p *Planner) fight() (sim.Action, bool) {
	target := sim.DirNone
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		n := p.neighbour(p.pos, d)
		if n < 0 {
			continue
		}
		if p.tab.role[p.obj[n]].hostile() {
			if d == p.facing {
				return p.tab.do, true
			}
			if target == sim.DirNone {
				target = d
			}
		}
	}
	if target != sim.DirNone {
		return p.tab.move[target], true // occupied: this only turns
	}
	return 0, false
}

// updateNeeds switches the drinking, hunting and resting modes with some
// hysteresis, so a started errand is finished.
func (p *Planner) updateNeeds() {
	r := p.tab.r
	drink, food, energy := p.inv[sim.ItemDrink], p.inv[sim.ItemFood], p.inv[sim.ItemEnergy]
	evening := p.evening() && !p.night()
	switch {
	case drink <= thirstyAt || evening && drink <= topUpDrinkAt:
		p.thirsty = true
	case drink >= int(r.Items[sim.ItemDrink].Max):
		p.thirsty = false
	}
	switch {
	case food <= hungryAt || evening && food <= topUpAt:
		p.hungry = true
	case food >= fedAt:
		p.hungry = false
	}
	night := p.w.Daylight() < nightDark
	switch {
	case energy <= restAt || night && energy < nightRest:
		p.tired = true
	case energy >= int(r.Items[sim.ItemEnergy].Max):
		p.tired = false
	}
	switch h := p.inv[sim.ItemHealth]; {
	case h <= hurtAt:
		p.hurt = true
	case h >= healedAt:
		p.hurt = false
	}
	if !p.tired && !p.hurt && !p.night() {
		p.shelter.valid = false
	}
}

// evening reports whether night is coming: the light fades and the
// planner tops up its food and drink.
func (p *Planner) evening() bool {
	phase := p.w.StepCount() % sim.DayLength
	return phase >= eveningFrom && phase < duskTo
}

// night reports whether it is dark enough for zombies to swarm, or dusk:
// the planner turns in while the light fades and comes out when it is
// back and the zombies the night brought have gone.
func (p *Planner) night() bool {
	l := p.w.Daylight()
	if l < nightDark {
		return true
	}
	phase := p.w.StepCount() % sim.DayLength
	if phase >= duskFrom && phase < duskTo {
		return l < duskLight
	}
	return l < dawnLight && p.shelter.valid && p.creatureNear(roleMelee, p.pos, dawnZombies)
}

// creatureNear reports whether a creature of role ro is within L1
// distance r of tile q.
func (p *Planner) creatureNear(ro role, q, r int) bool {
	W := p.nav.w
	qx, qy := q%W, q/W
	if ro == roleShooter { // the step's list
		for _, o := range p.skeletons {
			if grid.Manhattan(int(o[0]), int(o[1]), qx, qy) <= r {
				return true
			}
		}
		return false
	}
	for _, o := range p.w.Objects() {
		if p.tab.role[o.Kind] == ro && grid.Manhattan(int(o.X), int(o.Y), qx, qy) <= r {
			return true
		}
	}
	return false
}

// drinkSet returns the materials whose collect rule gives drink now.
func (p *Planner) drinkSet() sim.MaterialSet {
	var set sim.MaterialSet
	for i := range p.tab.r.Collect {
		c := &p.tab.r.Collect[i]
		if c.Receive.Item == sim.ItemDrink && p.gatherable(c) {
			set |= 1 << c.Material
		}
	}
	return set
}

// errandNear is how far the planner goes for a drink or a meal before
// turning in for the night.
const errandNear = 16

// drinkWithin walks to the nearest water within path cost limit and drinks.
func (p *Planner) drinkWithin(limit int32) (sim.Action, bool) {
	set := p.drinkSet()
	if set == 0 {
		return 0, false
	}
	u, f, ok := p.approachWithin(func(t int) (bool, int32) {
		return set.Has(p.mat[t]) && p.obj[t] == sim.ObjNone, 0
	}, 0, limit)
	if !ok || p.nav.At(u) > limit {
		return 0, false
	}
	return p.act(u, f, p.tab.do), true
}

// eatWithin hunts the nearest prey (a cow) within path cost limit, or
// eats a ripe plant.
func (p *Planner) eatWithin(limit int32) (sim.Action, bool) {
	if a, ok := p.eatPlant(); ok {
		return a, true
	}
	return p.huntNear(func(k sim.ObjectKind) bool { return p.tab.role[k] == rolePrey }, limit)
}

// eatPlant eats a ripe plant (any harvest that gives food) next to the
// player.
func (p *Planner) eatPlant() (sim.Action, bool) {
	r := p.tab.r
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		dx, dy := d.Offset()
		o, ok := p.w.ObjectAt(p.px+dx, p.py+dy)
		if !ok || !r.Ripe(o) || !r.Edible(o.Kind) {
			continue
		}
		if d == p.facing {
			return p.tab.do, true
		}
		return p.tab.move[d], true
	}
	return 0, false
}

// opportunistic takes what is cheap: a drink from the water or a bite of
// the cow the player already faces.
func (p *Planner) opportunistic() (sim.Action, bool) {
	f := p.neighbour(p.pos, p.facing)
	if f < 0 {
		return 0, false
	}
	r := p.tab.r
	if p.obj[f] == sim.ObjNone && p.drinkSet().Has(p.mat[f]) && p.inv[sim.ItemDrink] < int(r.Items[sim.ItemDrink].Max)-2 {
		return p.tab.do, true
	}
	if p.tab.role[p.obj[f]] == rolePrey && p.inv[sim.ItemFood] < int(r.Items[sim.ItemFood].Max)-3 {
		return p.tab.do, true
	}
	return 0, false
}

// shelterPlan is a two-tile pocket to sleep in: tiles a and b = a+d whose
// four side tiles are solid (or, as a last resort, get wall blocks placed
// from outside: see build.go); the ends a-d and b+d are solid or get a
// wall block. Only a pocket of two works: the player can face a free tile
// only by walking toward it, so it seals the far end from b, steps back to
// a (now facing the near end) and seals that.
type shelterPlan struct {
	valid bool
	a, b  int
	d     sim.Dir
	since int
}

// sealRule returns the place rule for wall blocks: a solid material the
// player can mine back (so it can leave), using one kind of item.
// With have set it also needs the blocks in the inventory.
func (p *Planner) sealRule(have bool) (*sim.PlaceRule, bool) {
	r := p.tab.r
	for i := range r.Place {
		pr := &r.Place[i]
		if pr.Object != sim.ObjNone || pr.Material == sim.MatNone || len(pr.Uses) != 1 || !p.tab.placeOK[i] {
			continue
		}
		info := &r.Materials[pr.Material]
		if info.Walkable || info.Deadly || !p.minable(pr.Material) {
			continue
		}
		if have && !p.holds(pr.Uses) {
			continue
		}
		return pr, true
	}
	return nil, false
}

// seals returns how many wall blocks the player can place now.
func (p *Planner) seals() (*sim.PlaceRule, int) {
	pr, ok := p.sealRule(true)
	if !ok {
		return nil, 0
	}
	u := pr.Uses[0]
	return pr, p.inv[u.Item] / max(int(u.Amount), 1)
}

// pocketOpen returns how many of the pocket's ends need a block, or -1 if
// the pocket a, b=a+d is not one (tiles unusable, or a side open that
// cannot take a block). Side tiles open to creatures count in sides: they
// need a block placed from outside (see buildStep).
func (p *Planner) pocketOpen(a int, d sim.Dir, pr *sim.PlaceRule) (b, open, sides int) {
	b = p.neighbour(a, d)
	if b < 0 || p.blocksPocket(p.obj[b]) || p.blocksPocket(p.obj[a]) {
		return b, -1, 0
	}
	r := p.tab.r
	for _, t := range [2]int{a, b} {
		if m := p.mat[t]; !r.Materials[m].Walkable && p.matClass[m] != clsMine || r.Materials[m].Deadly {
			return b, -1, 0
		}
	}
	e1, e2 := grid.Perpendicular(d)
	for _, side := range [4]int{p.neighbour(a, e1), p.neighbour(a, e2), p.neighbour(b, e1), p.neighbour(b, e2)} {
		switch {
		case p.solid(side):
		case p.wallable(side, pr):
			sides++
		default:
			return b, -1, 0
		}
	}
	if sides > 0 && (!r.Materials[p.mat[a]].Walkable || !r.Materials[p.mat[b]].Walkable) {
		return b, -1, 0 // walls are built around ground only
	}
	for _, end := range [2]int{p.neighbour(a, d.Opposite()), p.neighbour(b, d)} {
		switch {
		case p.solid(end):
		case p.wallable(end, pr):
			open++
		default:
			return b, -1, 0
		}
	}
	if p.exposed(a, b) || p.exposed(b, a) {
		return b, -1, 0
	}
	return b, open, sides
}

// wallable reports whether a wall block can go on open tile t.
func (p *Planner) wallable(t int, pr *sim.PlaceRule) bool {
	return pr != nil && t >= 0 && pr.Where.Has(p.mat[t]) && !p.tab.r.Materials[p.mat[t]].Deadly && !p.blocksPocket(p.obj[t])
}

// blocksPocket reports whether an object of kind k in a pocket tile rules
// the pocket out (creatures walk away or get killed; plants stay).
func (p *Planner) blocksPocket(k sim.ObjectKind) bool { return p.tab.role[k] == roleStill }

// exposed reports whether an arrow could reach pocket tile q (the other
// tile being o): arrows fly straight over water and lava, so a side of
// water with walkable ground (where skeletons may stand) in line beyond it
// is no wall.
func (p *Planner) exposed(q, o int) bool {
	if !p.creatureNear(roleShooter, q, skeletonReach) {
		return false
	}
	r := p.tab.r
	for e := sim.DirLeft; e <= sim.DirDown; e++ {
		t := q
		first := true
		for k := 1; k <= arrowReach; k++ {
			t = p.neighbour(t, e)
			if t < 0 {
				break
			}
			if t == o {
				continue
			}
			m := p.mat[t]
			if !r.Materials[m].ArrowPasses || (first && r.Materials[m].Walkable) {
				break // a wall, or an open end that gets a block
			}
			first = false
			if r.Materials[m].Walkable || p.tab.role[p.obj[t]] == roleShooter {
				return true
			}
		}
	}
	return false
}

// skeletonReach is the distance within which a skeleton makes walkable
// ground in line with a pocket a threat.
const skeletonReach = 14

// arrowReach is how far in line a pocket is checked for walkable ground.
const arrowReach = 7

// findShelter picks the cheapest pocket in reach.
func (p *Planner) findShelter() bool {
	pr, n := p.seals()
	best, bestD, bestCost := -1, sim.DirNone, int64(inf)
	consider := func(a int) {
		for d := sim.DirLeft; d <= sim.DirDown; d++ {
			if c, ok := p.pocketCost(a, d, pr, n); ok && (c < bestCost || c == bestCost && a < best) {
				best, bestD, bestCost = a, d, c
			}
		}
	}
	if p.ref {
		for a := range p.mat {
			if p.nav.Dist[a] <= shelterReach {
				consider(a)
			}
		}
	} else {
		// Every tile in reach, in any order: ties go to the lowest tile
		// and then the first direction, as in a scan of the map.
		p.nav.SettleTo(shelterReach)
		for _, a := range p.nav.Order {
			if p.nav.Dist[a] <= shelterReach {
				consider(int(a))
			}
		}
	}
	if best < 0 {
		return false
	}
	b := p.neighbour(best, bestD)
	p.shelter = shelterPlan{valid: true, a: best, b: b, d: bestD, since: p.w.StepCount()}
	return true
}

// pocketCost returns the cost of sheltering in pocket a, a+d (a settled
// tile in reach) with n wall blocks of rule pr, and whether it can be had.
func (p *Planner) pocketCost(a int, d sim.Dir, pr *sim.PlaceRule, n int) (int64, bool) {
	b := p.neighbour(a, d)
	if b < 0 {
		return 0, false
	}
	// The path must come in through an end (or the player is in the
	// pocket already), not by mining a side open. (The cheapest test
	// first: it rules out most pockets.)
	if a != p.pos && b != p.pos {
		pv := int(p.nav.Prev[a])
		if pv != p.neighbour(a, d.Opposite()) && (pv != b || int(p.nav.Prev[b]) != p.neighbour(b, d)) {
			return 0, false
		}
	}
	b, open, sides := p.pocketOpen(a, d, pr)
	if open < 0 || open+sides > n || p.banned(a, d) {
		return 0, false
	}
	c := int64(p.nav.Dist[a]) + 2*int64(open)
	if sides > 0 {
		c += wallCost * int64(sides) // walls are a last resort
	}
	if b != p.pos && !p.free(b) {
		c += costMine
	}
	if p.waterEnd(a, d) >= 0 {
		c -= waterBonus // drink without leaving
	}
	return c, true
}

// rest waits in a sealed pocket, building it first, and sleeps there when
// the player is tired or it is night; with no pocket in reach it sleeps in
// the open only when exhausted.
func (p *Planner) rest() (sim.Action, bool) {
	a, ok := p.shelterAction(true)
	if ok {
		return a, true
	}
	if p.inv[sim.ItemEnergy] <= sleepInPlace {
		return p.tab.sleep, true
	}
	return 0, false
}

// shelterAction returns the next action toward being sealed in a pocket
// and then sleep (when sleep is set and the player is tired) or noop.
func (p *Planner) shelterAction(sleep bool) (sim.Action, bool) {
	s := &p.shelter
	pr, n := p.seals()
	if s.valid {
		if p.w.StepCount()-s.since > shelterTries {
			s.valid = false
		} else if _, open, sides := p.pocketOpen(s.a, s.d, pr); open < 0 || open+sides > n {
			s.valid = false
		}
	}
	if !s.valid && !p.findShelter() {
		return 0, false
	}
	A, B, d := s.a, s.b, s.d
	if p.pos == A || p.pos == B {
		s.since = p.w.StepCount() // in the pocket: no time limit
	}
	if _, _, sides := p.pocketOpen(A, d, pr); sides > 0 {
		// Open sides: walls are built from outside, a short search over
		// moves and placements.
		if a, ok := p.buildStep(A, d, pr); ok {
			return a, true
		}
		if !p.nearPocket(A, d) {
			return p.goTo(A)
		}
		p.ban(A, d)
		s.valid = false
		return 0, false
	}
	endA, endB := p.neighbour(A, d.Opposite()), p.neighbour(B, d)
	openA, openB := !p.solid(endA), !p.solid(endB)
	place := p.tab.noop
	if pr != nil {
		place = p.tab.placeAct[p.tab.placeIndex(pr)]
	}
	switch p.pos {
	case A:
		switch {
		case !p.free(B):
			return p.enter(B), true // mine the far tile open
		case openA && p.facing == d.Opposite():
			return p.sealEnd(endA, place), true
		case openA || openB:
			return p.tab.move[d], true
		}
	case B:
		switch {
		case !p.free(A):
			return p.enter(A), true // mine the near tile open
		case openB && p.facing == d:
			return p.sealEnd(endB, place), true
		case openA || openB:
			return p.tab.move[d.Opposite()], true
		}
	default:
		if p.nav.At(A) <= p.nav.At(B) {
			return p.goTo(A)
		}
		return p.goTo(B)
	}
	// Sealed in. Drink from a water end when thirsty.
	if p.inv[sim.ItemDrink] < int(p.tab.r.Items[sim.ItemDrink].Max)-1 {
		switch p.waterEnd(A, d) {
		case endB:
			if p.pos == B && p.facing == d {
				return p.tab.do, true
			}
			if p.inv[sim.ItemDrink] <= thirstyAt || p.pos == B {
				return p.tab.move[p.dirTo(p.pos, A+B-p.pos)], true
			}
		case endA:
			if p.pos == A && p.facing == d.Opposite() {
				return p.tab.do, true
			}
			if p.inv[sim.ItemDrink] <= thirstyAt || p.pos == A {
				return p.tab.move[p.dirTo(p.pos, A+B-p.pos)], true
			}
		}
	}
	if sleep && p.inv[sim.ItemEnergy] < int(p.tab.r.Items[sim.ItemEnergy].Max) {
		return p.tab.sleep, true
	}
	return p.tab.noop, true
}

// wallCost is the extra cost of a pocket for each side wall to build:
// building in the open takes a score of steps among whatever roams
// there, so it is a last resort when no natural pocket is in reach.
const wallCost = 1000

// banned reports whether pocket (a, d) failed to be built lately.
func (p *Planner) banned(a int, d sim.Dir) bool {
	for _, b := range p.bans {
		if b.a == a && b.d == d && p.w.StepCount()-b.at < banFor {
			return true
		}
	}
	return false
}

// ban remembers that pocket (a, d) could not be built.
func (p *Planner) ban(a int, d sim.Dir) {
	p.bans[p.nextBan%len(p.bans)] = pocketBan{a: a, d: d, at: p.w.StepCount()}
	p.nextBan++
}

// banFor is how long a pocket that could not be built is left alone.
const banFor = 100

type pocketBan struct {
	a  int
	d  sim.Dir
	at int
}

// waterBonus is how much a pocket with water at an end is worth.
const waterBonus = 16

// waterEnd returns the end of the pocket a, a+d that holds drinkable
// water, or -1.
func (p *Planner) waterEnd(a int, d sim.Dir) int {
	set := p.drinkSet()
	if set == 0 {
		return -1
	}
	if e := p.neighbour(p.neighbour(a, d), d); e >= 0 && set.Has(p.mat[e]) && p.obj[e] == sim.ObjNone {
		return e
	}
	if e := p.neighbour(a, d.Opposite()); e >= 0 && set.Has(p.mat[e]) && p.obj[e] == sim.ObjNone {
		return e
	}
	return -1
}

// sealEnd places a wall block on the faced end, clearing it first.
func (p *Planner) sealEnd(end int, place sim.Action) sim.Action {
	switch {
	case p.obj[end] == sim.ObjNone:
		return place
	case p.tab.role[p.obj[end]].attackable():
		return p.tab.do
	}
	return p.tab.noop // an arrow passes
}

// idle is what the planner does with no goal left to pursue, or to
// survive: carry a few wall blocks, then wait in a sealed pocket.
func (p *Planner) idle() sim.Action {
	if pr, ok := p.sealRuleAny(); ok {
		it := pr.Uses[0].Item
		if p.inv[it] < 2 {
			if a, ok := p.obtain(it, 2); ok {
				return a
			}
		}
	}
	if a, ok := p.shelterAction(p.tired); ok {
		return a
	}
	if p.tired && p.inv[sim.ItemEnergy] <= sleepInPlace {
		return p.tab.sleep
	}
	return p.tab.noop
}

// sealRuleAny returns the wall block rule whatever the player holds: a
// place rule of a solid material some collect rule mines back.
func (p *Planner) sealRuleAny() (*sim.PlaceRule, bool) {
	r := p.tab.r
	for i := range r.Place {
		pr := &r.Place[i]
		if pr.Object != sim.ObjNone || pr.Material == sim.MatNone || len(pr.Uses) != 1 || !p.tab.placeOK[i] {
			continue
		}
		info := &r.Materials[pr.Material]
		c := p.tab.collect(pr.Material)
		if info.Walkable || info.Deadly || c == nil || !r.Materials[c.Leaves].Walkable {
			continue
		}
		return pr, true
	}
	return nil, false
}

// explore walks toward the nearest reachable tile not seen yet, or
// wanders.
func (p *Planner) explore() sim.Action {
	var best int
	if p.ref {
		best = p.unseenScan()
	} else {
		best = p.unseen()
	}
	if best >= 0 {
		return p.stepToward(best)
	}
	return p.wander()
}

// wander takes a random step onto a free, safe tile.
func (p *Planner) wander() sim.Action {
	var dirs [4]sim.Dir
	n := 0
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		if p.free(p.neighbour(p.pos, d)) {
			dirs[n] = d
			n++
		}
	}
	if n == 0 {
		return p.tab.noop
	}
	return p.tab.move[dirs[p.rng.Intn(n)]]
}

// unseen returns the nearest reachable tile not seen yet and free of
// objects (the lowest of equally near ones), or -1: nearest first, the
// result of unseenScan.
func (p *Planner) unseen() int {
	n := &p.nav
	for k := 0; ; {
		for ; k < len(n.Order); k++ {
			i := int(n.Order[k])
			if p.visited[i] || p.obj[i] != sim.ObjNone {
				continue
			}
			// The first at this distance: the lowest of the bucket wins.
			best, d := i, n.Dist[i]
			for k++; k < len(n.Order) && n.Dist[n.Order[k]] == d; k++ {
				if j := int(n.Order[k]); j < best && !p.visited[j] && p.obj[j] == sim.ObjNone {
					best = j
				}
			}
			return best
		}
		if !n.Next() {
			return -1
		}
	}
}

// unseenScan is unseen over the whole map: the reference.
func (p *Planner) unseenScan() int {
	best, bestD := -1, int32(inf)
	for i, v := range p.visited {
		if !v && p.nav.Dist[i] < bestD && p.obj[i] == sim.ObjNone {
			best, bestD = i, p.nav.Dist[i]
		}
	}
	return best
}
