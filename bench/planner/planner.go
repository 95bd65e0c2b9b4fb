// Package planner is Longcraft's built-in full-knowledge planner: an agent
// that sees the whole world and pursues a task goal. Task generators run it
// on a copy of each generated world as the certificate that the task can be
// solved within its budget.
//
// The planner works from the rules table alone (collect, make and place
// rules, material flags, light), so it plays the classic and the extended
// rulesets and any per-seed variant. Every step it
//
//   - computes a cost field over the map from the player (Dijkstra with
//     small integer costs: walking, tunnelling through what the held tools
//     can mine, crossing water by placing and mining back a block, detours
//     around zombies, skeletons and arrows; lava and other deadly tiles are
//     never entered), lazily: it settles tiles nearest first only as far
//     as the step's questions (the nearest water, tree, table…) need, with
//     the same distances and paths as the whole field (the reference mode,
//     Planner.ref, computes the whole field and scans the whole map; the
//     tests hold the two to the same actions);
//   - keeps the player alive: fights adjacent zombies and skeletons, drinks
//     and hunts when thirsty or hungry, and sleeps at night or when tired
//     inside a sealed two-tile pocket it builds with a couple of blocks;
//   - pursues the current leaf goal of the task's Progress: an obtain goal
//     is expanded into a bill of materials from the dependency chain
//     (task.Dependencies) and the inventory, raw materials are gathered
//     nearest first, and recipes are made at a spot whose 3×3 square holds
//     the stations, placing new stations when that is cheaper than walking
//     back to old ones.
//
// The planner is deterministic: the same world, goal and seed give the
// same actions. It never changes the world it is given.
package planner

import (
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Planner is a full-knowledge agent pursuing a task goal. It implements
// policy.Policy.
type Planner struct {
	goal task.Goal
	rng  sim.RNG
	prog *task.Progress

	tab *tables // derived from the rules; rebuilt when the rules change
	nav nav     // the cost field of the current step

	// ref makes every step compute the whole cost field and every query
	// scan the whole map: the plain algorithm, kept as the reference the
	// tests hold the lazy, nearest-first one to (same actions).
	ref bool

	// trackTiles lets the planner reread only the tiles one step can change
	// when it sees the same world one step later: Solve sets it, since it
	// alone steps its world. hitTiles lists the tiles arrows change.
	trackTiles bool
	seen       seenTiles
	hitTiles   []int32
	objTiles   []int32 // the tiles of this step's objects

	// Per-step view of the world.
	w         *sim.World
	px, py    int
	pos       int
	facing    sim.Dir
	inv       [sim.MaxItems]int
	mat       []sim.Material
	obj       []sim.ObjectKind
	skeletons [][2]int16              // where the skeletons are this step
	matClass  [sim.MaxMaterials]uint8 // passability class of each material this step
	matCost   [sim.MaxMaterials]uint8

	// The cost of entering each tile by its material alone (before
	// creatures), kept across steps: base[i] is baseCost[mat[i]] when
	// baseOK, and only tiles that changed are recomputed.
	base     []uint8
	baseCost [sim.MaxMaterials]uint8
	baseOK   bool
	next     []sim.Material // scratch: the tiles being read

	// Bill of materials of the current step.
	bom      bom
	stations stationCache

	// Scratch grids.
	near    []uint8  // station bits by tile (make spots)
	mark    []uint32 // tiles marked markGen belong to the set at hand
	markGen uint32
	marked  []int32

	markedS      sim.Material // the station marked, at step markedStep
	markedStep   uint64
	stepN        uint64                 // counts observed steps
	stationReach [sim.MaxMaterials]int8 // 0: not known this step, 1: no, 2: yes

	// Which tiles the cost field reaches, kept while reachOK: no tile
	// changed between passable and not since.
	reach     grid.Flood
	reachOK   bool
	blockers  []int32 // the tiles of objects that block, this step and the last
	blockers2 []int32
	visited   []bool

	// Episode state.
	thirsty, hungry, tired, hurt bool
	shelter                      shelterPlan
	bans                         [8]pocketBan
	nextBan                      int
	build                        builder
	prevPos                      int    // the player's tile at the previous step
	stuck                        int    // consecutive failed actions
	why                          string // what the last action was for, for traces
	ach                          achState
}

// New returns a planner for goal; call Reset before an episode.
func New(goal task.Goal) *Planner {
	p := &Planner{goal: goal}
	p.Reset(0)
	return p
}

// Reset starts an episode. The seed drives the planner's only randomness
// (wandering when nothing is left to do or it is stuck), so the same world,
// goal and seed give the same actions.
func (p *Planner) Reset(seed uint64) {
	p.rng = sim.RNG{State: seed ^ 0x706c616e6e6572}
	p.prog = nil
	p.thirsty, p.hungry, p.tired, p.hurt = false, false, false, false
	p.prevPos = -1
	p.shelter = shelterPlan{}
	p.bans = [8]pocketBan{}
	p.nextBan = 0
	p.stuck = 0
	p.ach = achState{}
	p.baseOK, p.reachOK = false, false
	p.seen = seenTiles{}
	for i := range p.visited {
		p.visited[i] = false
	}
}

// Solver certifies tasks one after another, reusing one planner and its
// scratch grids (a fresh planner per task measured 10% slower on
// BenchmarkCertify). It is not safe for concurrent use: give each worker
// its own. The zero value is ready.
type Solver struct{ p *Planner }

// Solve plays goal on w (which it modifies: pass a clone) for at most
// budget steps and reports whether the goal was reached and after how many
// steps: a task.Certifier.
func Solve(w *sim.World, goal task.Goal, budget int) (reached bool, steps int) {
	var s Solver
	return s.Solve(w, goal, budget)
}

// Solve is the package's Solve with the solver's planner, restarted by
// Reset, so that every call plays as a fresh planner would.
func (s *Solver) Solve(w *sim.World, goal task.Goal, budget int) (reached bool, steps int) {
	if s.p == nil {
		s.p = New(goal)
	}
	p := s.p
	p.goal = goal
	p.Reset(w.Seed())
	p.trackTiles = true // nothing else steps or edits w meanwhile
	prog := task.NewProgress(goal, w)
	if prog.Update(w) {
		return true, 0
	}
	var out sim.Outcome
	var last *sim.Outcome
	for steps < budget && !w.Done() {
		a := p.Act(w, last)
		out = w.Step(a)
		last = &out
		steps++
		if prog.Update(w) {
			return true, steps
		}
	}
	return false, steps
}

// Act chooses the next action. It reads w and never changes it.
func (p *Planner) Act(w *sim.World, last *sim.Outcome) sim.Action {
	p.setup(w)
	if p.prog == nil {
		p.prog = task.NewProgress(p.goal, w)
	} else {
		p.prog.Update(w)
	}
	if last != nil && last.Failed() {
		p.stuck++
	} else {
		p.stuck = 0
	}
	if w.Sleeping() && w.Inventory(sim.ItemEnergy) < int(p.tab.r.Items[sim.ItemEnergy].Max) {
		return p.tab.sleep // the world keeps the player asleep whatever it does
	}
	p.observe(w)
	a := p.decide()
	return p.safe(a)
}

// setup (re)builds the tables derived from the rules and the scratch
// grids sized to the map.
func (p *Planner) setup(w *sim.World) {
	if p.tab == nil || p.tab.r != w.Rules() {
		p.tab = newTables(w.Rules())
		p.ach = achState{}
		p.baseOK = false
	}
	n := w.Width() * w.Height()
	if len(p.mat) != n || p.nav.w != w.Width() {
		p.mat = make([]sim.Material, n)
		p.next = make([]sim.Material, n)
		p.base = make([]uint8, n)
		p.baseOK = false
		p.obj = make([]sim.ObjectKind, n)
		p.objTiles, p.hitTiles, p.seen = p.objTiles[:0], p.hitTiles[:0], seenTiles{}
		p.near = make([]uint8, n)
		p.mark = make([]uint32, n)
		p.reachOK = false
		p.visited = make([]bool, n)
		p.nav.init(w.Width(), w.Height())
	}
	p.w = w
}

// observe copies what this step needs from the world and computes the
// cost field from the player.
func (p *Planner) observe(w *sim.World) {
	p.px, p.py = w.Player()
	p.pos = p.py*w.Width() + p.px
	p.facing = w.Facing()
	r := p.tab.r
	for i := range r.Items {
		p.inv[i] = w.Inventory(sim.Item(i))
	}
	W := w.Width()
	p.classify()
	p.readTiles(w)
	// Mark the 9×9 view around the player as visited.
	for y := max(p.py-4, 0); y <= min(p.py+4, w.Height()-1); y++ {
		for x := max(p.px-4, 0); x <= min(p.px+4, W-1); x++ {
			p.visited[y*W+x] = true
		}
	}
	for i := range p.stations {
		p.stations[i] = -1
	}
	p.stationReach = [sim.MaxMaterials]int8{}
	p.stepN++
	p.buildCosts(w)
	// Turning back costs a little more, so that a path does not flip
	// between two equal ways as creatures move.
	if p.prevPos >= 0 && p.prevPos < len(p.nav.cost) && p.prevPos != p.pos && p.nav.cost[p.prevPos] != 0 {
		p.nav.cost[p.prevPos] = min(p.nav.cost[p.prevPos]+reverseCost, maxCost)
	}
	if p.ref {
		p.nav.run(p.pos)
	} else {
		p.nav.Reset(p.pos) // settled on demand by the step's queries
	}
	p.prevPos = p.pos
}

// decide picks the action of this step: survival first, then the goal.
func (p *Planner) decide() sim.Action {
	if a, ok := p.fight(); ok {
		p.why = "fight"
		return a
	}
	p.updateNeeds()
	if p.stuck > stuckLimit {
		p.stuck = 0
		p.shelter.valid = false
		p.why = "unstick"
		return p.wander()
	}
	// At night a sealed pocket beats a meal: starving costs a health
	// point every few dozen steps, a zombie two every few steps.
	dark := p.night()
	if p.inv[sim.ItemDrink] <= criticalAt && (!dark || p.inv[sim.ItemHealth] >= braveAt || p.inv[sim.ItemDrink] == 0) {
		if a, ok := p.drinkWithin(inf); ok {
			p.why = "drink (critical)"
			return a
		}
	}
	if p.inv[sim.ItemFood] <= criticalAt && (!dark || p.inv[sim.ItemHealth] >= braveAt && p.inv[sim.ItemFood] == 0) {
		if a, ok := p.eatWithin(inf); ok {
			p.why = "eat (critical)"
			return a
		}
	}
	// Drink and eat before turning in, if it is close; top up before
	// dusk. After dark only a sealed pocket is safe.
	if p.thirsty {
		if a, ok := p.drinkWithin(errandNear); ok {
			p.why = "drink (near)"
			return a
		}
	}
	if p.hungry {
		if a, ok := p.eatWithin(errandNear); ok {
			p.why = "eat (near)"
			return a
		}
	}
	if p.tired || p.hurt || dark {
		if a, ok := p.rest(); ok {
			p.why = "rest"
			return a
		}
	}
	if p.thirsty {
		if a, ok := p.drinkWithin(inf); ok {
			p.why = "drink"
			return a
		}
	}
	if p.hungry {
		if a, ok := p.eatWithin(inf); ok {
			p.why = "eat"
			return a
		}
	}
	if a, ok := p.opportunistic(); ok {
		p.why = "opportunistic"
		return a
	}
	g, ok := p.prog.Current()
	if !ok {
		p.why = "idle"
		return p.idle()
	}
	if a, ok := p.pursue(&g); ok {
		p.why = "goal"
		return a
	}
	p.why = "explore"
	return p.explore()
}

// pursue returns the next action toward leaf goal g.
func (p *Planner) pursue(g *task.Goal) (sim.Action, bool) {
	switch g.Kind {
	case task.KindObtain:
		it, ok := p.tab.r.ItemByName(g.Item)
		if !ok {
			return 0, false
		}
		return p.obtain(it, g.Count)
	case task.KindReach:
		if !p.w.Inside(g.X, g.Y) {
			return 0, false
		}
		return p.goTo(g.Y*p.w.Width() + g.X)
	case task.KindWaypoints:
		lx, ly, ok := p.prog.Landmark(g.Order[0])
		if !ok {
			return 0, false
		}
		return p.goNear(lx, ly)
	case task.KindSurvive:
		return p.idle(), true
	case task.KindAchievements:
		return p.achievements()
	}
	return 0, false
}

// stuckLimit is how many failed actions in a row make the planner take a
// random step.
const stuckLimit = 12

// safe vetoes a move onto a deadly tile, whatever chose it.
func (p *Planner) safe(a sim.Action) sim.Action {
	info := &p.tab.r.Actions[a]
	if info.Kind != sim.ActionMove {
		return a
	}
	dx, dy := info.Dir.Offset()
	x, y := p.px+dx, p.py+dy
	if !p.w.Inside(x, y) {
		return a
	}
	i := y*p.w.Width() + x
	if p.tab.r.Materials[p.mat[i]].Deadly && p.obj[i] == sim.ObjNone {
		return p.tab.noop
	}
	return a
}
