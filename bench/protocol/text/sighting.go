package text

import "github.com/longcraft/longcraft/sim"

// sighting is the nearest tile of one kind of thing in view.
type sighting struct {
	name   string
	dx, dy int
	count  int
}

// visible lists the nearest tile of each kind of thing in window v,
// nearest first (ties by name).
func visible(w *sim.World, v sim.Window) []sighting {
	px, py := w.Player()
	var found []sighting
	index := map[string]int{}
	for dy := -v.HalfH; dy <= v.HalfH; dy++ {
		for dx := -v.HalfW; dx <= v.HalfW; dx++ {
			x, y := px+dx, py+dy
			if (dx == 0 && dy == 0) || !w.Inside(x, y) {
				continue
			}
			name := thingAt(w, x, y)
			i, seen := index[name]
			if !seen {
				index[name] = len(found)
				found = append(found, sighting{name: name, dx: dx, dy: dy, count: 1})
				continue
			}
			s := &found[i]
			s.count++
			if abs(dx)+abs(dy) < abs(s.dx)+abs(s.dy) {
				s.dx, s.dy = dx, dy
			}
		}
	}
	sortSightings(found)
	return found
}

func sortSightings(s []sighting) {
	less := func(a, b sighting) bool {
		da, db := abs(a.dx)+abs(a.dy), abs(b.dx)+abs(b.dy)
		if da != db {
			return da < db
		}
		return a.name < b.name
	}
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && less(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
