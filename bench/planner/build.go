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
	first  []uint8 // per state: 0 unseen, else 1 + the first action
	queue  []int32
	search buildSearch
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
	s := p.newBuildSearch(a, d)
	facing := p.facing
	if facing == sim.DirNone {
		facing = sim.DirDown
	}
	act, ok := s.run(s.encode(p.pos, facing, 0))
	switch {
	case !ok:
		return 0, false
	case act < 4:
		return p.tab.move[act+1], true
	}
	return p.tab.placeAct[p.tab.placeIndex(pr)], true
}

// buildSearch is one search of buildStep: the pocket, its window, the
// walls still to place, and the states seen.
type buildSearch struct {
	p              *Planner
	a, b           int
	x0, y0, x1, y1 int
	ww             int // the window's width
	walls          [maxWalls]int
	n              int     // walls to place
	first          []uint8 // builder.first: 1 + the first action, 0-3 a move, 4 a place
}

// newBuildSearch lists the walls of pocket a, a+d and readies the states
// of its window.
func (p *Planner) newBuildSearch(a int, d sim.Dir) *buildSearch {
	s := &p.build.search
	*s = buildSearch{p: p, a: a, b: p.neighbour(a, d)}
	s.x0, s.y0, s.x1, s.y1 = p.buildWindow(a, d)
	s.ww = s.x1 - s.x0 + 1
	e1, e2 := grid.Perpendicular(d)
	for _, t := range [maxWalls]int{p.neighbour(a, e1), p.neighbour(a, e2), p.neighbour(s.b, e1), p.neighbour(s.b, e2),
		p.neighbour(a, d.Opposite()), p.neighbour(s.b, d)} {
		if t >= 0 && !p.solid(t) {
			s.walls[s.n] = t
			s.n++
		}
	}
	states := s.ww * (s.y1 - s.y0 + 1) * 4 << maxWalls
	if cap(p.build.first) < states {
		p.build.first = make([]uint8, states)
	}
	s.first = p.build.first[:states]
	clear(s.first)
	return s
}

// run searches breadth first from state start and returns the first
// action of the shortest way to a state with the player in the pocket
// and every wall placed; false if there is none or start is one.
func (s *buildSearch) run(start int) (act uint8, ok bool) {
	p := s.p
	full := uint8(1)<<s.n - 1
	s.first[start] = 255
	q := append(p.build.queue[:0], int32(start))
	for head := 0; head < len(q); head++ {
		st := int(q[head])
		t, f, mask := s.decode(st)
		if mask == full && (t == s.a || t == s.b) {
			p.build.queue = q
			if st == start {
				return 0, false // already done: the pocket is sealed
			}
			return s.first[st] - 1, true
		}
		q = s.moves(q, st, start, t, mask)
		q = s.placeWall(q, st, start, t, f, mask)
	}
	p.build.queue = q
	return 0, false
}

// moves queues the states of state st (tile t, walls mask) after each
// move: a step, or a turn toward a blocked tile.
func (s *buildSearch) moves(q []int32, st, start, t int, mask uint8) []int32 {
	p := s.p
	for dir := sim.DirLeft; dir <= sim.DirDown; dir++ {
		nt := p.neighbour(t, dir)
		var next int
		switch {
		case nt < 0:
			next = s.encode(t, dir, mask) // the map's edge: a turn
		case s.wallBit(nt)&mask != 0 || !s.walkable(nt) && p.solid(nt):
			next = s.encode(t, dir, mask) // blocked: a turn
		case !s.walkable(nt):
			continue // deadly or otherwise unsafe: never
		case !s.inside(nt):
			continue
		default:
			next = s.encode(nt, dir, mask)
		}
		q = s.push(q, st, start, next, uint8(dir-1))
	}
	return q
}

// placeWall queues the state of state st (tile t, facing f, walls mask)
// after placing a wall on the faced tile, if it is one still to place.
func (s *buildSearch) placeWall(q []int32, st, start, t int, f sim.Dir, mask uint8) []int32 {
	ft := s.p.neighbour(t, f)
	if ft < 0 {
		return q
	}
	if bit := s.wallBit(ft); bit != 0 && mask&bit == 0 && ft != s.a && ft != s.b {
		q = s.push(q, st, start, s.encode(t, f, mask|bit), 4)
	}
	return q
}

// push queues state next, reached from st, unless seen: its first action
// is act if st is the start, st's otherwise.
func (s *buildSearch) push(q []int32, st, start, next int, act uint8) []int32 {
	if s.first[next] != 0 {
		return q
	}
	if st == start {
		s.first[next] = act + 1
	} else {
		s.first[next] = s.first[st]
	}
	return append(q, int32(next))
}

// wallBit is the bit of tile t among the walls to place, 0 if it is none.
func (s *buildSearch) wallBit(t int) uint8 {
	for k := 0; k < s.n; k++ {
		if s.walls[k] == t {
			return 1 << k
		}
	}
	return 0
}

// inside reports whether tile t is in the window.
func (s *buildSearch) inside(t int) bool {
	W := s.p.nav.w
	x, y := t%W, t/W
	return t >= 0 && x >= s.x0 && x <= s.x1 && y >= s.y0 && y <= s.y1
}

// walkable ignores creatures: they move, and the search reruns.
func (s *buildSearch) walkable(t int) bool {
	p := s.p
	info := &p.tab.r.Materials[p.mat[t]]
	return info.Walkable && !info.Deadly && !p.blocksPocket(p.obj[t])
}

// encode is the state of the player on tile t facing f with walls mask
// placed.
func (s *buildSearch) encode(t int, f sim.Dir, mask uint8) int {
	W := s.p.nav.w
	x, y := t%W-s.x0, t/W-s.y0
	return ((y*s.ww+x)*4+int(f-1))<<maxWalls | int(mask)
}

// decode is encode's inverse.
func (s *buildSearch) decode(st int) (t int, f sim.Dir, mask uint8) {
	mask = uint8(st & (1<<maxWalls - 1))
	st >>= maxWalls
	f = sim.Dir(st%4 + 1)
	st /= 4
	return (st/s.ww+s.y0)*s.p.nav.w + st%s.ww + s.x0, f, mask
}
