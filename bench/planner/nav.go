package planner

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Passability classes of a material for this step.
const (
	clsBlocked uint8 = iota // cannot be entered
	clsWalk                 // walk onto it
	clsMine                 // face it, collect it (it leaves a walkable tile), walk on
	clsBridge               // face it, place a block, (mine it,) walk on
)

// Step costs. Tunnelling costs a little more than its two actions so that
// the planner prefers walking around a thin wall to eating through a
// forest, and crossing water more again.
const (
	costWalk     = 1
	costMine     = 3
	costBridge   = 3 // place a walkable block, move
	costPlaceDig = 5 // place a block, mine it back into a walkable one, move
	costCow      = 5
	costZombie   = 7
	costSkeleton = 5
	reverseCost  = 3
	// skeletonRange is the distance within which tiles near a skeleton
	// cost more.
	skeletonRange = 5
	maxCost       = grid.MaxCost
)

const inf = grid.Inf

// nav is a cost field over the map: grid's lazy Dijkstra from the player
// (Reset seeds it; the buckets are settled in order of distance only as
// far as the step's queries need, most look for the nearest of something;
// run settles the whole map, kept as the reference), over costs whose
// detours around creatures are added as the search nears them (overlay,
// the Dijkstra's Before).
type nav struct {
	grid.Dijkstra
	w, h int
	g    grid.Grid
	cost []uint8 // cost of entering each tile; 0: impassable
	zone []int32 // the offsets of skeletonZone's tiles

	// The detour costs not added yet (see buildCostsLazy).
	adders   []adder
	keyHead  []int32 // the first adder of each key (+skeletonRange), chained by link
	nextKey  int32   // the adders of keys below are added
	setBy    []int32 // 1 + the object index that set a tile's cost; 0: none
	setTiles []int32
}

func (n *nav) init(w, h int) {
	n.w, n.h = w, h
	n.g.Init(w, h)
	n.cost = make([]uint8, w*h)
	n.zone = make([]int32, len(skeletonZone))
	for k, e := range skeletonZone {
		n.zone[k] = int32(int(e.dy)*w + int(e.dx))
	}
	n.setBy = make([]int32, w*h)
	n.setTiles = n.setTiles[:0]
	n.adders, n.keyHead = n.adders[:0], nil
	n.Init(&n.g, n.cost)
	n.Before = n.before
}

// run computes dist and prev from tile start over the whole map.
func (n *nav) run(start int) {
	n.Reset(start)
	n.SettleAll()
}

// before adds, ahead of settling bucket d, the detours the bucket's
// relaxations can read.
func (n *nav) before(d int32) {
	if n.nextKey <= d+1 && len(n.adders) > 0 {
		n.overlay(d + 1)
	}
}

// classify sets each material's passability class and cost for this step:
// it depends on the tools and blocks the player holds.
func (p *Planner) classify() {
	r := p.tab.r
	for m := range r.Materials {
		info := &r.Materials[m]
		cls, cost := clsBlocked, uint8(0)
		switch {
		case info.Deadly:
		case info.Walkable:
			cls, cost = clsWalk, costWalk
		case p.minable(sim.Material(m)):
			cls, cost = clsMine, costMine
		default:
			if _, c, ok := p.bridgeRule(sim.Material(m)); ok {
				cls, cost = clsBridge, c
			}
		}
		p.matClass[m], p.matCost[m] = cls, cost
	}
}

// minable reports whether collecting m now leaves a walkable tile: the
// tools are held and, if it is dark, a light is held.
func (p *Planner) minable(m sim.Material) bool {
	c := p.tab.collect(m)
	if c == nil {
		return false
	}
	leaves := &p.tab.r.Materials[c.Leaves]
	if !leaves.Walkable || leaves.Deadly || c.Leaves == sim.MatNone {
		return false
	}
	if !p.holds(c.Require) {
		return false
	}
	if c.Light {
		if li, ok := p.tab.lightItem(); !ok || p.inv[li] == 0 {
			return false
		}
	}
	return true
}

// holds reports whether the inventory holds the amounts.
func (p *Planner) holds(need []sim.ItemAmount) bool {
	for _, n := range need {
		if p.inv[n.Item] < int(n.Amount) {
			return false
		}
	}
	return true
}

// bridgeRule returns the place rule that turns material m into ground
// (directly, or a block the player can mine into ground at no loss), the
// cost of crossing m that way, and whether there is one.
func (p *Planner) bridgeRule(m sim.Material) (int, uint8, bool) {
	r := p.tab.r
	best, bestCost := -1, uint8(0)
	for i := range r.Place {
		pr := &r.Place[i]
		if !pr.Where.Has(m) || pr.Object != sim.ObjNone || pr.Material == sim.MatNone || !p.tab.placeOK[i] || !p.holds(pr.Uses) {
			continue
		}
		info := &r.Materials[pr.Material]
		var c uint8
		switch {
		case info.Deadly:
			continue
		case info.Walkable:
			c = costBridge
		case p.minable(pr.Material) && p.returns(pr):
			c = costPlaceDig
		default:
			continue
		}
		if best < 0 || c < bestCost {
			best, bestCost = i, c
		}
	}
	return best, bestCost, best >= 0
}

// returns reports whether mining what pr places gives back what it uses
// (a stone placed on water and mined again costs nothing).
func (p *Planner) returns(pr *sim.PlaceRule) bool {
	c := p.tab.collect(pr.Material)
	if c == nil || len(pr.Uses) != 1 {
		return false
	}
	return c.Receive.Item == pr.Uses[0].Item && c.Receive.Amount >= pr.Uses[0].Amount && c.Chance >= 65536
}

// readTiles reads the tiles and objects of the world into p.mat and
// p.obj and brings p.base up to date: the tiles that changed since the
// last step, or all of them when the material costs changed.
func (p *Planner) readTiles(w *sim.World) {
	W := w.Width()
	for _, i := range p.objTiles {
		p.obj[i] = sim.ObjNone
	}
	p.objTiles = p.objTiles[:0]
	p.skeletons = p.skeletons[:0]
	for _, o := range w.Objects() {
		if o.Kind != sim.ObjNone {
			i := int(o.Y)*W + int(o.X)
			p.obj[i] = o.Kind
			p.objTiles = append(p.objTiles, int32(i))
			if p.tab.role[o.Kind] == roleShooter {
				p.skeletons = append(p.skeletons, [2]int16{o.X, o.Y})
			}
		}
	}
	s := &p.seen
	if p.trackTiles && !p.ref && p.baseOK && p.baseCost == p.matCost &&
		s.w == w && s.seed == w.Seed() && s.rules == w.Rules() && s.step+1 == w.StepCount() {
		p.retile(w, s.pos)
		p.retile(w, s.target)
		for k := 0; k < len(p.hitTiles); k++ {
			if i := int(p.hitTiles[k]); p.retile(w, i) && !p.tab.arrowHit[p.mat[i]] {
				k-- // retile moved the last one here
			}
		}
	} else {
		p.readAllTiles(w)
	}
	*s = seenTiles{w: w, seed: w.Seed(), rules: w.Rules(), step: w.StepCount(), pos: p.pos, target: p.neighbour(p.pos, p.facing)}
	if s.target < 0 {
		s.target = p.pos
	}
}

// seenTiles is when and where the tiles were last read: after one step of
// that world, only the tiles the player faced and those arrows can change
// (see retile) can differ.
type seenTiles struct {
	w           *sim.World
	seed        uint64
	rules       *sim.Rules
	step        int
	pos, target int
}

// retile rereads tile i, keeping p.base and p.hitTiles, and reports
// whether it changed.
func (p *Planner) retile(w *sim.World, i int) bool {
	W := p.nav.w
	m := w.Material(i%W, i/W)
	old := p.mat[i]
	if m == old {
		return false
	}
	p.mat[i] = m
	c := p.matCost[m]
	if (c == 0) != (p.base[i] == 0) {
		p.reachOK = false
	}
	p.base[i] = c
	hit := &p.tab.arrowHit
	switch {
	case hit[old] && !hit[m]:
		k := slices.Index(p.hitTiles, int32(i))
		last := len(p.hitTiles) - 1
		p.hitTiles[k] = p.hitTiles[last]
		p.hitTiles = p.hitTiles[:last]
	case !hit[old] && hit[m]:
		p.hitTiles = append(p.hitTiles, int32(i))
	}
	return true
}

// readAllTiles reads every tile into p.mat and brings p.base and
// p.hitTiles up to date.
func (p *Planner) readAllTiles(w *sim.World) {
	defer func() {
		p.hitTiles = p.hitTiles[:0]
		for i, m := range p.mat {
			if p.tab.arrowHit[m] {
				p.hitTiles = append(p.hitTiles, int32(i))
			}
		}
	}()
	W := w.Width()
	next := p.next
	w.SemanticMap(materialBytes(next)) // tiles, and objects' ids over theirs
	for _, i := range p.objTiles {
		next[i] = w.Material(int(i)%W, int(i)/W)
	}
	old := p.mat
	p.mat, p.next = next, old
	if !p.baseOK || p.baseCost != p.matCost || p.ref {
		for m := range p.matCost {
			if (p.matCost[m] == 0) != (p.baseCost[m] == 0) {
				p.reachOK = false // some material became passable or not
			}
		}
		if !p.baseOK {
			p.reachOK = false
		}
		for i, m := range next {
			p.base[i] = p.matCost[m]
		}
		p.baseCost, p.baseOK = p.matCost, true
		return
	}
	a, b := materialBytes(old), materialBytes(next)
	const span = 64
	for lo := 0; lo < len(a); lo += span {
		hi := min(lo+span, len(a))
		if bytes.Equal(a[lo:hi], b[lo:hi]) {
			continue
		}
		for i := lo; i < hi; i++ {
			if a[i] != b[i] {
				c := p.matCost[b[i]]
				if (c == 0) != (p.base[i] == 0) {
					p.reachOK = false
				}
				p.base[i] = c
			}
		}
	}
}

// materialBytes returns the bytes of a material slice.
func materialBytes(m []sim.Material) []byte {
	return unsafe.Slice((*byte)(unsafe.SliceData(m)), len(m))
}

// buildCosts fills the cost of entering each tile: the material's cost,
// creatures (attacked out of the way), and detours around danger, in the
// order of the world's objects. This is the reference; buildCostsLazy
// leaves the detours to be added as the search gets near them.
func (p *Planner) buildCosts(w *sim.World) {
	if !p.ref {
		p.buildCostsLazy(w)
		return
	}
	cost := p.nav.cost
	copy(cost, p.base)
	p.blockers, p.blockers2 = p.blockers2[:0], p.blockers
	W, H := w.Width(), w.Height()
	add := func(x, y int, c uint8) {
		if x < 0 || y < 0 || x >= W || y >= H {
			return
		}
		i := y*W + x
		if cost[i] != 0 {
			cost[i] = min(cost[i]+c, maxCost)
		}
	}
	for _, o := range w.Objects() {
		x, y := int(o.X), int(o.Y)
		i := y*W + x
		switch p.tab.role[o.Kind] {
		case roleNone:
		case rolePrey:
			if cost[i] != 0 {
				cost[i] = costCow
			}
		case roleMelee:
			if cost[i] != 0 {
				cost[i] = costZombie
			}
			for _, d := range zombieDetour {
				add(x+d.dx, y+d.dy, d.cost)
			}
		case roleShooter:
			if cost[i] != 0 {
				cost[i] = costSkeleton
			}
			// Skeletons shoot along a row or column from up to a few
			// tiles away: keep out of their range.
			if x >= skeletonRange && y >= skeletonRange && x < W-skeletonRange && y < H-skeletonRange {
				for k, off := range p.nav.zone { // all on the map
					j := i + int(off)
					if c := cost[j]; c != 0 {
						cost[j] = min(c+skeletonZone[k].c, maxCost)
					}
				}
				break
			}
			for _, e := range skeletonZone {
				add(x+int(e.dx), y+int(e.dy), e.c)
			}
		case roleMissile:
			if cost[i] != 0 {
				cost[i] = min(cost[i]+1, maxCost)
			}
			dx, dy := o.Facing.Offset()
			for k := 1; k <= 3; k++ {
				add(x+k*dx, y+k*dy, 2)
			}
		default: // plants and landmarks stay where they are and block
			cost[i] = 0
			p.blockers = append(p.blockers, int32(i))
		}
	}
	if !slices.Equal(p.blockers, p.blockers2) {
		p.reachOK = false
	}
}

// buildCostsLazy fills what buildCosts does, but of the detours around
// zombies, skeletons and arrows (the additions to tiles near them) it
// only lists the creatures, nearest first: the search adds each one's
// before it reads a tile the creature reaches (see nav.overlay), and only
// if it gets that far. The result is the same: additions commute (they
// saturate at maxCost), except that a cow, zombie or skeleton sets its own
// tile's cost, dropping what earlier objects added there; so each tile
// that holds one records the creature's place in the object order, and
// only later objects' additions count there.
func (p *Planner) buildCostsLazy(w *sim.World) {
	n := &p.nav
	cost := n.cost
	copy(cost, p.base)
	p.blockers, p.blockers2 = p.blockers2[:0], p.blockers
	for _, i := range n.setTiles {
		n.setBy[i] = 0
	}
	n.setTiles = n.setTiles[:0]
	n.adders = n.adders[:0]
	W := n.w
	set := func(i, k int, c uint8) {
		if cost[i] != 0 {
			cost[i] = c
			n.setBy[i] = int32(k + 1)
			n.setTiles = append(n.setTiles, int32(i))
		}
	}
	for k, o := range w.Objects() {
		x, y := int(o.X), int(o.Y)
		i := y*W + x
		var reach int
		switch p.tab.role[o.Kind] {
		case roleNone:
			continue
		case rolePrey:
			set(i, k, costCow)
			continue
		case roleMelee:
			set(i, k, costZombie)
			reach = 2
		case roleShooter:
			set(i, k, costSkeleton)
			reach = skeletonRange
		case roleMissile:
			reach = 3
		default: // plants and landmarks stay where they are and block
			cost[i] = 0
			p.blockers = append(p.blockers, int32(i))
			continue
		}
		n.adders = append(n.adders, adder{
			key: int32(grid.Manhattan(x, y, p.px, p.py) - reach), k: int32(k),
			x: o.X, y: o.Y, role: p.tab.role[o.Kind], facing: o.Facing,
		})
	}
	// Nearest first: chained by key (keys run from -skeletonRange to W+H).
	if len(n.keyHead) < n.w+n.h+skeletonRange+1 {
		n.keyHead = make([]int32, n.w+n.h+skeletonRange+1)
	}
	for i := range n.keyHead {
		n.keyHead[i] = -1
	}
	for j := len(n.adders) - 1; j >= 0; j-- { // lists in object order
		kk := n.adders[j].key + skeletonRange
		n.adders[j].link = n.keyHead[kk]
		n.keyHead[kk] = int32(j)
	}
	n.nextKey = -skeletonRange
	if !slices.Equal(p.blockers, p.blockers2) {
		p.reachOK = false
	}
}

// An adder is a creature whose detour costs are still to be added to
// the tiles around it: key is the least L1 distance from the player of a
// tile it reaches, k its place among the world's objects.
type adder struct {
	key    int32
	link   int32 // the next adder of the same key, or -1
	k      int32
	x, y   int16
	role   role
	facing sim.Dir
}

// overlay adds the detour costs of the creatures that reach a tile at L1
// distance r from the start or nearer. Path costs are at least L1
// distances, so settling bucket d reads no tile farther than d+1.
func (n *nav) overlay(r int32) {
	r = min(r, int32(len(n.keyHead)-1-skeletonRange))
	for ; n.nextKey <= r; n.nextKey++ {
		for j := n.keyHead[n.nextKey+skeletonRange]; j >= 0; j = n.adders[j].link {
			n.add(&n.adders[j])
		}
	}
}

// add adds adder a's detour costs.
func (n *nav) add(a *adder) {
	cost, W, H := n.cost, n.w, n.h
	x, y := int(a.x), int(a.y)
	k := a.k + 1
	add := func(x, y int, c uint8) {
		if x < 0 || y < 0 || x >= W || y >= H {
			return
		}
		i := y*W + x
		if cost[i] != 0 && n.setBy[i] <= k { // not set by a later object
			cost[i] = min(cost[i]+c, maxCost)
		}
	}
	switch a.role {
	case roleMelee:
		for _, d := range zombieDetour {
			add(x+d.dx, y+d.dy, d.cost)
		}
	case roleShooter:
		if x >= skeletonRange && y >= skeletonRange && x < W-skeletonRange && y < H-skeletonRange {
			i := y*W + x
			for z, off := range n.zone { // all on the map
				j := i + int(off)
				if c := cost[j]; c != 0 && n.setBy[j] <= k {
					cost[j] = min(c+skeletonZone[z].c, maxCost)
				}
			}
			break
		}
		for _, e := range skeletonZone {
			add(x+int(e.dx), y+int(e.dy), e.c)
		}
	case roleMissile:
		add(x, y, 1)
		dx, dy := a.facing.Offset()
		for s := 1; s <= 3; s++ {
			add(x+s*dx, y+s*dy, 2)
		}
	}
}

// skeletonZone lists the extra costs of the tiles around a skeleton, in
// rows from the top: more the nearer, more again in line with it.
var skeletonZone = func() []struct {
	dx, dy int8
	c      uint8
} {
	var z []struct {
		dx, dy int8
		c      uint8
	}
	for dy := -skeletonRange; dy <= skeletonRange; dy++ {
		for dx := -skeletonRange; dx <= skeletonRange; dx++ {
			d := grid.Abs(dx) + grid.Abs(dy)
			if d == 0 || d > skeletonRange {
				continue
			}
			c := uint8(skeletonRange + 1 - d)
			if dx == 0 || dy == 0 {
				c += 2
			}
			z = append(z, struct {
				dx, dy int8
				c      uint8
			}{int8(dx), int8(dy), c})
		}
	}
	return z
}()

// dirTo returns the direction from tile a to its neighbour b.
func (p *Planner) dirTo(a, b int) sim.Dir { return p.nav.g.DirTo(a, b) }

// neighbour returns the tile next to i in direction d, or -1 off the map.
func (p *Planner) neighbour(i int, d sim.Dir) int { return p.nav.g.Neighbour(i, d) }

// arrival returns the direction the player faces on reaching tile u by
// the cost field's path (its current facing for its own tile).
func (p *Planner) arrival(u int) sim.Dir {
	if u == p.pos {
		return p.facing
	}
	return p.dirTo(int(p.nav.Prev[u]), u)
}

// free reports whether tile i can be walked onto now: walkable, not
// deadly, no object.
func (p *Planner) free(i int) bool {
	if i < 0 || p.obj[i] != sim.ObjNone {
		return false
	}
	info := &p.tab.r.Materials[p.mat[i]]
	return info.Walkable && !info.Deadly
}

// solid reports whether creatures cannot enter tile i's material.
func (p *Planner) solid(i int) bool {
	return i < 0 || !p.tab.r.Materials[p.mat[i]].Walkable
}

// firstStep returns the tile after the player's on the path to u.
func (p *Planner) firstStep(u int) int { return p.nav.First(p.pos, u) }

// stepToward returns the action that advances along the path to u.
func (p *Planner) stepToward(u int) sim.Action {
	return p.enter(p.firstStep(u))
}

// enter returns the action that gets the player onto its neighbour n:
// walk, or clear the way first (attack a creature, mine, bridge).
func (p *Planner) enter(n int) sim.Action {
	d := p.dirTo(p.pos, n)
	if d == sim.DirNone {
		return p.tab.noop
	}
	mv := p.tab.move[d]
	switch ro := p.tab.role[p.obj[n]]; {
	case p.obj[n] == sim.ObjNone:
	case ro.attackable():
		if p.facing == d {
			return p.tab.do
		}
		return mv // turns: the tile is occupied
	default:
		return mv // an arrow flies on; turning costs nothing
	}
	m := p.mat[n]
	switch p.matClass[m] {
	case clsWalk:
		return mv
	case clsMine:
		if p.facing == d {
			return p.tab.do
		}
		return mv
	case clsBridge:
		if p.facing == d {
			if i, _, ok := p.bridgeRule(m); ok {
				return p.tab.placeAct[i]
			}
		}
		return mv
	}
	if p.tab.r.Materials[m].Deadly {
		return p.tab.noop
	}
	return mv
}

// goTo walks to tile t and stands on it.
func (p *Planner) goTo(t int) (sim.Action, bool) {
	if t == p.pos {
		return p.tab.noop, true
	}
	if p.nav.At(t) == inf {
		return 0, false
	}
	return p.stepToward(t), true
}

// goNear walks to a tile within Chebyshev distance 1 of (x, y).
func (p *Planner) goNear(x, y int) (sim.Action, bool) {
	W, H := p.nav.w, p.nav.h
	best, bestD := -1, int32(inf)
	for yy := max(y-1, 0); yy <= min(y+1, H-1); yy++ {
		for xx := max(x-1, 0); xx <= min(x+1, W-1); xx++ {
			i := yy*W + xx
			if d := p.nav.At(i); d < bestD && (p.obj[i] == sim.ObjNone || i == p.pos) {
				best, bestD = i, d
			}
		}
	}
	if best < 0 {
		return 0, false
	}
	return p.goTo(best)
}

// zombieDetour is the extra cost of the tiles around a zombie, in the
// order both the reference and the lazy field add them: 4 next to it, 1
// two away or diagonal.
var zombieDetour = [...]struct {
	dx, dy int
	cost   uint8
}{
	{-1, 0, 4}, {1, 0, 4}, {0, -1, 4}, {0, 1, 4},
	{-2, 0, 1}, {2, 0, 1}, {0, -2, 1}, {0, 2, 1},
	{-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1},
}
