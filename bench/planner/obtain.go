package planner

import (
	"bytes"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// A job is one rule of the bill of materials, in dependency order.
type jobKind uint8

const (
	jobCollect jobKind = iota
	jobMake
	jobPlace
)

type job struct {
	kind    jobKind
	item    sim.Item
	count   int
	collect *sim.CollectRule
	make    *sim.MakeRule
	place   *sim.PlaceRule
}

// bom is the bill of materials for a goal from the current inventory: the
// raw items still to collect and the jobs to run, dependencies first.
// Items used by recipes are consumed; tools required by collect rules are
// held (reserved once, however many rules need them); a station already
// standing within reach costs nothing, a missing one costs its materials.
type bom struct {
	avail   [sim.MaxItems]int
	held    [sim.MaxItems]int
	deficit [sim.MaxItems]int // raw items to collect
	soft    [sim.MaxItems]int // raw items worth a short detour
	rule    [sim.MaxItems]*sim.CollectRule
	planned sim.MaterialSet
	jobs    []job
	failed  bool
}

// takeAvail takes up to n of item from what is available and returns how
// many are still wanted.
func (b *bom) takeAvail(item sim.Item, n int) int {
	take := min(b.avail[item], n)
	b.avail[item] -= take
	return n - take
}

// stationCache holds, per material, the cost of the cheapest standing
// tile within the 3×3 square of a tile of it (-1: not computed this step).
type stationCache [sim.MaxMaterials]int64

// plan fills p.bom for holding n of item.
func (p *Planner) plan(item sim.Item, n int) {
	b := &p.bom
	b.avail = p.inv
	b.held = [sim.MaxItems]int{}
	b.deficit = [sim.MaxItems]int{}
	b.soft = [sim.MaxItems]int{}
	b.rule = [sim.MaxItems]*sim.CollectRule{}
	b.planned = 0
	b.jobs = b.jobs[:0]
	b.failed = false
	p.require(item, n, 0)
	if b.failed {
		return
	}
	// Weapons cheaper than the goal come along: a long chain crosses
	// nights, and a sword shortens every fight.
	goalDepth := p.tab.depth[item]
	for _, wp := range p.tab.r.Weapons {
		if d := p.tab.depth[wp.Item]; d > 0 && d < goalDepth && d <= weaponDepth && b.avail[wp.Item] == 0 && p.inv[wp.Item] == 0 {
			save := *b
			save.jobs = nil
			n := len(b.jobs)
			p.require(wp.Item, 1, 0)
			if b.failed { // not worth failing the goal for
				jobs := b.jobs[:n]
				*b = save
				b.jobs = jobs
			}
		}
	}
	// Materials for a spare station, when the standing one is far: placing
	// a new one beats walking back.
	var spared sim.MaterialSet
	for _, j := range b.jobs {
		if j.kind != jobMake {
			continue
		}
		for _, s := range j.make.Nearby {
			if spared.Has(s) || b.planned.Has(s) || p.stationWithin(s, spareDist) {
				continue
			}
			spared |= 1 << s
			if pr := p.tab.stationRule(s); pr != nil {
				for _, u := range pr.Uses {
					p.wantSoft(u.Item, int(u.Amount))
				}
			}
		}
	}
}

// weaponDepth is the deepest weapon the planner makes on the way; deeper
// ones cost scarce materials.
const weaponDepth = 5

// spareDist is the distance to a station beyond which the planner carries
// the materials for a new one.
const spareDist = 12

// wantSoft adds n of a raw item to the soft deficits.
func (p *Planner) wantSoft(item sim.Item, n int) {
	b := &p.bom
	if n = b.takeAvail(item, n); n <= 0 {
		return
	}
	st := p.tab.stepFor(task.Node{Item: item})
	if st == nil || st.Collect == nil {
		return
	}
	b.soft[item] += n
	b.rule[item] = st.Collect
}

func (p *Planner) require(item sim.Item, n, depth int) {
	b := &p.bom
	if n = b.takeAvail(item, n); n <= 0 {
		return
	}
	if depth > 32 {
		b.failed = true
		return
	}
	st := p.tab.stepFor(task.Node{Item: item})
	switch {
	case st == nil:
		b.failed = true
	case st.Collect != nil:
		c := st.Collect
		for _, t := range c.Require {
			p.requireHeld(t.Item, int(t.Amount), depth+1)
		}
		if c.Light {
			if li, ok := p.tab.lightItem(); ok {
				p.requireHeld(li, 1, depth+1)
			}
		}
		b.deficit[item] += n
		b.rule[item] = c
		b.jobs = append(b.jobs, job{kind: jobCollect, item: item, count: n, collect: c})
	case st.Make != nil:
		m := st.Make
		g := max(int(m.Gives.Amount), 1)
		k := (n + g - 1) / g
		for _, s := range m.Nearby {
			p.requireStation(s, depth+1)
		}
		for _, u := range m.Uses {
			p.require(u.Item, int(u.Amount)*k, depth+1)
		}
		b.avail[item] += k*g - n
		b.jobs = append(b.jobs, job{kind: jobMake, item: item, count: k, make: m})
	default:
		b.failed = true
	}
}

// requireHeld reserves n of a tool that is held, not consumed.
func (p *Planner) requireHeld(item sim.Item, n, depth int) {
	b := &p.bom
	if b.held[item] >= n {
		return
	}
	extra := n - b.held[item]
	b.held[item] = n
	p.require(item, extra, depth)
}

// requireStation plans station s unless one stands within reach.
func (p *Planner) requireStation(s sim.Material, depth int) {
	b := &p.bom
	if b.planned.Has(s) || p.stationReachable(s) {
		return
	}
	b.planned |= 1 << s
	pr := p.tab.stationRule(s)
	if pr == nil {
		b.failed = true // a natural station that is nowhere in reach
		return
	}
	for _, u := range pr.Uses {
		p.require(u.Item, int(u.Amount), depth)
	}
	b.jobs = append(b.jobs, job{kind: jobPlace, place: pr})
}

// stationReachable reports whether a standing tile within the 3×3 square
// of a tile of material s can be reached.
func (p *Planner) stationReachable(s sim.Material) bool {
	if p.ref {
		return p.stationDist(s) < inf
	}
	if p.stationReach[s] == 0 {
		p.stationReach[s] = 1
		if p.onMap(s) {
			p.markStation(s)
			for _, j := range p.marked {
				if (int(j) == p.pos || p.obj[j] == sim.ObjNone) && p.reachable(int(j)) {
					p.stationReach[s] = 2
					break
				}
			}
		}
	}
	return p.stationReach[s] == 2
}

// stationWithin reports whether a standing tile within the 3×3 square of
// a tile of material s is at path cost r at most.
func (p *Planner) stationWithin(s sim.Material, r int32) bool {
	if p.ref {
		return p.stationDist(s) <= int64(r)
	}
	if !p.onMap(s) {
		return false
	}
	p.markStation(s)
	n := &p.nav
	n.SettleTo(r)
	for _, j := range n.Order {
		if n.Dist[j] > r {
			break
		}
		if p.mark[j] == p.markGen && (int(j) == p.pos || p.obj[j] == sim.ObjNone) {
			return true
		}
	}
	return false
}

// stationDist returns the cost of the cheapest standing tile within the
// 3×3 square of a tile of material s (inf if none), over the whole map:
// the reference.
func (p *Planner) stationDist(s sim.Material) int64 {
	if p.stations[s] < 0 {
		p.stations[s] = p.stationDistScan(s)
	}
	return p.stations[s]
}

// onMap reports whether some tile is of material m.
func (p *Planner) onMap(m sim.Material) bool {
	return bytes.IndexByte(materialBytes(p.mat), byte(m)) >= 0
}

// markStation marks (with markGen, and lists in marked) the tiles within
// the 3×3 square of a tile of material s, unless they are marked for s
// this step already.
func (p *Planner) markStation(s sim.Material) {
	if p.markedS == s && p.markedStep == p.stepN {
		return
	}
	p.markedS, p.markedStep = s, p.stepN
	n := &p.nav
	W, H := n.w, n.h
	p.markGen++
	if p.markGen == 0 {
		clear(p.mark)
		p.markGen = 1
	}
	gen := p.markGen
	p.marked = p.marked[:0]
	tiles := materialBytes(p.mat)
	for off := 0; ; {
		k := bytes.IndexByte(tiles[off:], byte(s))
		if k < 0 {
			break
		}
		i := off + k
		off = i + 1
		x, y := i%W, i/W
		for yy := max(y-1, 0); yy <= min(y+1, H-1); yy++ {
			for xx := max(x-1, 0); xx <= min(x+1, W-1); xx++ {
				if j := yy*W + xx; p.mark[j] != gen {
					p.mark[j] = gen
					p.marked = append(p.marked, int32(j))
				}
			}
		}
	}
}

// reachable reports whether tile i can be reached from the player's:
// a flood fill of the passable tiles, kept across steps while no tile
// changes between passable and not (tiles, held tools, plants).
func (p *Planner) reachable(i int) bool {
	if !p.reachOK || !p.reach.Reached(p.pos) {
		p.flood()
	}
	return p.reach.Reached(i)
}

// flood fills p.reach with the tiles the cost field can reach.
func (p *Planner) flood() {
	n := &p.nav
	p.reach.RunNonzero(&n.g, p.pos, n.cost)
	// The set is a component of the passable tiles (and so the same from
	// any of them) only if the start is passable.
	p.reachOK = n.cost[p.pos] != 0
}

// stationDistScan is stationDist over the whole map: the reference.
func (p *Planner) stationDistScan(s sim.Material) int64 {
	W, H := p.nav.w, p.nav.h
	best := int64(inf)
	for i, m := range p.mat {
		if m != s {
			continue
		}
		x, y := i%W, i/W
		for yy := max(y-1, 0); yy <= min(y+1, H-1); yy++ {
			for xx := max(x-1, 0); xx <= min(x+1, W-1); xx++ {
				j := yy*W + xx
				if d := int64(p.nav.Dist[j]); d < best && (j == p.pos || p.obj[j] == sim.ObjNone) {
					best = d
				}
			}
		}
	}
	return best
}

// obtain returns the next action toward holding n of item.
func (p *Planner) obtain(item sim.Item, n int) (sim.Action, bool) {
	if p.inv[item] >= n {
		return 0, false
	}
	p.plan(item, n)
	if a, ok := p.makeHere(); ok {
		return a, true
	}
	if a, ok := p.gather(); ok {
		return a, true
	}
	return p.runJobs()
}

// makeHere runs a make job that can be made on the spot.
func (p *Planner) makeHere() (sim.Action, bool) {
	for _, j := range p.bom.jobs {
		if j.kind != jobMake || !p.holds(j.make.Uses) || !p.stationsHere(j.make.Nearby) {
			continue
		}
		if mi := p.tab.makeIndex(j.make); mi >= 0 && p.tab.makeOK[mi] {
			return p.tab.makeAct[mi], true
		}
	}
	return 0, false
}

// runJobs walks to make the first job whose inputs are held.
func (p *Planner) runJobs() (sim.Action, bool) {
	for _, j := range p.bom.jobs {
		if j.kind != jobMake || !p.holds(j.make.Uses) {
			continue
		}
		if a, ok := p.doMake(j.make); ok {
			return a, true
		}
	}
	return 0, false
}

// stationsHere reports whether every station of S is in the 3×3 square
// around the player.
func (p *Planner) stationsHere(S []sim.Material) bool {
	W, H := p.nav.w, p.nav.h
	for _, s := range S {
		found := false
		for y := max(p.py-1, 0); y <= min(p.py+1, H-1) && !found; y++ {
			for x := max(p.px-1, 0); x <= min(p.px+1, W-1); x++ {
				if p.mat[y*W+x] == s {
					found = true
					break
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// gatherable reports whether the collect rule can be applied now.
func (p *Planner) gatherable(c *sim.CollectRule) bool {
	if !p.holds(c.Require) {
		return false
	}
	if c.Light {
		li, ok := p.tab.lightItem()
		if !ok || p.inv[li] == 0 {
			return false
		}
	}
	return true
}

// Extra costs of gathering targets: stones for shelter walls are worth a
// short detour only.
const (
	softExtra = 8
	softLimit = 24
)

// gather collects the nearest raw material the bill still lacks (and a
// few blocks for shelter walls when they are close).
func (p *Planner) gather() (sim.Action, bool) {
	var hard, soft sim.MaterialSet
	r := p.tab.r
	for it := range r.Items {
		c := p.bom.rule[it]
		if c == nil || p.inv[it] >= int(r.Items[it].Max) || !p.gatherable(c) {
			continue
		}
		switch {
		case p.bom.deficit[it] > 0:
			hard |= 1 << c.Material
		case p.bom.soft[it] > 0:
			soft |= 1 << c.Material
		}
	}
	if c, ok := p.reserveRule(); ok {
		soft |= 1 << c.Material
	}
	soft &^= hard
	if hard == 0 && soft == 0 {
		return 0, false
	}
	u, f, ok := p.gatherFrom(hard, soft)
	if ok && !hard.Has(p.mat[f]) && p.nav.At(u) > softLimit {
		if hard == 0 {
			return 0, false
		}
		u, f, ok = p.gatherFrom(hard, 0)
	}
	if !ok {
		return 0, false
	}
	return p.act(u, f, p.tab.do), true
}

// gatherFrom approaches the nearest tile of a hard or (at an extra cost)
// soft target material.
func (p *Planner) gatherFrom(hard, soft sim.MaterialSet) (u, f int, ok bool) {
	return p.approach(func(t int) (bool, int32) {
		if p.obj[t] != sim.ObjNone {
			return false, 0
		}
		switch m := p.mat[t]; {
		case hard.Has(m):
			return true, 0
		case soft.Has(m):
			return true, softExtra
		}
		return false, 0
	})
}

// sealReserve is how many wall blocks the planner likes to carry.
const sealReserve = 3

// reserveRule returns the collect rule that gives wall blocks, when the
// player can use it now and carries fewer than sealReserve blocks.
func (p *Planner) reserveRule() (*sim.CollectRule, bool) {
	seal, ok := p.sealRule(false)
	if !ok {
		return nil, false
	}
	it := seal.Uses[0].Item
	if p.inv[it] >= sealReserve {
		return nil, false
	}
	for i := range p.tab.r.Collect {
		c := &p.tab.r.Collect[i]
		if c.Receive.Item == it && c.Chance >= 65536 && p.tab.r.Materials[c.Material].Natural && p.gatherable(c) {
			return c, true
		}
	}
	return nil, false
}

// unitCost estimates the steps one unit of an item is worth, from its
// dependency depth: placing a new station is worth it when walking back to
// the old one costs more than regathering its materials.
func (p *Planner) unitCost(it sim.Item) int64 {
	switch d := p.tab.depth[it]; {
	case d <= 1:
		return 3
	case d <= 4:
		return 6
	default:
		return 25
	}
}

// doMake makes one of m: at a spot whose 3×3 square holds m's stations,
// placing the missing ones when the inventory affords them.
func (p *Planner) doMake(m *sim.MakeRule) (sim.Action, bool) {
	mi := p.tab.makeIndex(m)
	if mi < 0 || !p.tab.makeOK[mi] || len(m.Nearby) > 8 {
		return 0, false
	}
	ms := makeSite{S: m.Nearby, all: uint8(1)<<len(m.Nearby) - 1}
	p.markNear(ms.S)
	if p.near[p.pos]&ms.all == ms.all {
		return p.tab.makeAct[mi], true
	}
	p.affordStations(m, &ms)
	best := p.bestMakeSite(&ms)
	if best < 0 {
		return 0, false
	}
	if best != p.pos {
		return p.stepToward(best), true
	}
	return p.placeStations(ms.S, ms.all&^p.near[p.pos])
}

// makeSite is what doMake weighs a standing tile by: the rule's stations
// S (bit k of a mask is S[k]), the mask of all of them, those the
// inventory affords to place, and what placing each costs.
type makeSite struct {
	S       []sim.Material
	all     uint8
	afford  uint8
	penalty [8]int64
}

// affordStations sets ms's affordable stations and their penalties: a
// station the planner may place whose uses the inventory holds after the
// recipe's own, at 4 steps plus the worth of what it uses.
func (p *Planner) affordStations(m *sim.MakeRule, ms *makeSite) {
	rem := p.inv
	for _, u := range m.Uses {
		rem[u.Item] -= int(u.Amount)
	}
	for k, s := range ms.S {
		pr := p.tab.stationRule(s)
		if pr == nil || !p.tab.placeOK[p.tab.placeIndex(pr)] {
			continue
		}
		ok := true
		for _, u := range pr.Uses {
			if rem[u.Item] < int(u.Amount) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		ms.afford |= 1 << k
		ms.penalty[k] = 4
		for _, u := range pr.Uses {
			ms.penalty[k] += int64(u.Amount) * p.unitCost(u.Item)
		}
	}
}

// bestMakeSite returns the cheapest standing tile to make at, counting
// the stations to place there (the lowest of equal ones), or -1.
func (p *Planner) bestMakeSite(ms *makeSite) int {
	best, bestCost := -1, int64(inf)
	if p.ref {
		for u := range p.mat {
			if p.nav.Dist[u] == inf {
				continue
			}
			if c, ok := p.makeSiteCost(ms, u); ok && c < bestCost {
				best, bestCost = u, c
			}
		}
		return best
	}
	// Nearest first: the extra costs are never negative, so no tile
	// farther than the best cost so far can beat it.
	n := &p.nav
	for k := 0; ; {
		for ; k < len(n.Order); k++ {
			u := int(n.Order[k])
			if int64(n.Dist[u]) > bestCost {
				break
			}
			if c, ok := p.makeSiteCost(ms, u); ok && (c < bestCost || c == bestCost && u < best) {
				best, bestCost = u, c
			}
		}
		if k < len(n.Order) || int64(n.Radius) >= bestCost || !n.Next() {
			break
		}
	}
	return best
}

// makeSiteCost is the cost of making at standing tile u: its distance
// plus the penalties and placing of the stations missing there; false
// where u is taken or a missing station cannot be placed.
func (p *Planner) makeSiteCost(ms *makeSite, u int) (int64, bool) {
	if u != p.pos && p.obj[u] != sim.ObjNone {
		return 0, false
	}
	missing := ms.all &^ p.near[u]
	if missing&^ms.afford != 0 {
		return 0, false
	}
	c := int64(p.nav.Dist[u])
	for k := range ms.S {
		if missing&(1<<k) != 0 {
			c += ms.penalty[k]
		}
	}
	if missing != 0 {
		pc := p.placeCost(ms.S, missing, u)
		if pc < 0 {
			return 0, false
		}
		c += pc
	}
	return c, true
}

// markNear sets bit k of p.near on every tile within the 3×3 square of a
// tile of station S[k].
func (p *Planner) markNear(S []sim.Material) {
	clear(p.near)
	W, H := p.nav.w, p.nav.h
	var set sim.MaterialSet
	for _, s := range S {
		set |= 1 << s
	}
	for i, m := range p.mat {
		if !set.Has(m) {
			continue
		}
		var bits uint8
		for k, s := range S {
			if s == m {
				bits |= 1 << k
			}
		}
		x, y := i%W, i/W
		for yy := max(y-1, 0); yy <= min(y+1, H-1); yy++ {
			for xx := max(x-1, 0); xx <= min(x+1, W-1); xx++ {
				p.near[yy*W+xx] |= bits
			}
		}
	}
}

// placeableStation returns the place action of a missing station that can
// go on tile f.
func (p *Planner) placeableStation(S []sim.Material, missing uint8, f int) (sim.Action, bool) {
	if f < 0 || p.obj[f] != sim.ObjNone || f == p.pos {
		return 0, false
	}
	for k, s := range S {
		if missing&(1<<k) == 0 {
			continue
		}
		pr := p.tab.stationRule(s)
		if pr == nil || !pr.Where.Has(p.mat[f]) || !p.holds(pr.Uses) {
			continue
		}
		if i := p.tab.placeIndex(pr); i >= 0 && p.tab.placeOK[i] {
			return p.tab.placeAct[i], true
		}
	}
	return 0, false
}

// placeCost is the extra cost of facing a free spot for a missing station
// from standing tile u: none if u faces one on arrival, one step aside
// from the player's own tile, more otherwise.
// It is -1 when the player's own tile offers no way to place.
func (p *Planner) placeCost(S []sim.Material, missing uint8, u int) int64 {
	f := p.neighbour(u, p.arrival(u))
	if _, ok := p.placeableStation(S, missing, f); ok {
		return 0
	}
	if p.clearable(S, missing, f) {
		return 1
	}
	if u != p.pos {
		return 4
	}
	present := ^missing & (uint8(1)<<len(S) - 1)
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		n := p.neighbour(u, d)
		if !p.free(n) || p.near[n]&present != present {
			continue
		}
		if _, ok := p.placeableStation(S, missing, p.neighbour(n, d)); ok {
			return 1
		}
	}
	return -1
}

// clearable reports whether tile f can be mined into ground a missing
// station can go on.
func (p *Planner) clearable(S []sim.Material, missing uint8, f int) bool {
	if f < 0 || p.obj[f] != sim.ObjNone || p.matClass[p.mat[f]] != clsMine {
		return false
	}
	leaves := p.tab.collect(p.mat[f]).Leaves
	for k, s := range S {
		if missing&(1<<k) == 0 {
			continue
		}
		if pr := p.tab.stationRule(s); pr != nil && pr.Where.Has(leaves) && p.holds(pr.Uses) {
			return true
		}
	}
	return false
}

// placeStations places a missing station from the current spot, or steps
// aside to a tile that keeps the present stations in reach and faces a
// free spot for it.
func (p *Planner) placeStations(S []sim.Material, missing uint8) (sim.Action, bool) {
	f := p.neighbour(p.pos, p.facing)
	if a, ok := p.placeableStation(S, missing, f); ok {
		return a, true
	}
	if p.clearable(S, missing, f) {
		return p.tab.do, true
	}
	present := ^missing & (uint8(1)<<len(S) - 1)
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		n := p.neighbour(p.pos, d)
		if !p.free(n) || p.near[n]&present != present {
			continue
		}
		if _, ok := p.placeableStation(S, missing, p.neighbour(n, d)); ok {
			return p.tab.move[d], true
		}
	}
	return 0, false
}
