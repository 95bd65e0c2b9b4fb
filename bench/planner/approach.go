package planner

import "github.com/longcraft/longcraft/sim"

// approach finds the cheapest way to face a tile f that pred accepts
// (pred also returns an extra cost for f, at least 0): a standing tile u
// next to f and the direction to face. A blocked f (solid, or holding an
// object) is faced by turning toward it; a free one only by arriving at u
// moving toward it, since turning toward a free tile steps onto it. Deadly
// tiles are never faced: facing one would mean walking in. Of equal costs
// the lowest f wins, then the first direction (left, right, up, down).
func (p *Planner) approach(pred func(f int) (bool, int32)) (u, f int, ok bool) {
	return p.approachWithin(pred, 0, inf)
}

// approachWithin is approach for callers that want a standing tile at
// path cost limit at most (and reject any other): pred's extra costs are
// at most maxExtra. It may then stop early and report none.
//
// It scans standing tiles nearest first, settling the cost field as far
// as the cheapest way found so far (or limit) needs: the result is that of
// scanning every tile of the map (approachScan), which the reference mode
// runs.
func (p *Planner) approachWithin(pred func(f int) (bool, int32), maxExtra, limit int32) (u, f int, ok bool) {
	if p.ref {
		return p.approachScan(pred)
	}
	n := &p.nav
	r := p.tab.r
	W, H := n.w, n.h
	best, bestF, bestCost := -1, -1, int64(inf)
	bestD := sim.DirNone
	cut := int64(inf)
	if limit < inf {
		cut = int64(limit) + int64(maxExtra) + 1
	}
	for k := 0; ; {
		for ; k < len(n.Order); k++ {
			s := int(n.Order[k])
			if s != p.pos && p.obj[s] != sim.ObjNone {
				continue
			}
			ds := int64(n.Dist[s])
			if ds > bestCost {
				break // the order is by distance: nothing cheaper beyond
			}
			arr := p.arrival(s)
			x, y := s%W, s/W
			for d := sim.DirLeft; d <= sim.DirDown; d++ {
				t := -1
				switch d {
				case sim.DirLeft:
					if x > 0 {
						t = s - 1
					}
				case sim.DirRight:
					if x < W-1 {
						t = s + 1
					}
				case sim.DirUp:
					if y > 0 {
						t = s - W
					}
				case sim.DirDown:
					if y < H-1 {
						t = s + W
					}
				}
				if t < 0 {
					continue
				}
				good, extra := pred(t)
				if !good {
					continue
				}
				info := &r.Materials[p.mat[t]]
				if info.Deadly && p.obj[t] == sim.ObjNone {
					continue
				}
				c := ds + int64(extra)
				if arr != d {
					if p.obj[t] == sim.ObjNone && info.Walkable {
						continue // free: faced only by arriving toward it
					}
					c++
				}
				if c < bestCost || c == bestCost && (t < bestF || t == bestF && d < bestD) {
					best, bestF, bestCost, bestD = s, t, c, d
				}
			}
		}
		if k < len(n.Order) || int64(n.Radius) >= bestCost {
			break // every standing tile that could do better is scanned
		}
		if int64(n.Radius) >= cut {
			return -1, -1, false // nothing within limit
		}
		if !n.Next() {
			break
		}
	}
	return best, bestF, best >= 0
}

// approachScan is approach over every tile of the map, on the whole cost
// field: the reference.
func (p *Planner) approachScan(pred func(f int) (bool, int32)) (u, f int, ok bool) {
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
			if s < 0 || p.nav.Dist[s] == inf || (s != p.pos && p.obj[s] != sim.ObjNone) {
				continue
			}
			c := int64(p.nav.Dist[s]) + int64(extra)
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
