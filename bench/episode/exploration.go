package episode

import (
	"math/bits"

	"github.com/longcraft/longcraft/sim"
)

// The window an agent sees around itself: the agent view's 9×7 tiles
// (4 to each side, 3 above and below), the area the exploration metrics
// count as seen whatever the observability.
const seenHalfW, seenHalfH = 4, 3

// Coverage measures exploration step by step without allocating after
// Begin: the tiles the player stood on, the tiles within its window, the
// materials seen there and the items it came to hold (Voyager and Odyssey
// count distinct items; here both are kept).
type Coverage struct {
	width, height   int
	visited, seen   []uint64 // bit sets over the map, row-major
	nVisited, nSeen int
	px, py          int // the last position marked (-1: none yet)
	materials       sim.MaterialSet
	items           sim.ItemSet
	reachable       int      // walkable tiles connected to the start, at the start
	own             *Scratch // Begin's scratch when the host shares none
}

// Exploration is an episode's exploration metrics.
type Exploration struct {
	TilesVisited  int     `json:"tiles_visited"`  // distinct tiles the player stood on
	Reachable     int     `json:"reachable"`      // walkable tiles connected to the start when the episode began
	VisitedShare  float64 `json:"visited_share"`  // tiles visited over reachable (mining opens more, so it may pass 1)
	TilesSeen     int     `json:"tiles_seen"`     // distinct tiles within its 9×7 window
	SeenFraction  float64 `json:"seen_fraction"`  // tiles seen over the map's tiles
	MaterialsSeen int     `json:"materials_seen"` // distinct materials within the window
	ItemsObtained int     `json:"items_obtained"` // distinct non-vital items held at some point
}

// Begin starts measuring an episode on w, just reset.
func (c *Coverage) Begin(w *sim.World, scratch *Scratch) {
	n := (w.Width()*w.Height() + 63) / 64
	if cap(c.visited) < n {
		c.visited, c.seen = make([]uint64, n), make([]uint64, n)
	}
	c.visited, c.seen = c.visited[:n], c.seen[:n]
	clear(c.visited)
	clear(c.seen)
	own := c.own
	if scratch == nil {
		if own == nil {
			own = &Scratch{}
		}
		scratch = own
	}
	*c = Coverage{width: w.Width(), height: w.Height(), visited: c.visited, seen: c.seen, px: -1, py: -1, own: own}
	c.reachable = scratch.walkableFromStart(w)
	c.Step(w, nil)
}

// walkableFromStart counts the walkable tiles connected to the player's by
// steps over walkable tiles (a flood fill): the area an agent can reach
// without mining, building or bridging.
func (s *Scratch) walkableFromStart(w *sim.World) int {
	r := w.Rules()
	s.grid.Init(w.Width(), w.Height())
	g := &s.grid
	x, y := w.Player()
	s.flood.Run(g, g.Index(x, y), func(i int) bool {
		tx, ty := g.XY(i)
		return r.Materials[w.Material(tx, ty)].Walkable
	})
	return len(s.flood.Order)
}

// Step records the state after a step with outcome out (nil at the start),
// reporting whether the player now stands on a tile it had never stood on
// (the effective-action count's "net new position").
func (c *Coverage) Step(w *sim.World, out *sim.Outcome) (fresh bool) {
	if c.width == 0 {
		return false // Begin was not called
	}
	x, y := w.Player()
	if x != c.px || y != c.py {
		c.px, c.py = x, y
		if mark(c.visited, y*c.width+x) {
			c.nVisited++
			fresh = true
		}
		for ty := max(0, y-seenHalfH); ty <= min(c.height-1, y+seenHalfH); ty++ {
			for tx := max(0, x-seenHalfW); tx <= min(c.width-1, x+seenHalfW); tx++ {
				if mark(c.seen, ty*c.width+tx) {
					c.nSeen++
					c.materials |= 1 << w.Material(tx, ty)
				}
			}
		}
	}
	// A tile's material changes only under an action (collect, place) or
	// an arrow; the window is looked at again only on a move, so a
	// material made in view counts once it is placed or uncovered by a
	// later move. Items can only come from an action that did something.
	if out == nil || out.Kind == sim.OutCollected || out.Kind == sim.OutMade || out.Kind == sim.OutAte || out.Kind == sim.OutDrank {
		r := w.Rules()
		for it := range r.Items {
			if !r.Items[it].Vital && w.Inventory(sim.Item(it)) > 0 {
				c.items |= 1 << it
			}
		}
	}
	return fresh
}

// mark sets bit i of s and reports whether it was clear.
func mark(s []uint64, i int) bool {
	word, bit := i/64, uint64(1)<<(i%64)
	if s[word]&bit != 0 {
		return false
	}
	s[word] |= bit
	return true
}

// Exploration returns the metrics so far.
func (c *Coverage) Exploration() Exploration {
	e := Exploration{TilesVisited: c.nVisited, TilesSeen: c.nSeen, Reachable: c.reachable,
		MaterialsSeen: bits.OnesCount64(uint64(c.materials &^ 1)), // not the void
		ItemsObtained: bits.OnesCount64(uint64(c.items))}
	if n := c.width * c.height; n > 0 {
		e.SeenFraction = float64(c.nSeen) / float64(n)
	}
	if c.reachable > 0 {
		e.VisitedShare = float64(c.nVisited) / float64(c.reachable)
	}
	return e
}

// CopyInto makes dst a copy of c, reusing dst's bit sets.
func (c *Coverage) CopyInto(dst *Coverage) {
	visited, seen := dst.visited, dst.seen
	*dst = *c
	dst.visited = append(visited[:0], c.visited...)
	dst.seen = append(seen[:0], c.seen...)
	dst.own = nil // Begin's scratch is not shared
}
