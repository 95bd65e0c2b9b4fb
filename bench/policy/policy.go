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

// makers lists the built-in policies by name.
func makers() map[string]func() Policy {
	return map[string]func() Policy{
		"random":   func() Policy { return &Random{} },
		"noop":     func() Policy { return Noop{} },
		"explorer": func() Policy { return &Explorer{} },
	}
}

// Names returns the built-in policies' names, sorted.
func Names() []string {
	var names []string
	for n := range makers() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New returns the built-in policy with the given name.
func New(name string) (Policy, error) {
	mk, ok := makers()[name]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (built-in: %v)", name, Names())
	}
	return mk(), nil
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

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
