package planner

import (
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Building a pocket in the open. The player faces a free tile only by
// walking toward it, so a side wall of a pocket cannot be placed from
// inside: it is placed from the tile beyond, reached by walking around.
// buildStep finds the shortest sequence of moves and placements that ends
// with the player in the pocket and every wall in place, by breadth-first
// search over (position, facing, walls placed) in a small window around
// the pocket, and returns its first action. Creatures are ignored: the
// search runs again every step.

// buildMargin is how far around the pocket's walls the search may walk.
const buildMargin = 2

// maxWalls bounds the walls of a pocket: four sides and two ends.
const maxWalls = 6

// builder is the scratch space of the search.
type builder struct {
	first []uint8 // per state: 0 unseen, else 1 + the first action
	queue []int32
}

// buildWindow returns the window around pocket a, a+d.
func (p *Planner) buildWindow(a int, d sim.Dir) (x0, y0, x1, y1 int) {
	W, H := p.nav.w, p.nav.h
	b := p.neighbour(a, d)
	ax, ay, bx, by := a%W, a/W, b%W, b/W
	m := 1 + buildMargin // walls, then the margin
	x0, y0 = max(min(ax, bx)-m, 0), max(min(ay, by)-m, 0)
	x1, y1 = min(max(ax, bx)+m, W-1), min(max(ay, by)+m, H-1)
	return
}

// nearPocket reports whether the player is inside the build window.
func (p *Planner) nearPocket(a int, d sim.Dir) bool {
	x0, y0, x1, y1 := p.buildWindow(a, d)
	return p.px >= x0 && p.px <= x1 && p.py >= y0 && p.py <= y1
}

// buildStep returns the first action of the shortest way to stand in
// pocket a, a+d with all its open sides and ends walled, or false if the
// player is outside the window or there is no way.
func (p *Planner) buildStep(a int, d sim.Dir, pr *sim.PlaceRule) (sim.Action, bool) {
	if pr == nil || !p.nearPocket(a, d) {
		return 0, false
	}
	W := p.nav.w
	b := p.neighbour(a, d)
	x0, y0, x1, y1 := p.buildWindow(a, d)
	ww, wh := x1-x0+1, y1-y0+1
	// The walls to place.
	var walls [maxWalls]int
	n := 0
	e1, e2 := grid.Perpendicular(d)
	for _, t := range [maxWalls]int{p.neighbour(a, e1), p.neighbour(a, e2), p.neighbour(b, e1), p.neighbour(b, e2),
		p.neighbour(a, d.Opposite()), p.neighbour(b, d)} {
		if t >= 0 && !p.solid(t) {
			walls[n] = t
			n++
		}
	}
	full := uint8(1)<<n - 1
	wallBit := func(t int) uint8 {
		for k := 0; k < n; k++ {
			if walls[k] == t {
				return 1 << k
			}
		}
		return 0
	}
	inside := func(t int) bool {
		x, y := t%W, t/W
		return t >= 0 && x >= x0 && x <= x1 && y >= y0 && y <= y1
	}
	// walkable ignores creatures: they move, and the search reruns.
	walkable := func(t int) bool {
		info := &p.tab.r.Materials[p.mat[t]]
		return info.Walkable && !info.Deadly && !p.blocksPocket(p.obj[t])
	}
	states := ww * wh * 4 << maxWalls
	if cap(p.build.first) < states {
		p.build.first = make([]uint8, states)
	}
	first := p.build.first[:states]
	clear(first)
	encode := func(t int, f sim.Dir, mask uint8) int {
		x, y := t%W-x0, t/W-y0
		return ((y*ww+x)*4+int(f-1))<<maxWalls | int(mask)
	}
	decode := func(s int) (t int, f sim.Dir, mask uint8) {
		mask = uint8(s & (1<<maxWalls - 1))
		s >>= maxWalls
		f = sim.Dir(s%4 + 1)
		s /= 4
		return (s/ww+y0)*W + s%ww + x0, f, mask
	}
	facing := p.facing
	if facing == sim.DirNone {
		facing = sim.DirDown
	}
	start := encode(p.pos, facing, 0)
	first[start] = 255
	q := append(p.build.queue[:0], int32(start))
	placeAct := p.tab.placeAct[p.tab.placeIndex(pr)]
	for head := 0; head < len(q); head++ {
		s := int(q[head])
		t, f, mask := decode(s)
		if mask == full && (t == a || t == b) {
			p.build.queue = q
			if s == start {
				return 0, false // already done: the pocket is sealed
			}
			switch act := first[s] - 1; {
			case act < 4:
				return p.tab.move[act+1], true
			default:
				return placeAct, true
			}
		}
		// Moves (or turns toward a blocked tile).
		for dir := sim.DirLeft; dir <= sim.DirDown; dir++ {
			nt := p.neighbour(t, dir)
			var next int
			switch {
			case nt < 0:
				next = encode(t, dir, mask) // the map's edge: a turn
			case wallBit(nt)&mask != 0 || !walkable(nt) && p.solid(nt):
				next = encode(t, dir, mask) // blocked: a turn
			case !walkable(nt):
				continue // deadly or otherwise unsafe: never
			case !inside(nt):
				continue
			default:
				next = encode(nt, dir, mask)
			}
			if first[next] == 0 {
				if s == start {
					first[next] = uint8(dir-1) + 1
				} else {
					first[next] = first[s]
				}
				q = append(q, int32(next))
			}
		}
		// Place a wall on the faced tile.
		if ft := p.neighbour(t, f); ft >= 0 {
			if bit := wallBit(ft); bit != 0 && mask&bit == 0 && ft != a && ft != b {
				next := encode(t, f, mask|bit)
				if first[next] == 0 {
					if s == start {
						first[next] = 4 + 1
					} else {
						first[next] = first[s]
					}
					q = append(q, int32(next))
				}
			}
		}
	}
	p.build.queue = q
	return 0, false
}
