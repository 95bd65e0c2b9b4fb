package planner

import "github.com/longcraft/longcraft/sim"

// approach finds the cheapest way to face a tile f that pred accepts
// (pred also returns an extra cost for f): a standing tile u next to f and
// the direction to face. A blocked f (solid, or holding an object) is
// faced by turning toward it; a free one only by arriving at u moving
// toward it, since turning toward a free tile steps onto it. Deadly tiles
// are never faced: facing one would mean walking in.
func (p *Planner) approach(pred func(f int) (bool, int32)) (u, f int, ok bool) {
	best, bestF, bestCost := -1, -1, int64(inf)
	r := p.tab.r
	for t := range p.mat {
		good, extra := pred(t)
		if !good {
			continue
		}
		info := &r.Materials[p.mat[t]]
		if info.Deadly && p.obj[t] == sim.ObjNone {
			continue
		}
		blocked := p.obj[t] != sim.ObjNone || !info.Walkable
		for d := sim.DirLeft; d <= sim.DirDown; d++ {
			s := p.neighbour(t, d.Opposite()) // stand there, face d
			if s < 0 || p.nav.dist[s] == inf || (s != p.pos && p.obj[s] != sim.ObjNone) {
				continue
			}
			c := int64(p.nav.dist[s]) + int64(extra)
			if p.arrival(s) != d {
				if !blocked {
					continue
				}
				c++
			}
			if c < bestCost {
				best, bestF, bestCost = s, t, c
			}
		}
	}
	return best, bestF, best >= 0
}

// act returns the action that applies a (do, place) to the faced tile f
// from standing tile u, or the step that brings the player there.
func (p *Planner) act(u, f int, a sim.Action) sim.Action {
	if u != p.pos {
		return p.stepToward(u)
	}
	d := p.dirTo(p.pos, f)
	if p.facing == d {
		return a
	}
	return p.tab.move[d] // f is blocked: this only turns
}
