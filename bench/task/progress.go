package task

import (
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Progress follows a goal through an episode: a sequence (and waypoints)
// is a list of leaf goals reached one after another; a leaf counts only
// once the one before it has.
type Progress struct {
	leaves    []Goal // obtain, reach, landmark visit (KindWaypoints with one label), survive, achievements
	stage     int    // first leaf not yet reached
	stageFrom int    // step at which the current leaf began (for survive)
	landmarks map[int][2]int
	reachedAt int // step at which the whole goal was reached; -1 before
}

// NewProgress starts following g in world w (positions of landmarks are
// read from w's objects now).
func NewProgress(g Goal, w *sim.World) *Progress {
	p := new(Progress)
	p.Reset(g, w)
	return p
}

// Reset starts following g in world w again, in p's own memory: a host
// that plays episode after episode allocates nothing for free play.
func (p *Progress) Reset(g Goal, w *sim.World) {
	leaves, marks := p.leaves[:0], p.landmarks
	clear(marks)
	*p = Progress{reachedAt: -1, stageFrom: w.StepCount()}
	p.leaves = flatten(g, leaves)
	for _, o := range w.Objects() {
		if o.Kind == sim.ObjLandmark {
			if marks == nil {
				marks = map[int][2]int{}
			}
			marks[int(o.Timer)] = [2]int{int(o.X), int(o.Y)}
		}
	}
	p.landmarks = marks
	p.Update(w)
}

// CopyFrom makes p a copy of src in p's own memory (so that a Reset of
// either leaves the other as it was).
func (p *Progress) CopyFrom(src *Progress) {
	leaves, marks := append(p.leaves[:0], src.leaves...), p.landmarks
	clear(marks)
	for k, v := range src.landmarks {
		if marks == nil {
			marks = make(map[int][2]int, len(src.landmarks))
		}
		marks[k] = v
	}
	*p = *src
	p.leaves, p.landmarks = leaves, marks
}

// flatten appends g's leaves to out in order.
func flatten(g Goal, out []Goal) []Goal {
	switch g.Kind {
	case KindSequence:
		for _, c := range g.Goals {
			out = flatten(c, out)
		}
	case KindWaypoints:
		for _, l := range g.Order {
			out = append(out, Goal{Kind: KindWaypoints, Order: []int{l}})
		}
	default:
		out = append(out, g)
	}
	return out
}

// Update checks w after a step and advances through the leaves it
// satisfies; it reports whether the whole goal is reached.
func (p *Progress) Update(w *sim.World) bool {
	for p.stage < len(p.leaves) && p.leafReached(&p.leaves[p.stage], w) {
		p.stage++
		p.stageFrom = w.StepCount()
	}
	if p.stage == len(p.leaves) && p.reachedAt < 0 {
		p.reachedAt = w.StepCount()
	}
	return p.reachedAt >= 0
}

// leafReached reports whether leaf g holds in w.
func (p *Progress) leafReached(g *Goal, w *sim.World) bool {
	if w.Dead() {
		return false
	}
	switch g.Kind {
	case KindObtain:
		it, ok := w.Rules().ItemByName(g.Item)
		return ok && w.Inventory(it) >= g.Count
	case KindReach:
		x, y := w.Player()
		return x == g.X && y == g.Y
	case KindWaypoints:
		pos, ok := p.landmarks[g.Order[0]]
		if !ok {
			return false
		}
		x, y := w.Player()
		return max(grid.Abs(x-pos[0]), grid.Abs(y-pos[1])) <= 1
	case KindSurvive:
		return w.StepCount()-p.stageFrom >= g.Steps
	}
	return false // achievements: open-ended
}

// Reached reports whether the whole goal has been reached, and when.
func (p *Progress) Reached() (bool, int) { return p.reachedAt >= 0, p.reachedAt }

// Current returns the leaf goal being pursued (a waypoints leaf holds one
// label), or false once all are reached.
func (p *Progress) Current() (Goal, bool) {
	if p.stage >= len(p.leaves) {
		return Goal{}, false
	}
	return p.leaves[p.stage], true
}

// StagesReached returns how many leaves are reached.
func (p *Progress) StagesReached() int { return p.stage }

// Stages returns how many leaves are reached, of how many.
func (p *Progress) Stages() (reached, total int) { return p.stage, len(p.leaves) }

// Landmark returns the position of landmark label l, if the world has it.
func (p *Progress) Landmark(l int) (x, y int, ok bool) {
	pos, ok := p.landmarks[l]
	return pos[0], pos[1], ok
}
