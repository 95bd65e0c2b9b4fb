package grid

import "github.com/longcraft/longcraft/sim"

// Abs is |v|. (sim keeps its own, branchless one: the core imports
// nothing of Longcraft's.)
func Abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Manhattan is the L1 distance from (ax, ay) to (bx, by).
func Manhattan(ax, ay, bx, by int) int { return Abs(ax-bx) + Abs(ay-by) }

// DirOf returns the direction of the unit offset (dx, dy): the step to
// a neighbour. Any other offset is DirNone.
func DirOf(dx, dy int) sim.Dir {
	switch {
	case dy == 0 && dx == -1:
		return sim.DirLeft
	case dy == 0 && dx == 1:
		return sim.DirRight
	case dx == 0 && dy == -1:
		return sim.DirUp
	case dx == 0 && dy == 1:
		return sim.DirDown
	}
	return sim.DirNone
}

// Toward returns the direction of the offset (dx, dy) along its longer
// axis, the horizontal one on a tie; DirNone for no offset.
func Toward(dx, dy int) sim.Dir {
	switch {
	case dx == 0 && dy == 0:
		return sim.DirNone
	case Abs(dx) >= Abs(dy) && dx > 0:
		return sim.DirRight
	case Abs(dx) >= Abs(dy):
		return sim.DirLeft
	case dy > 0:
		return sim.DirDown
	}
	return sim.DirUp
}

// Perpendicular returns the two directions across d: up and down for a
// horizontal d, left and right otherwise.
func Perpendicular(d sim.Dir) (sim.Dir, sim.Dir) {
	if d == sim.DirLeft || d == sim.DirRight {
		return sim.DirUp, sim.DirDown
	}
	return sim.DirLeft, sim.DirRight
}
