package policy

import (
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Explorer is the fair, non-privileged baseline: it uses only what
// an agent observes — the 9×9 view around it (materials and the objects
// standing there), its position and facing, its inventory and vitals, the
// daylight, whether it sleeps, and the (feedback-filtered) outcome of its
// last action — and what it remembers of earlier views. Every read of the
// world goes through observe; the rest of the policy works on its own
// copy. It never reads the rules' recipes (per-seed variants change them
// and agents are not told): it tries the tech tree's actions and learns
// from what happened.
//
// It survives first: fights what attacks it, drinks, hunts cows, and
// sleeps at night in a pocket of rock it digs and seals with stone. Then
// it climbs the tech tree, stocks raw materials, visits the landmarks it
// finds in every order, and goes back to where it started after each new
// item (so an "obtain, then return" task is met whatever the item was).
type Explorer struct {
	rng  sim.RNG
	w, h int

	// This step's observation (observe fills it).
	px, py   int
	facing   sim.Dir
	inv      [sim.MaxItems]int8
	light    int32
	sleeping bool
	vobj     [sim.ViewSize * sim.ViewSize]sim.ObjectKind
	vlabel   [sim.ViewSize * sim.ViewSize]int8 // landmark label, arrow flight direction
	vripe    [sim.ViewSize * sim.ViewSize]bool
	walk     [sim.MaxMaterials]bool // static material facts of the ruleset
	deadly   [sim.MaxMaterials]bool
	extended bool
	rules    *sim.Rules // the world's, for what its object kinds are

	// Memory.
	step      int
	mem       []sim.Material // last seen material per tile; MatNone: unknown
	startX    int
	startY    int
	marks     [26][2]int16
	markMask  uint32
	plan      [8]int8 // landmark visiting order covering every permutation
	planLen   int
	planAt    int
	planMask  uint32
	had       sim.ItemSet // items ever held
	goHome    bool
	prevInv   [sim.MaxItems]int8
	lastAct   sim.Action
	failedAt  [64]uint64 // per action: inventory signature at its last failure (+1)
	doFail    [sim.MaxMaterials]uint64
	dir       sim.Action // wander momentum
	shelter   pocket
	stuck     int
	lastX     int
	lastY     int
	sinceMove int

	// Navigation: the map's shape, and the breadth-first search from the
	// player of this step.
	g      grid.Grid
	search grid.BFS
}

type pocket struct {
	valid bool
	a, b  int
	d     sim.Dir
	since int
}

const unreached = grid.Unreached

// Reset seeds the policy and forgets the last world.
func (p *Explorer) Reset(seed uint64) {
	p.rng = sim.RNG{State: seed ^ 0x6578706c6f7265}
	p.dir = sim.ActMoveLeft + sim.Action(p.rng.Intn(4))
	clear(p.mem)
	p.step = 0
	p.markMask, p.planLen, p.planAt, p.planMask = 0, 0, 0, 0
	p.had, p.goHome = 0, false
	p.prevInv = [sim.MaxItems]int8{}
	p.lastAct = sim.ActNoop
	p.failedAt = [64]uint64{}
	p.doFail = [sim.MaxMaterials]uint64{}
	p.shelter = pocket{}
	p.stuck, p.sinceMove = 0, 0
	p.lastX, p.lastY = -1, -1
}

// observe copies what the agent sees of w: the only reads of the world.
func (p *Explorer) observe(w *sim.World) {
	if p.w != w.Width() || p.h != w.Height() || p.mem == nil {
		p.w, p.h = w.Width(), w.Height()
		n := p.w * p.h
		p.mem = make([]sim.Material, n)
		p.g.Init(p.w, p.h)
	}
	r := w.Rules()
	p.rules = r
	for m := range r.Materials {
		if m < sim.MaxMaterials {
			p.walk[m], p.deadly[m] = r.Materials[m].Walkable, r.Materials[m].Deadly
		}
	}
	p.extended = len(r.Actions) > int(sim.ActMakeBridge)
	p.px, p.py = w.Player()
	p.facing = w.Facing()
	for it := range p.inv {
		p.inv[it] = int8(w.Inventory(sim.Item(it)))
	}
	p.light = w.Daylight()
	p.sleeping = w.Sleeping()
	const half = sim.ViewSize / 2
	for dy := -half; dy <= half; dy++ {
		for dx := -half; dx <= half; dx++ {
			x, y := p.px+dx, p.py+dy
			v := (dy+half)*sim.ViewSize + dx + half
			p.vobj[v], p.vlabel[v], p.vripe[v] = sim.ObjNone, 0, false
			if !w.Inside(x, y) {
				continue
			}
			p.mem[y*p.w+x] = w.Material(x, y)
			if o, ok := w.ObjectAt(x, y); ok {
				p.vobj[v] = o.Kind
				switch r.Kind(o.Kind).Looks {
				case sim.LooksLabel:
					p.vlabel[v] = o.Timer
				case sim.LooksFacing:
					p.vlabel[v] = int8(o.Facing)
				case sim.LooksRipe:
					p.vripe[v] = r.Ripe(o) // a ripe plant looks ripe
				}
			}
		}
	}
}

// objAt returns the object seen at (x, y) this step (ObjNone out of view).
func (p *Explorer) objAt(x, y int) sim.ObjectKind {
	const half = sim.ViewSize / 2
	dx, dy := x-p.px, y-p.py
	if dx < -half || dx > half || dy < -half || dy > half {
		return sim.ObjNone
	}
	return p.vobj[(dy+half)*sim.ViewSize+dx+half]
}

func (p *Explorer) inside(x, y int) bool { return x >= 0 && y >= 0 && x < p.w && y < p.h }

// matAt returns the remembered material of (x, y), MatNone if unknown.
func (p *Explorer) matAt(x, y int) sim.Material {
	if !p.inside(x, y) {
		return sim.MatNone
	}
	return p.mem[y*p.w+x]
}

// passable reports whether the player may walk onto tile i (known, safe,
// walkable, nothing seen standing there).
func (p *Explorer) passable(x, y int) bool {
	m := p.matAt(x, y)
	return m != sim.MatNone && p.walk[m] && !p.deadly[m] && p.objAt(x, y) == sim.ObjNone
}

// solid reports whether creatures cannot enter (x, y): a wall for a pocket.
func (p *Explorer) solid(x, y int) bool {
	m := p.matAt(x, y)
	return m != sim.MatNone && !p.walk[m] && !p.deadly[m] && m != sim.MatLava
}

// bfs searches from the player over the remembered map: the tiles it may
// walk onto, keeping clear of zombies seen now while it is near.
func (p *Explorer) bfs() {
	p.search.Run(&p.g, p.py*p.w+p.px, func(from, to int) bool {
		x, y := p.g.XY(to)
		return p.passable(x, y) && !(p.zombieNear(x, y) && p.search.Dist[from] < 4)
	})
}

// zombieNear reports whether a zombie seen now stands next to (x, y).
func (p *Explorer) zombieNear(x, y int) bool {
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		dx, dy := d.Offset()
		if p.melee(p.objAt(x+dx, y+dy)) {
			return true
		}
	}
	return false
}

// Target kinds for approach.
const (
	tgtMaterial = iota
	tgtPrey     // a creature hunted for food
	tgtUnknown
	tgtTile
	tgtRipe
)

// approach returns the action toward the nearest reachable tile from
// which the player can face a target: the move there, or the turn to face
// it, or act when already facing it. limit bounds the walking distance.
func (p *Explorer) approach(kind int, what int, limit int32, act sim.Action) (sim.Action, bool) {
	// The queue holds the reached tiles in breadth-first order, nearest
	// first: the first that faces a target is the nearest (a scan of the
	// whole map per call made the explorer 20× slower).
	best, bestDir := -1, sim.DirNone
scan:
	for _, u := range p.search.Order {
		if p.search.Dist[u] > limit {
			break
		}
		ux, uy := int(u)%p.w, int(u)/p.w
		for d := sim.DirLeft; d <= sim.DirDown; d++ {
			dx, dy := d.Offset()
			tx, ty := ux+dx, uy+dy // stand on u, face d
			if p.inside(tx, ty) && p.isTarget(kind, what, tx, ty) {
				best, bestDir = int(u), d
				break scan
			}
		}
	}
	if best < 0 {
		return 0, false
	}
	if best == p.py*p.w+p.px {
		if p.facing == bestDir {
			return act, true
		}
		return sim.Action(bestDir), true // the target blocks: this only turns
	}
	return sim.Action(p.firstMove(best)), true
}

func (p *Explorer) isTarget(kind, what, x, y int) bool {
	switch kind {
	case tgtMaterial:
		return p.mem[y*p.w+x] == sim.Material(what) && p.objAt(x, y) == sim.ObjNone
	case tgtPrey:
		return p.prey(p.objAt(x, y))
	case tgtRipe:
		const half = sim.ViewSize / 2
		dx, dy := x-p.px, y-p.py
		return dx >= -half && dx <= half && dy >= -half && dy <= half &&
			p.rules.Edible(p.vobj[(dy+half)*sim.ViewSize+dx+half]) && p.vripe[(dy+half)*sim.ViewSize+dx+half]
	case tgtUnknown:
		return p.mem[y*p.w+x] == sim.MatNone
	case tgtTile:
		return y*p.w+x == what
	}
	return false
}

// goTo returns the first move toward tile t, if reachable.
func (p *Explorer) goTo(x, y int) (sim.Action, bool) {
	if !p.inside(x, y) {
		return 0, false
	}
	t := y*p.w + x
	if p.search.Dist[t] == unreached || p.search.Dist[t] == 0 {
		return 0, false
	}
	return sim.Action(p.firstMove(t)), true
}

// firstMove is the direction of the first step on the search's path to
// the reached tile t.
func (p *Explorer) firstMove(t int) sim.Dir {
	return p.g.DirTo(p.search.Start, p.search.First(t))
}

// sig is a signature of the non-vital inventory: a failed attempt is
// retried only once it changed.
func (p *Explorer) sig() uint64 {
	h := uint64(1469598103934665603)
	for it := int(sim.ItemSapling); it < len(p.inv); it++ {
		h = (h ^ uint64(uint8(p.inv[it]))) * 1099511628211
	}
	return h | 1
}

// learn reads the last step: what failed (the outcome's reason when the
// feedback tells it, or nothing changing when it does not).
func (p *Explorer) learn(last *sim.Outcome) {
	if last == nil {
		return
	}
	a := p.lastAct
	changed := p.inv != p.prevInv
	failed := last.Failed()
	switch {
	case a >= sim.ActPlaceStone && int(a) < len(p.failedAt):
		// A place or make that changed nothing failed, told or not.
		if failed || !changed {
			p.failedAt[a] = p.sig()
		}
	case a == sim.ActDo && (failed || last.Kind == sim.OutNothing):
		// Mining that yields nothing: wait for a new tool.
		tx, ty := p.target()
		if m := p.matAt(tx, ty); m != sim.MatNone && !p.walk[m] && m != sim.MatWater && p.objAt(tx, ty) == sim.ObjNone {
			if last.Reason != sim.ReasonNoLuck {
				p.doFail[m] = p.toolSig()
			}
		}
	}
}

// toolSig is a signature of the tools and lights held.
func (p *Explorer) toolSig() uint64 {
	var s uint64 = 1
	for it := sim.ItemWoodPickaxe; it <= sim.ItemIronSword; it++ {
		if p.inv[it] > 0 {
			s |= 2 << it
		}
	}
	if p.extended && p.inv[sim.ItemTorch] > 0 {
		s |= 1 << 62
	}
	return s
}

func (p *Explorer) target() (int, int) {
	dx, dy := p.facing.Offset()
	return p.px + dx, p.py + dy
}

// tried reports whether action a failed with the inventory as it is.
func (p *Explorer) tried(a sim.Action) bool { return p.failedAt[a] == p.sig() }

// Act chooses the next action.
func (p *Explorer) Act(w *sim.World, last *sim.Outcome) sim.Action {
	p.observe(w)
	a := p.decide(last)
	p.prevInv, p.lastAct = p.inv, a
	p.step++
	return a
}

func (p *Explorer) decide(last *sim.Outcome) sim.Action {
	if p.step == 0 {
		p.startX, p.startY = p.px, p.py
	}
	p.learn(last)
	for it := sim.ItemSapling; it < sim.Item(len(p.inv)) && it < 64; it++ {
		if p.inv[it] > 0 && !p.had.Has(it) {
			p.had |= 1 << it
			if it != sim.ItemSapling {
				p.goHome = true
			}
		}
	}
	p.seeLandmarks()
	if p.px == p.lastX && p.py == p.lastY {
		p.sinceMove++
	} else {
		p.sinceMove = 0
	}
	p.lastX, p.lastY = p.px, p.py
	if p.sleeping {
		return sim.ActNoop
	}
	p.bfs()
	inv := &p.inv
	// Fight what stands next to the player.
	if a, ok := p.fight(); ok {
		return a
	}
	if a, ok := p.dodge(); ok {
		return a
	}
	dark := p.light < 65536*40/100
	tired := inv[sim.ItemEnergy] <= 2 || (dark && inv[sim.ItemEnergy] < 8)
	// Critical needs first.
	if inv[sim.ItemDrink] <= 3 {
		if a, ok := p.approach(tgtMaterial, int(sim.MatWater), 60, sim.ActDo); ok {
			return a
		}
	}
	if inv[sim.ItemFood] <= 3 {
		if a, ok := p.eat(60); ok {
			return a
		}
	}
	sheltered := p.shelter.valid && (p.py*p.w+p.px == p.shelter.a || p.py*p.w+p.px == p.shelter.b)
	if a, ok := p.unstuck(); ok {
		return a
	}
	if tired || (dark || sheltered && p.light < 65536*60/100) && p.shelter.valid {
		if a, ok := p.rest(tired); ok {
			return a
		}
	} else {
		p.shelter.valid = false
	}
	if tired && inv[sim.ItemEnergy] <= 1 {
		return sim.ActSleep
	}
	// Top up.
	if inv[sim.ItemDrink] <= 6 {
		if a, ok := p.approach(tgtMaterial, int(sim.MatWater), 12, sim.ActDo); ok {
			return a
		}
	}
	if inv[sim.ItemFood] <= 6 {
		if a, ok := p.eat(8); ok {
			return a
		}
	}
	if a, ok := p.opportunistic(); ok {
		return a
	}
	if a, ok := p.craft(); ok {
		return a
	}
	if a, ok := p.visit(); ok {
		return a
	}
	if p.goHome && !dark {
		if p.px == p.startX && p.py == p.startY {
			p.goHome = false
		} else if a, ok := p.goTo(p.startX, p.startY); ok {
			return a
		} else {
			p.goHome = false
		}
	}
	if a, ok := p.gather(); ok {
		return a
	}
	return p.explore()
}

// fight attacks an adjacent zombie or skeleton (or turns to it).
func (p *Explorer) fight() (sim.Action, bool) {
	turn := sim.DirNone
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		dx, dy := d.Offset()
		if p.hostile(p.objAt(p.px+dx, p.py+dy)) {
			if d == p.facing {
				return sim.ActDo, true
			}
			if turn == sim.DirNone {
				turn = d
			}
		}
	}
	if turn != sim.DirNone {
		return sim.Action(turn), true
	}
	return 0, false
}

// dodge steps out of the line of an arrow flying at the player.
func (p *Explorer) dodge() (sim.Action, bool) {
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		dx, dy := d.Offset()
		for k := 1; k <= 3; k++ {
			x, y := p.px+dx*k, p.py+dy*k
			if p.objAt(x, y) != sim.ObjArrow {
				continue
			}
			const half = sim.ViewSize / 2
			v := (y-p.py+half)*sim.ViewSize + x - p.px + half
			if sim.Dir(p.vlabel[v]) != d.Opposite() {
				continue
			}
			// Step aside, across the arrow's line.
			for e := sim.DirLeft; e <= sim.DirDown; e++ {
				if e == d || e == d.Opposite() {
					continue
				}
				ex, ey := e.Offset()
				if p.passable(p.px+ex, p.py+ey) {
					return sim.Action(e), true
				}
			}
		}
	}
	return 0, false
}

// eat hunts the nearest prey seen (a cow), or eats a ripe plant.
func (p *Explorer) eat(limit int32) (sim.Action, bool) {
	if a, ok := p.approach(tgtRipe, 0, limit, sim.ActDo); ok {
		return a, true
	}
	return p.approach(tgtPrey, 0, limit, sim.ActDo)
}

// unstuck mines its way out when no neighbour can be walked onto (a
// sealed pocket it is done with, or a tunnel it dug).
func (p *Explorer) unstuck() (sim.Action, bool) {
	if p.shelter.valid && (p.py*p.w+p.px == p.shelter.a || p.py*p.w+p.px == p.shelter.b) {
		return 0, false
	}
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		dx, dy := d.Offset()
		if p.passable(p.px+dx, p.py+dy) {
			return 0, false
		}
	}
	// Prefer the way it came in: a tile next to walkable ground.
	best := sim.DirNone
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		dx, dy := d.Offset()
		m := p.matAt(p.px+dx, p.py+dy)
		if (m != sim.MatStone && m != sim.MatTree) || p.objAt(p.px+dx, p.py+dy) != sim.ObjNone {
			continue
		}
		if best == sim.DirNone || p.passable(p.px+2*dx, p.py+2*dy) {
			best = d
		}
	}
	if best == sim.DirNone {
		return 0, false
	}
	if p.facing == best {
		return sim.ActDo, true
	}
	return sim.Action(best), true
}

// opportunistic takes what the player faces when it is worth a step.
func (p *Explorer) opportunistic() (sim.Action, bool) {
	tx, ty := p.target()
	switch k := p.objAt(tx, ty); {
	case p.prey(k):
		if p.inv[sim.ItemFood] < 7 {
			return sim.ActDo, true
		}
	case p.rules.Kind(k).Interact == sim.InteractHarvest:
		const half = sim.ViewSize / 2
		if p.vripe[(ty-p.py+half)*sim.ViewSize+tx-p.px+half] {
			return sim.ActDo, true
		}
	case k == sim.ObjNone:
		if p.matAt(tx, ty) == sim.MatWater && p.inv[sim.ItemDrink] < 9 {
			return sim.ActDo, true
		}
	}
	return 0, false
}

// near reports whether material m lies in the 3×3 square around the
// player.
func (p *Explorer) near(m sim.Material) bool {
	for y := p.py - 1; y <= p.py+1; y++ {
		for x := p.px - 1; x <= p.px+1; x++ {
			if p.matAt(x, y) == m {
				return true
			}
		}
	}
	return false
}

// placeable reports whether a station can go on the faced tile.
func (p *Explorer) placeable() bool {
	tx, ty := p.target()
	m := p.matAt(tx, ty)
	return (m == sim.MatGrass || m == sim.MatSand || m == sim.MatPath) && p.objAt(tx, ty) == sim.ObjNone
}

// makes lists the tools worth making, best last, with what they give.
var explorerMakes = [...]struct {
	act     sim.Action
	item    sim.Item
	furnace bool // needs a furnace (or, extended, an anvil) too
	ext     int8 // 0 both rulesets, 1 extended only
}{
	{sim.ActMakeWoodPickaxe, sim.ItemWoodPickaxe, false, 0},
	{sim.ActMakeWoodSword, sim.ItemWoodSword, false, 0},
	{sim.ActMakeStonePickaxe, sim.ItemStonePickaxe, false, 0},
	{sim.ActMakeStoneSword, sim.ItemStoneSword, false, 0},
	{sim.ActMakeIronIngot, sim.ItemIronIngot, true, 1},
	{sim.ActMakeIronPickaxe, sim.ItemIronPickaxe, true, 0},
	{sim.ActMakeIronSword, sim.ItemIronSword, true, 0},
	{sim.ActMakeTorch, sim.ItemTorch, false, 1},
	{sim.ActMakeCompass, sim.ItemCompass, true, 1},
	{sim.ActMakeBridge, sim.ItemBridge, false, 1},
}

// craft places stations and makes the next tools of the tech tree when
// the player stands where it can, trying each once per inventory.
func (p *Explorer) craft() (sim.Action, bool) {
	inv := &p.inv
	table := p.near(sim.MatTable)
	if table {
		for _, mk := range explorerMakes {
			if mk.ext == 1 && !p.extended {
				continue
			}
			if inv[mk.item] > 0 && !(mk.item == sim.ItemIronIngot && inv[mk.item] < 3) || p.tried(mk.act) {
				continue
			}
			if mk.item == sim.ItemTorch && inv[sim.ItemIronPickaxe] == 0 {
				continue
			}
			if mk.item == sim.ItemBridge && inv[sim.ItemWood] < 5 {
				continue
			}
			if mk.furnace && !p.near(sim.MatFurnace) && !p.near(sim.MatAnvil) {
				continue
			}
			if p.canTry(mk.item) {
				return mk.act, true
			}
		}
		// A furnace (and an anvil) by the table.
		if !p.near(sim.MatFurnace) && inv[sim.ItemStone] >= 5 && inv[sim.ItemStonePickaxe] > 0 && !p.tried(sim.ActPlaceFurnace) {
			if a, ok := p.placeHere(sim.ActPlaceFurnace); ok {
				return a, true
			}
		}
		if p.extended && p.near(sim.MatFurnace) && !p.near(sim.MatAnvil) && inv[sim.ItemIronIngot] >= 2 && !p.tried(sim.ActPlaceAnvil) {
			if a, ok := p.placeHere(sim.ActPlaceAnvil); ok {
				return a, true
			}
		}
	}
	if inv[sim.ItemSapling] > 0 && p.placeable() && p.matAt(p.target()) == sim.MatGrass && !p.tried(sim.ActPlacePlant) {
		return sim.ActPlacePlant, true
	}
	needTable := inv[sim.ItemWoodPickaxe] == 0 || inv[sim.ItemWoodSword] == 0 ||
		(inv[sim.ItemStonePickaxe] == 0 || inv[sim.ItemStoneSword] == 0) && inv[sim.ItemStone] > 0 ||
		inv[sim.ItemIron] > 0 && inv[sim.ItemIronPickaxe] == 0
	if !table && needTable && inv[sim.ItemWood] >= 1 {
		// Walk to a known table near by, else place one.
		if a, ok := p.approach(tgtMaterial, int(sim.MatTable), 20, sim.ActNoop); ok && a != sim.ActNoop {
			return a, true
		}
		if inv[sim.ItemWood] >= 3 && p.placeable() && !p.tried(sim.ActPlaceTable) {
			return sim.ActPlaceTable, true
		}
	}
	return 0, false
}

// canTry reports whether the inventory plausibly holds the makings of
// item (the classic recipes: a variant is learnt by trying).
func (p *Explorer) canTry(it sim.Item) bool {
	inv := &p.inv
	switch it {
	case sim.ItemWoodPickaxe, sim.ItemWoodSword:
		return inv[sim.ItemWood] >= 1
	case sim.ItemStonePickaxe, sim.ItemStoneSword:
		return inv[sim.ItemWood] >= 1 && inv[sim.ItemStone] >= 1
	case sim.ItemIronPickaxe, sim.ItemIronSword:
		if p.extended {
			return inv[sim.ItemWood] >= 1 && inv[sim.ItemIronIngot] >= 1 && p.near(sim.MatAnvil)
		}
		return inv[sim.ItemWood] >= 1 && inv[sim.ItemCoal] >= 1 && inv[sim.ItemIron] >= 1
	case sim.ItemIronIngot:
		return inv[sim.ItemIron] >= 1 && inv[sim.ItemCoal] >= 1 && p.near(sim.MatFurnace)
	case sim.ItemTorch:
		return inv[sim.ItemWood] >= 1 && inv[sim.ItemCoal] >= 1
	case sim.ItemCompass:
		return inv[sim.ItemIronIngot] >= 1 && inv[sim.ItemCrystal] >= 1 && p.near(sim.MatAnvil)
	case sim.ItemBridge:
		return inv[sim.ItemWood] >= 3
	}
	return false
}

// placeHere places a station on the faced tile, or steps to a tile by the
// table from which it can.
func (p *Explorer) placeHere(a sim.Action) (sim.Action, bool) {
	if p.placeable() {
		return a, true
	}
	// Step along the table so that it stays in reach and a free tile
	// comes in front.
	for d := sim.DirLeft; d <= sim.DirDown; d++ {
		dx, dy := d.Offset()
		nx, ny := p.px+dx, p.py+dy
		if !p.passable(nx, ny) {
			continue
		}
		m := p.matAt(nx+dx, ny+dy)
		if (m != sim.MatGrass && m != sim.MatSand && m != sim.MatPath) || p.objAt(nx+dx, ny+dy) != sim.ObjNone {
			continue
		}
		for y := ny - 1; y <= ny+1; y++ {
			for x := nx - 1; x <= nx+1; x++ {
				if p.matAt(x, y) == sim.MatTable && (x != nx+dx || y != ny+dy) {
					return sim.Action(d), true
				}
			}
		}
	}
	return 0, false
}

// gather walks to the material the player lacks most.
func (p *Explorer) gather() (sim.Action, bool) {
	inv := &p.inv
	ts := p.toolSig()
	try := func(m sim.Material, limit int32) (sim.Action, bool) {
		if p.doFail[m] == ts {
			return 0, false
		}
		return p.approach(tgtMaterial, int(m), limit, sim.ActDo)
	}
	pick := inv[sim.ItemWoodPickaxe] > 0
	iron := inv[sim.ItemIronPickaxe] > 0
	// What to fetch, in order, and how far to walk for it: the next
	// craft's materials first, then stocks up to full (collect tasks ask
	// for up to nine).
	wants := [...]struct {
		when  bool
		m     sim.Material
		limit int32
	}{
		{inv[sim.ItemWood] < 4 || !pick && inv[sim.ItemWood] < 6, sim.MatTree, 40},
		{pick && inv[sim.ItemStone] < 5, sim.MatStone, 40},
		{pick && inv[sim.ItemCoal] < 3, sim.MatCoal, 40},
		{inv[sim.ItemStonePickaxe] > 0 && inv[sim.ItemIron] < 3 && !iron, sim.MatIron, 60},
		{iron, sim.MatDiamond, 60},
		{iron && p.extended && inv[sim.ItemTorch] > 0, sim.MatCrystal, 60},
		{inv[sim.ItemWood] < 9, sim.MatTree, 12},
		{pick && inv[sim.ItemStone] < 9, sim.MatStone, 12},
		{pick && inv[sim.ItemCoal] < 9, sim.MatCoal, 20},
	}
	for _, w := range wants {
		if w.when {
			if a, ok := try(w.m, w.limit); ok {
				return a, true
			}
		}
	}
	if inv[sim.ItemSapling] == 0 && !p.had.Has(sim.ItemSapling) {
		tx, ty := p.target()
		if p.matAt(tx, ty) == sim.MatGrass && p.objAt(tx, ty) == sim.ObjNone && p.rng.Intn(3) == 0 {
			return sim.ActDo, true
		}
	}
	return 0, false
}

// explore heads for the nearest unknown tile, or wanders.
func (p *Explorer) explore() sim.Action {
	if p.rng.Intn(12) != 0 {
		if a, ok := p.approach(tgtUnknown, 0, 200, sim.ActNoop); ok && a != sim.ActNoop {
			return a
		}
	}
	return p.wander()
}

// wander keeps walking with momentum, never into lava.
func (p *Explorer) wander() sim.Action {
	if p.sinceMove > 0 || p.rng.Intn(8) == 0 {
		p.dir = sim.ActMoveLeft + sim.Action(p.rng.Intn(4))
	}
	for try := 0; try < 4; try++ {
		dx, dy := sim.Dir(p.dir).Offset()
		m := p.matAt(p.px+dx, p.py+dy)
		if !p.deadly[m] {
			return p.dir
		}
		p.dir = sim.ActMoveLeft + (p.dir-sim.ActMoveLeft+1)%4
	}
	return sim.ActNoop
}

// seeLandmarks remembers the landmarks in view and plans a visiting order
// that holds every order of them as a subsequence.
func (p *Explorer) seeLandmarks() {
	for v, k := range p.vobj {
		if p.rules.Kind(k).Looks != sim.LooksLabel {
			continue
		}
		l := int(p.vlabel[v])
		if l < 0 || l >= len(p.marks) {
			continue
		}
		x, y := p.px+v%sim.ViewSize-sim.ViewSize/2, p.py+v/sim.ViewSize-sim.ViewSize/2
		p.marks[l] = [2]int16{int16(x), int16(y)}
		p.markMask |= 1 << l
	}
	if p.markMask == p.planMask {
		return
	}
	// Labels seen, in order; plans for two and three (A B A; A B C A B A C).
	var ls [26]int8
	n := 0
	for l := 0; l < len(p.marks); l++ {
		if p.markMask&(1<<l) != 0 {
			ls[n] = int8(l)
			n++
		}
	}
	if n < 2 {
		return
	}
	p.planMask, p.planAt = p.markMask, 0
	switch n {
	case 2:
		p.plan, p.planLen = [8]int8{ls[0], ls[1], ls[0]}, 3
	default:
		a, b, c := ls[0], ls[1], ls[2]
		p.plan, p.planLen = [8]int8{a, b, c, a, b, a, c}, 7
	}
}

// visit walks to the next landmark of the plan.
func (p *Explorer) visit() (sim.Action, bool) {
	for p.planAt < p.planLen {
		m := p.marks[p.plan[p.planAt]]
		x, y := int(m[0]), int(m[1])
		if max(grid.Abs(x-p.px), grid.Abs(y-p.py)) <= 1 {
			p.planAt++
			continue
		}
		return p.approach(tgtTile, y*p.w+x, 200, sim.ActNoop)
	}
	return 0, false
}

// rest shelters in a two-tile pocket sealed with stone and sleeps there
// (when tired); without a pocket it reports false.
func (p *Explorer) rest(tired bool) (sim.Action, bool) {
	s := &p.shelter
	if s.valid && p.step-s.since > 80 {
		s.valid = false
	}
	if s.valid && !p.pocketOK(s.a, s.d) {
		s.valid = false
	}
	if !s.valid && !p.findPocket() {
		return 0, false
	}
	A, B, d := s.a, s.b, s.d
	ax, ay, bx, by := A%p.w, A/p.w, B%p.w, B/p.w
	dx, dy := d.Offset()
	e1x, e1y, e2x, e2y := ax-dx, ay-dy, bx+dx, by+dy
	pos := p.py*p.w + p.px
	open1, open2 := !p.solid(e1x, e1y), !p.solid(e2x, e2y)
	back := d.Opposite()
	switch pos {
	case A:
		s.since = p.step
		switch {
		case !p.passable(bx, by):
			if p.facing == d {
				return sim.ActDo, true // mine B open (or hit what stands there)
			}
			return sim.Action(d), true
		case open1 && p.facing == back:
			return p.seal(e1x, e1y), true
		case open1 || open2:
			return sim.Action(d), true
		}
	case B:
		s.since = p.step
		switch {
		case open2 && p.facing == d:
			return p.seal(e2x, e2y), true
		case open1 || open2:
			return sim.Action(back), true
		}
	case e1y*p.w + e1x:
		if !p.passable(ax, ay) && p.facing == d {
			return sim.ActDo, true
		}
		return sim.Action(d), true
	default:
		if a, ok := p.goTo(e1x, e1y); ok {
			return a, true
		}
		s.valid = false
		return 0, false
	}
	// Sealed in: drink from a water wall, sleep when tired.
	if p.inv[sim.ItemDrink] < 8 {
		for e := sim.DirLeft; e <= sim.DirDown; e++ {
			ex, ey := e.Offset()
			if p.matAt(p.px+ex, p.py+ey) == sim.MatWater {
				if p.facing == e {
					return sim.ActDo, true
				}
				return sim.Action(e), true
			}
		}
	}
	if p.inv[sim.ItemEnergy] < 9 && (tired || p.light < 65536*40/100) {
		return sim.ActSleep, true
	}
	if p.light < 65536*60/100 {
		return sim.ActNoop, true // zombies linger at dawn
	}
	// Day and rested: leave through the near end.
	p.shelter.valid = false
	return 0, false
}

// seal puts a stone on the faced open end, clearing it first.
func (p *Explorer) seal(x, y int) sim.Action {
	switch k := p.objAt(x, y); {
	case k == sim.ObjNone:
		return sim.ActPlaceStone
	case p.rules.Kind(k).Interact != sim.InteractAttack:
		return sim.ActNoop // an arrow, a landmark, a plant
	}
	return sim.ActDo
}

// pocketOK reports whether A, B=A+d make a pocket the player can enter
// from A-d and seal with the stone it holds (mining the pocket gives
// stone too).
func (p *Explorer) pocketOK(A int, d sim.Dir) bool {
	ax, ay := A%p.w, A/p.w
	dx, dy := d.Offset()
	bx, by := ax+dx, ay+dy
	e1x, e1y, e2x, e2y := ax-dx, ay-dy, bx+dx, by+dy
	if !p.inside(e1x, e1y) || !p.inside(e2x, e2y) {
		return false
	}
	pick := p.inv[sim.ItemWoodPickaxe] > 0
	stones := int(p.inv[sim.ItemStone])
	pos := p.py*p.w + p.px
	for _, t := range [2][2]int{{ax, ay}, {bx, by}} {
		m := p.matAt(t[0], t[1])
		switch {
		case p.walk[m] && !p.deadly[m]:
			if p.still(p.objAt(t[0], t[1])) {
				return false
			}
		case m == sim.MatStone && pick:
			stones++
		default:
			return false
		}
	}
	e1, e2 := grid.Perpendicular(d)
	for _, t := range [2][2]int{{ax, ay}, {bx, by}} {
		for _, e := range [2]sim.Dir{e1, e2} {
			ex, ey := e.Offset()
			if !p.solid(t[0]+ex, t[1]+ey) {
				return false
			}
		}
	}
	need := 0
	if !p.solid(e2x, e2y) {
		m := p.matAt(e2x, e2y)
		if m == sim.MatNone || !p.walk[m] && m != sim.MatWater {
			return false
		}
		need++
	}
	if !p.solid(e1x, e1y) {
		need++
		if pos != A && pos != bx+by*p.w && p.search.Dist[e1y*p.w+e1x] == unreached {
			return false
		}
	} else if pos != A && pos != by*p.w+bx {
		return false // entered from the near end only
	}
	return need <= stones
}

// findPocket picks the nearest pocket in reach.
func (p *Explorer) findPocket() bool {
	best, bestD, bestCost := -1, sim.DirNone, int32(50)
	for y := max(p.py-14, 1); y <= min(p.py+14, p.h-2); y++ {
		for x := max(p.px-14, 1); x <= min(p.px+14, p.w-2); x++ {
			A := y*p.w + x
			for d := sim.DirLeft; d <= sim.DirDown; d++ {
				dx, dy := d.Offset()
				var c int32
				switch {
				case A == p.py*p.w+p.px:
					c = 0
				case p.inside(x-dx, y-dy) && p.search.Dist[(y-dy)*p.w+x-dx] != unreached:
					c = p.search.Dist[(y-dy)*p.w+x-dx] + 1
				default:
					continue
				}
				if c >= bestCost || !p.pocketOK(A, d) {
					continue
				}
				best, bestD, bestCost = A, d, c
			}
		}
	}
	if best < 0 {
		return false
	}
	dx, dy := bestD.Offset()
	p.shelter = pocket{valid: true, a: best, b: best + dy*p.w + dx, d: bestD, since: p.step}
	return true
}
