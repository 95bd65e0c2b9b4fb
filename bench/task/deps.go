package task

import (
	"fmt"
	"sort"

	"github.com/longcraft/longcraft/sim"
)

// Node is a thing a task may need: an item in the inventory, or a station
// (a placed material) in reach.
type Node struct {
	Item    sim.Item
	Station sim.Material // not MatNone for a station
}

// Step is one rule in a dependency chain: how Node is produced, and what
// producing it needs first.
type Step struct {
	Node        Node
	Depth       int // hops from the bare world: wood is 1, a table 2
	Achievement sim.Achievement
	// Exactly one of the rules below is set.
	Collect *sim.CollectRule
	Make    *sim.MakeRule
	Place   *sim.PlaceRule
	Needs   []Node // items used or held, stations nearby, light
}

// Plan is an item's dependency chain, derived from the rules table: every
// rule that must be applied at least once to obtain the item, shallowest
// first, the item's own rule last.
type Plan struct {
	Target Node
	Depth  int
	Steps  []Step
}

// Achievements returns the plan's steps' achievements: the milestones of
// an obtain task.
func (p *Plan) Achievements() []sim.Achievement {
	out := make([]sim.Achievement, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = s.Achievement
	}
	return out
}

// deps derives dependency chains from a ruleset. Natural materials are
// depth 0: the generator put them in the world.
type deps struct {
	r     *sim.Rules
	best  map[Node]*Step
	state map[Node]int // 0 unseen, 1 in progress, 2 done
}

// Dependencies returns the plan for obtaining item under rules, or an
// error if no rule makes it or every way to it is circular.
func Dependencies(r *sim.Rules, item sim.Item) (*Plan, error) {
	d := &deps{r: r, best: map[Node]*Step{}, state: map[Node]int{}}
	target := Node{Item: item}
	s := d.solve(target)
	if s == nil {
		return nil, fmt.Errorf("dependencies of %s: no way to obtain it under the %s rules", r.Items[item].Name, r.Name)
	}
	p := &Plan{Target: target, Depth: s.Depth}
	seen := map[Node]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		st := d.best[n]
		if st == nil { // natural
			return
		}
		for _, m := range st.Needs {
			walk(m)
		}
		p.Steps = append(p.Steps, *st)
	}
	walk(target)
	sort.SliceStable(p.Steps, func(i, j int) bool { return p.Steps[i].Depth < p.Steps[j].Depth })
	return p, nil
}

// natural reports whether world generation lays material m down.
func (d *deps) natural(m sim.Material) bool { return d.r.Materials[m].Natural }

// solve returns the shallowest step producing n (nil for a natural
// station, or if n cannot be produced).
func (d *deps) solve(n Node) *Step {
	switch d.state[n] {
	case 1:
		return nil // circular
	case 2:
		return d.best[n]
	}
	d.state[n] = 1
	var best *Step
	consider := func(s Step) {
		depth := 0
		for _, m := range s.Needs {
			dm, ok := d.depth(m)
			if !ok {
				return
			}
			depth = max(depth, dm)
		}
		s.Depth = depth + 1
		if best == nil || s.Depth < best.Depth {
			best = &s
		}
	}
	r := d.r
	if n.Station != sim.MatNone {
		for i := range r.Place {
			p := &r.Place[i]
			if p.Material == n.Station {
				consider(Step{Node: n, Place: p, Achievement: p.Achievement, Needs: itemNodes(p.Uses)})
			}
		}
	} else {
		for i := range r.Collect {
			c := &r.Collect[i]
			if c.Receive.Item != n.Item {
				continue
			}
			needs := itemNodes(c.Require)
			if !d.natural(c.Material) {
				needs = append(needs, Node{Station: c.Material})
			}
			if c.Light {
				needs = append(needs, d.lightNode())
			}
			consider(Step{Node: n, Collect: c, Achievement: c.Achievement, Needs: needs})
		}
		for i := range r.Make {
			m := &r.Make[i]
			if m.Gives.Item != n.Item {
				continue
			}
			needs := itemNodes(m.Uses)
			for _, st := range m.Nearby {
				needs = append(needs, Node{Station: st})
			}
			consider(Step{Node: n, Make: m, Achievement: m.Achievement, Needs: needs})
		}
	}
	d.state[n] = 2
	d.best[n] = best
	return best
}

// lightNode is the cheaper of the ruleset's two light sources.
func (d *deps) lightNode() Node {
	item := Node{Item: d.r.LightItem}
	if d.r.LightMaterial == sim.MatNone {
		return item
	}
	station := Node{Station: d.r.LightMaterial}
	di, okI := d.depth(item)
	ds, okS := d.depth(station)
	if okS && (!okI || ds < di) {
		return station
	}
	return item
}

// depth returns n's depth: 0 for natural stations.
func (d *deps) depth(n Node) (int, bool) {
	if n.Station != sim.MatNone && d.natural(n.Station) {
		return 0, true
	}
	s := d.solve(n)
	if s == nil {
		return 0, false
	}
	return s.Depth, true
}

func itemNodes(amounts []sim.ItemAmount) []Node {
	out := make([]Node, len(amounts))
	for i, a := range amounts {
		out[i] = Node{Item: a.Item}
	}
	return out
}
