package bench

import (
	"fmt"
	"sort"

	"github.com/longcraft/longcraft/sim"
)

// Policy is a built-in agent: it chooses each action from the world and
// the outcome of its previous action. Policies are deterministic given
// their seed; Reset starts an episode.
type Policy interface {
	Reset(seed uint64)
	Act(w *sim.World, last *sim.Outcome) sim.Action
}

// policyMakers lists the built-in policies by name.
func policyMakers() map[string]func() Policy {
	return map[string]func() Policy{
		"random":   func() Policy { return &RandomPolicy{} },
		"noop":     func() Policy { return NoopPolicy{} },
		"explorer": func() Policy { return &ExplorerPolicy{} },
	}
}

// PolicyNames returns the built-in policies' names, sorted.
func PolicyNames() []string {
	var names []string
	for n := range policyMakers() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewPolicy returns the built-in policy with the given name.
func NewPolicy(name string) (Policy, error) {
	mk, ok := policyMakers()[name]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (built-in: %v)", name, PolicyNames())
	}
	return mk(), nil
}

// NoopPolicy does nothing, ever: how far standing still gets.
type NoopPolicy struct{}

// Reset does nothing.
func (NoopPolicy) Reset(uint64) {}

// Act returns noop.
func (NoopPolicy) Act(*sim.World, *sim.Outcome) sim.Action { return sim.ActNoop }

// RandomPolicy picks every action uniformly: Crafter's random baseline.
type RandomPolicy struct{ rng sim.RNG }

// Reset seeds the policy.
func (p *RandomPolicy) Reset(seed uint64) { p.rng = sim.RNG{State: seed ^ 0x72616e646f6d} }

// Act draws an action.
func (p *RandomPolicy) Act(w *sim.World, _ *sim.Outcome) sim.Action {
	return sim.Action(p.rng.Intn(len(w.Rules().Actions)))
}

// ExplorerPolicy is the fair, non-privileged baseline: it uses only what
// an agent observes (the 9×9 view around it, its position, inventory,
// daylight and the outcome of its last action). It remembers where it has
// seen water and resources, heads back to them when thirsty or when the
// next craft needs them, wanders with momentum otherwise, collects and
// fights what it faces, follows failure feedback (a missing table is
// placed, a missing tool is made next), sleeps when tired at night, and
// tries the next craft of the tech tree when it can.
type ExplorerPolicy struct {
	rng  sim.RNG
	dir  sim.Action     // the move it keeps making
	seen []sim.Material // last seen material per tile (MatNone: unknown)
	w, h int
	want sim.Item // an item the last failure said was missing
}

// Reset seeds the policy and forgets the last world.
func (p *ExplorerPolicy) Reset(seed uint64) {
	p.rng = sim.RNG{State: seed ^ 0x6578706c6f7265}
	p.dir = sim.ActMoveLeft + sim.Action(p.rng.Intn(4))
	clear(p.seen)
	p.want = 0
}

// look records the materials of the 9×9 view.
func (p *ExplorerPolicy) look(w *sim.World) {
	if p.w != w.Width() || p.h != w.Height() {
		p.w, p.h = w.Width(), w.Height()
		p.seen = make([]sim.Material, p.w*p.h)
	}
	px, py := w.Player()
	for y := py - sim.ViewSize/2; y <= py+sim.ViewSize/2; y++ {
		for x := px - sim.ViewSize/2; x <= px+sim.ViewSize/2; x++ {
			if w.Inside(x, y) {
				p.seen[y*p.w+x] = w.Material(x, y)
			}
		}
	}
}

// nearest returns the remembered tile of m closest to the player.
func (p *ExplorerPolicy) nearest(w *sim.World, m sim.Material) (x, y int, ok bool) {
	px, py := w.Player()
	best := -1
	for i, s := range p.seen {
		if s != m {
			continue
		}
		d := abs(i%p.w-px) + abs(i/p.w-py)
		if best < 0 || d < best {
			best, x, y = d, i%p.w, i/p.w
		}
	}
	return x, y, best >= 0
}

// toward returns a move toward (x, y), along the longer axis (the other
// one if that way is blocked or deadly).
func (p *ExplorerPolicy) toward(w *sim.World, x, y int) sim.Action {
	px, py := w.Player()
	dx, dy := x-px, y-py
	horiz := sim.ActMoveRight
	if dx < 0 {
		horiz = sim.ActMoveLeft
	}
	vert := sim.ActMoveDown
	if dy < 0 {
		vert = sim.ActMoveUp
	}
	first, second := horiz, vert
	if abs(dy) > abs(dx) {
		first, second = vert, horiz
	}
	if dx == 0 || dy == 0 {
		second = first
	}
	if !p.free(w, first) && p.free(w, second) {
		return second
	}
	return first
}

// free reports whether a move would step onto a safe free tile.
func (p *ExplorerPolicy) free(w *sim.World, move sim.Action) bool {
	dx, dy := w.Rules().Actions[move].Dir.Offset()
	px, py := w.Player()
	m := w.Material(px+dx, py+dy)
	_, occupied := w.ObjectAt(px+dx, py+dy)
	return !occupied && w.Rules().Materials[m].Walkable
}

// Act chooses the next action.
func (p *ExplorerPolicy) Act(w *sim.World, last *sim.Outcome) sim.Action {
	p.look(w)
	inv := w.Inventory
	if w.Sleeping() {
		return sim.ActNoop
	}
	if last != nil && last.Failed() {
		p.learn(last)
	}
	if inv(sim.ItemEnergy) < 3 || (inv(sim.ItemEnergy) < 7 && w.Daylight() < 1<<14) {
		return sim.ActSleep
	}
	tx, ty := w.Target()
	if o, ok := w.ObjectAt(tx, ty); ok && o.Kind != sim.ObjArrow && o.Kind != sim.ObjPlant && o.Kind != sim.ObjLandmark {
		return sim.ActDo
	}
	switch w.Material(tx, ty) {
	case sim.MatTree, sim.MatCoal:
		return sim.ActDo
	case sim.MatStone:
		if inv(sim.ItemWoodPickaxe) > 0 && inv(sim.ItemStone) < 5 {
			return sim.ActDo
		}
	case sim.MatIron:
		if inv(sim.ItemStonePickaxe) > 0 {
			return sim.ActDo
		}
	case sim.MatDiamond:
		if inv(sim.ItemIronPickaxe) > 0 {
			return sim.ActDo
		}
	case sim.MatWater:
		if inv(sim.ItemDrink) < 8 {
			return sim.ActDo
		}
	}
	if a, ok := p.craft(w); ok {
		return a
	}
	// Head for what it needs and remembers: water when thirsty, the
	// material of the next craft otherwise.
	need := sim.MatNone
	switch {
	case inv(sim.ItemDrink) < 5:
		need = sim.MatWater
	case inv(sim.ItemWood) < 2 && inv(sim.ItemWoodPickaxe) == 0:
		need = sim.MatTree
	case inv(sim.ItemWoodPickaxe) > 0 && inv(sim.ItemStone) < 2:
		need = sim.MatStone
	case inv(sim.ItemStonePickaxe) > 0 && inv(sim.ItemIron) == 0:
		need = sim.MatIron
	}
	if need != sim.MatNone {
		if x, y, ok := p.nearest(w, need); ok {
			if a := p.toward(w, x, y); !p.deadly(w, a) {
				return a
			}
		}
	}
	// Otherwise keep walking; turn when blocked, now and then, and never
	// into lava.
	if (last != nil && last.Kind == sim.OutBlocked) || p.rng.Intn(8) == 0 {
		p.dir = sim.ActMoveLeft + sim.Action(p.rng.Intn(4))
	}
	for try := 0; try < 4 && p.deadly(w, p.dir); try++ {
		p.dir = sim.ActMoveLeft + (p.dir-sim.ActMoveLeft+1)%4
	}
	if p.deadly(w, p.dir) {
		return sim.ActNoop
	}
	return p.dir
}

// learn reads a failure's feedback: a missing station or tool becomes the
// next thing to make.
func (p *ExplorerPolicy) learn(o *sim.Outcome) {
	for it := sim.ItemWoodPickaxe; it <= sim.ItemIronSword; it++ {
		if o.Missing.Has(it) {
			p.want = it
			return
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// deadly reports whether the move lands on a deadly tile.
func (p *ExplorerPolicy) deadly(w *sim.World, move sim.Action) bool {
	dx, dy := w.Rules().Actions[move].Dir.Offset()
	px, py := w.Player()
	return w.Rules().Materials[w.Material(px+dx, py+dy)].Deadly
}

// craft returns the next step of the classic tech tree that the inventory
// and surroundings allow.
func (p *ExplorerPolicy) craft(w *sim.World) (sim.Action, bool) {
	inv := w.Inventory
	near := func(m sim.Material) bool {
		px, py := w.Player()
		for y := py - 1; y <= py+1; y++ {
			for x := px - 1; x <= px+1; x++ {
				if w.Material(x, y) == m {
					return true
				}
			}
		}
		return false
	}
	table, furnace := near(sim.MatTable), near(sim.MatFurnace)
	// A tool that feedback said was missing comes first.
	if p.want != 0 && inv(p.want) == 0 && table {
		for i, a := range w.Rules().Actions {
			if a.Kind == sim.ActionMake && w.Rules().Make[a.Recipe].Gives.Item == p.want {
				p.want = 0
				return sim.Action(i), true
			}
		}
	}
	switch {
	case !table && inv(sim.ItemWood) >= 3 && inv(sim.ItemWoodPickaxe) == 0:
		return sim.ActPlaceTable, true
	case table && inv(sim.ItemWood) >= 1 && inv(sim.ItemWoodPickaxe) == 0:
		return sim.ActMakeWoodPickaxe, true
	case table && inv(sim.ItemWood) >= 1 && inv(sim.ItemWoodSword) == 0:
		return sim.ActMakeWoodSword, true
	case table && inv(sim.ItemWood) >= 1 && inv(sim.ItemStone) >= 1 && inv(sim.ItemStonePickaxe) == 0:
		return sim.ActMakeStonePickaxe, true
	case table && !furnace && inv(sim.ItemStone) >= 4 && inv(sim.ItemStonePickaxe) > 0:
		return sim.ActPlaceFurnace, true
	case table && furnace && inv(sim.ItemWood) >= 1 && inv(sim.ItemCoal) >= 1 && inv(sim.ItemIron) >= 1 && inv(sim.ItemIronPickaxe) == 0:
		return sim.ActMakeIronPickaxe, true
	case inv(sim.ItemSapling) > 0 && p.rng.Intn(4) == 0:
		return sim.ActPlacePlant, true
	}
	return 0, false
}
