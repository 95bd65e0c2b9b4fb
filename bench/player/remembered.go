package player

import (
	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Remembered things: a belief's claims that a material or station lies at
// a tile out of view ("water 12 west, 3 south"), which only a player that
// remembers what it saw can know. Each is a claim of the tile's material,
// tallied under the claimed kind ("remembered.water") against two
// baselines judged on the claim's own step, on the same tile:
//
//   - persistence, "nothing changes past the view's edge": the tile holds
//     what the nearest tile in view holds (the claimed offset clamped into
//     the view), so that extending what one sees earns nothing;
//   - base rate: the tile holds the most frequent material of its
//     distance band, the out-of-view tiles of the world at the same
//     Chebyshev distance from the player on that step: the best constant
//     claim at that distance, so that a constant or random claim ("grass
//     10 east", every step) does no better in expectation.
//
// The base rate is the band's and not a hindsight mode over the claimed
// tiles (the other fields'), because the player chooses the tiles: the
// mode of what it claimed would learn from its memory.

// maxOffset bounds a claimed offset's axes: any farther tile lies outside
// every world (none is this wide), and the bound keeps the sums in range.
const maxOffset = 1 << 20

// checkRemembered judges a belief's remembered things into the pending
// belief (counted by Played, once the step is played): each scored claim,
// and whether all of them held. Only the first
// protocol.MaxRemembered are read; a kind that is not a material of the
// rules (a creature, which does not stay put, or an unknown name) and a
// second claim about the same tile are ignored. A claim about a tile in
// the current view (the task's local view, which the text and the
// symbolic view cover; the image's 9×7 lies within it), or any claim under
// full observability, where the observation holds the whole map, is a
// copy: counted (BeliefCopies), not scored. A tile outside the world holds
// nothing: a claim there is wrong. The work is bounded per claim by the
// world's sides (the band's tiles within the world), with no allocation.
func (p *Probe) checkRemembered(w *sim.World, things []protocol.Thing) {
	pb := &p.pending
	r := w.Rules()
	win := p.view
	px, py := w.Player()
	var seen [protocol.MaxRemembered][2]int
	n := 0
	for _, th := range things[:min(len(things), protocol.MaxRemembered)] {
		m, known := r.MaterialByName(th.Kind)
		if !known || m == sim.MatNone {
			continue
		}
		dx, dy := clampAxis(th.DX, maxOffset), clampAxis(th.DY, maxOffset)
		if repeated(seen[:n], dx, dy) {
			continue
		}
		seen[n] = [2]int{dx, dy}
		n++
		if p.full || inWindow(dx, dy, win) {
			pb.copies++
			continue
		}
		truth := w.Material(px+dx, py+dy)
		nearest := w.Material(px+clampAxis(dx, win.HalfW), py+clampAxis(dy, win.HalfH))
		typical := bandMode(w, px, py, max(grid.Abs(dx), grid.Abs(dy)), win)
		pb.things[pb.n] = judgedThing{m: m, right: m == truth, nearest: nearest == truth, typical: typical == truth}
		pb.n++
		pb.ok = pb.ok && m == truth
		pb.scored = true
	}
}

// bandMode is the most frequent material (the lowest id among ties) of
// the tiles of the world at Chebyshev distance d from (px, py) that lie
// out of window win; MatNone when there are none.
func bandMode(w *sim.World, px, py, d int, win sim.Window) sim.Material {
	var count [sim.MaxMaterials]int
	tally := func(x, y int) {
		if w.Inside(x, y) && !inWindow(x-px, y-py, win) {
			count[w.Material(x, y)]++
		}
	}
	for y := max(py-d, 0); y <= min(py+d, w.Height()-1); y++ {
		if y == py-d || y == py+d {
			for x := max(px-d, 0); x <= min(px+d, w.Width()-1); x++ {
				tally(x, y)
			}
			continue
		}
		tally(px-d, y)
		tally(px+d, y)
	}
	best := sim.MatNone
	for m := range count {
		if count[m] > count[best] {
			best = sim.Material(m)
		}
	}
	return best
}

// inWindow reports whether the offset (dx, dy) from the player lies in
// the view win.
func inWindow(dx, dy int, win sim.Window) bool {
	return grid.Abs(dx) <= win.HalfW && grid.Abs(dy) <= win.HalfH
}

// repeated reports whether the tile (dx, dy) is among the tiles seen.
func repeated(seen [][2]int, dx, dy int) bool {
	for _, s := range seen {
		if s == [2]int{dx, dy} {
			return true
		}
	}
	return false
}

func clampAxis(v, bound int) int { return max(-bound, min(v, bound)) }
