package grid

import "math"

// Inf is the distance of a cell Dijkstra has not reached.
const Inf = math.MaxInt32

// MaxCost is the largest cost of entering a cell.
const MaxCost = ringSize - 1

// ringSize is the number of buckets of the queue: more than the largest
// step cost, a power of two.
const ringSize = 32

// Dijkstra is a shortest-path search from one cell with small integer
// costs of entering each cell (1 to MaxCost; 0: impassable), in a bucket
// (Dial) queue, run lazily: Reset seeds the queue, and the buckets are
// settled in order of distance only as far as the caller asks (Next,
// SettleTo, At). Every settled cell's Dist and Prev are final and exactly
// those of the whole-map search: the buckets are processed in the same
// order whether at once or on demand. The costs are the caller's slice,
// read as the search goes, so a caller may raise the costs of cells it
// has not reached yet between buckets (see Before). Ties go to the cell
// queued first, neighbours in the package's order. Nothing is allocated
// after Init.
type Dijkstra struct {
	w, last int // the width, the first cell of the bottom row
	col     []uint16
	cost    []uint8

	Dist   []int32 // final for Dist <= Radius; an upper bound beyond (Inf: not reached yet)
	Prev   []int32 // the cell each was reached from; -1 for the start and cells not reached
	Order  []int32 // the settled cells, in settling order
	Radius int32   // every cell at distance <= Radius is settled (Inf: all reachable are)

	// Before, if set, is called with a bucket's distance d before the
	// bucket is settled: settling it reads the costs of cells at L1
	// distance at most d+1 from the start (a path costs at least its
	// length), and a caller that adds costs lazily adds those now.
	Before func(d int32)

	ring    [ringSize][]int32
	d       int32 // the next bucket to process
	pending int   // queue entries not yet processed
	touched []int32
}

// Init readies a search of g over cost, the caller's (one entry a cell),
// and seeds nothing: call Reset.
func (s *Dijkstra) Init(g *Grid, cost []uint8) {
	n := g.Len()
	s.w, s.last, s.col, s.cost = g.W, n-g.W, g.col, cost
	s.Dist, s.Prev = make([]int32, n), make([]int32, n)
	for i := range s.Dist {
		s.Dist[i], s.Prev[i] = Inf, -1
	}
	for i := range s.ring {
		s.ring[i] = make([]int32, 0, 64)
	}
	s.Order = make([]int32, 0, n)
	s.touched = make([]int32, 0, n)
	s.pending, s.Radius = 0, Inf
}

// Reset starts a search from cell start, settling nothing yet.
func (s *Dijkstra) Reset(start int) {
	for _, i := range s.touched {
		s.Dist[i], s.Prev[i] = Inf, -1
	}
	s.touched = s.touched[:0]
	s.Order = s.Order[:0]
	for i := range s.ring {
		s.ring[i] = s.ring[i][:0]
	}
	s.Dist[start] = 0
	s.touched = append(s.touched, int32(start))
	s.ring[0] = append(s.ring[0], int32(start))
	s.pending = 1
	s.d = 0
	s.Radius = -1
}

// Done reports whether every reachable cell is settled.
func (s *Dijkstra) Done() bool { return s.pending == 0 }

// Next settles the next bucket that holds cells (appending them to Order)
// and reports whether there was one. After it, Radius is that bucket's
// distance, or Inf when the queue ran out.
func (s *Dijkstra) Next() bool {
	W, last := s.w, s.last
	for s.pending > 0 {
		d := s.d
		s.d++
		b := &s.ring[d&(ringSize-1)]
		if len(*b) == 0 {
			continue
		}
		if s.Before != nil {
			s.Before(d)
		}
		before := len(s.Order)
		for k := 0; k < len(*b); k++ {
			u := int((*b)[k])
			s.pending--
			if s.Dist[u] != d {
				continue // superseded
			}
			s.Order = append(s.Order, int32(u))
			x := int(s.col[u])
			if x > 0 {
				s.relax(u, u-1, d)
			}
			if x < W-1 {
				s.relax(u, u+1, d)
			}
			if u >= W {
				s.relax(u, u-W, d)
			}
			if u < last {
				s.relax(u, u+W, d)
			}
		}
		*b = (*b)[:0]
		s.Radius = d
		if len(s.Order) > before {
			return true
		}
	}
	s.Radius = Inf
	return false
}

func (s *Dijkstra) relax(u, v int, d int32) {
	c := s.cost[v]
	if c == 0 {
		return
	}
	nd := d + int32(c)
	old := s.Dist[v]
	if nd >= old {
		return
	}
	if old == Inf {
		s.touched = append(s.touched, int32(v))
	}
	s.Dist[v] = nd
	s.Prev[v] = int32(u)
	s.ring[nd&(ringSize-1)] = append(s.ring[nd&(ringSize-1)], int32(v))
	s.pending++
}

// SettleAll settles every reachable cell.
func (s *Dijkstra) SettleAll() {
	for s.Next() {
	}
	s.Radius = Inf
}

// SettleTo settles every cell at distance <= r.
func (s *Dijkstra) SettleTo(r int32) {
	for s.Radius < r && s.Next() {
	}
}

// At returns the distance of cell i (Inf if unreachable), settling as far
// as needed.
func (s *Dijkstra) At(i int) int32 {
	for s.Dist[i] > s.Radius && s.Next() {
	}
	if s.Dist[i] > s.Radius {
		return Inf
	}
	return s.Dist[i]
}

// First returns the cell after start on the path to the settled cell t
// (t itself if it neighbours start or is start).
func (s *Dijkstra) First(start, t int) int {
	for n := 0; n < len(s.Dist); n++ {
		p := int(s.Prev[t])
		if p == start || p < 0 {
			return t
		}
		t = p
	}
	return t
}
