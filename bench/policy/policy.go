// Package policy holds the built-in policies: noop, random (Crafter's
// random baseline) and explorer (a survival baseline that reads only its
// own view). A Policy chooses each action from the world and its previous
// outcome, deterministically given its seed. The registry (bench/agent)
// makes them agents by name; rollouts play them headless.
//
// It sits on sim alone: it must not import tasks, episodes, the runner or
// any host.
package policy

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

// Builtin is one built-in policy: its name, what it is for (the --agent
// help and the browser read it), and how to make one.
type Builtin struct {
	Name string
	Help string
	New  func() Policy
}

// Builtins lists the built-in policies: the one list the agent registry,
// --agent's help and the browser's Watch menu are made from. A new policy
// is a type and a line here.
func Builtins() []Builtin {
	return []Builtin{
		{"noop", "does nothing: how far standing still gets", func() Policy { return Noop{} }},
		{"random", "uniformly random actions: the floor", func() Policy { return &Random{} }},
		{"walker", "uniformly random moves: the floor of a navigation task", func() Policy { return &Walker{} }},
		{"explorer", "the fair baseline: reads only what an agent observes and remembers it", func() Policy { return &Explorer{} }},
	}
}

// Names returns the built-in policies' names, sorted.
func Names() []string {
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
	}
	sort.Strings(names)
	return names
}

// New returns the built-in policy with the given name.
func New(name string) (Policy, error) {
	for _, b := range Builtins() {
		if b.Name == name {
			return b.New(), nil
		}
	}
	return nil, fmt.Errorf("unknown policy %q (built-in: %v)", name, Names())
}

// Noop does nothing, ever: how far standing still gets.
type Noop struct{}

// Reset does nothing.
func (Noop) Reset(uint64) {}

// Act returns noop.
func (Noop) Act(*sim.World, *sim.Outcome) sim.Action { return sim.ActNoop }

// Random picks every action uniformly: Crafter's random baseline.
type Random struct{ rng sim.RNG }

// Reset seeds the policy.
func (p *Random) Reset(seed uint64) { p.rng = sim.RNG{State: seed ^ 0x72616e646f6d} }

// Act draws an action.
func (p *Random) Act(w *sim.World, _ *sim.Outcome) sim.Action {
	return sim.Action(p.rng.Intn(len(w.Rules().Actions)))
}

// Walker picks one of the four moves uniformly: the random walker a
// navigation task's floor is measured by.
type Walker struct{ rng sim.RNG }

// Reset seeds the policy.
func (p *Walker) Reset(seed uint64) { p.rng = sim.RNG{State: seed ^ 0x77616c6b} }

// Act draws a move.
func (p *Walker) Act(*sim.World, *sim.Outcome) sim.Action {
	return [4]sim.Action{sim.ActMoveLeft, sim.ActMoveRight, sim.ActMoveUp, sim.ActMoveDown}[p.rng.Intn(4)]
}
