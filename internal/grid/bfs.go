package grid

// Unreached is the distance of a cell a BFS did not reach.
const Unreached = -1

// BFS is a breadth-first search from one cell over the cells a
// passability function lets it enter, with its state kept for the next
// search: after Run, Dist and Prev hold each reached cell's distance and
// the cell it was reached from, and Order the reached cells in the order
// reached (nearest first; ties in neighbour order, see the package doc).
// A cell not reached has Dist Unreached and a meaningless Prev. Run
// allocates only when the map grows.
type BFS struct {
	Dist  []int32
	Prev  []int32 // -1 for the start
	Order []int32
	Start int
}

// Run searches g from cell start. pass(from, to) reports whether the
// search may step from a reached cell onto its neighbour to; it is asked
// once about each cell not reached yet, from the first cell that reaches
// it.
func (b *BFS) Run(g *Grid, start int, pass func(from, to int) bool) {
	b.clear(g.Len())
	b.Start = start
	b.Dist[start], b.Prev[start] = 0, -1
	q := append(b.Order[:0], int32(start))
	W, last := g.W, g.Len()-g.W
	dist, prev, col := b.Dist, b.Prev, g.col
	for k := 0; k < len(q); k++ {
		u := int(q[k])
		d := dist[u] + 1
		x := int(col[u])
		if v := u - 1; x > 0 && dist[v] == Unreached && pass(u, v) {
			dist[v], prev[v] = d, int32(u)
			q = append(q, int32(v))
		}
		if v := u + 1; x < W-1 && dist[v] == Unreached && pass(u, v) {
			dist[v], prev[v] = d, int32(u)
			q = append(q, int32(v))
		}
		if v := u - W; u >= W && dist[v] == Unreached && pass(u, v) {
			dist[v], prev[v] = d, int32(u)
			q = append(q, int32(v))
		}
		if v := u + W; u < last && dist[v] == Unreached && pass(u, v) {
			dist[v], prev[v] = d, int32(u)
			q = append(q, int32(v))
		}
	}
	b.Order = q
}

// clear readies the state for a map of n cells: every cell unreached.
func (b *BFS) clear(n int) {
	if len(b.Dist) != n {
		b.Dist, b.Prev = make([]int32, n), make([]int32, n)
		b.Order = make([]int32, 0, n)
		for i := range b.Dist {
			b.Dist[i] = Unreached
		}
		return
	}
	for _, i := range b.Order { // only the last search's cells are reached
		b.Dist[i] = Unreached
	}
}

// First returns the cell after start on the search's path to the reached
// cell t (t itself if it neighbours start; start if t is start).
func (b *BFS) First(t int) int {
	for p := int(b.Prev[t]); p != b.Start && p >= 0; p = int(b.Prev[t]) {
		t = p
	}
	return t
}
