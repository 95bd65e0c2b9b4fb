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

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
