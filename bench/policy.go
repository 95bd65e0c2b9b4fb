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

// ExplorerPolicy wanders with momentum and acts on what it faces: it
// collects and fights what is in front of it, drinks when thirsty, sleeps
// when tired at night, and tries the next craft of the classic tech tree
// when it can. It is no planner, but it covers far more of the world and
// of the rules than random actions, which makes richer datasets and demos.
type ExplorerPolicy struct {
	rng sim.RNG
	dir sim.Action // the move it keeps making
}

// Reset seeds the policy.
func (p *ExplorerPolicy) Reset(seed uint64) {
	p.rng = sim.RNG{State: seed ^ 0x6578706c6f7265}
	p.dir = sim.ActMoveLeft + sim.Action(p.rng.Intn(4))
}

// Act chooses the next action.
func (p *ExplorerPolicy) Act(w *sim.World, last *sim.Outcome) sim.Action {
	inv := w.Inventory
	if w.Sleeping() {
		return sim.ActNoop
	}
	if inv(sim.ItemEnergy) < 3 || (inv(sim.ItemEnergy) < 7 && w.Daylight() < 1<<14) {
		return sim.ActSleep
	}
	tx, ty := w.Target()
	if o, ok := w.ObjectAt(tx, ty); ok && o.Kind != sim.ObjArrow && o.Kind != sim.ObjPlant {
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
	// Keep walking; turn when blocked, now and then, and never into lava.
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
