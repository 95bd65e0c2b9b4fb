package grid

// Flood is a flood fill: the cells connected to a start by steps onto
// passable cells, kept for the next fill. Cells are marked with a
// generation number, so a fill clears nothing and costs only the cells it
// reaches; Run allocates only when the map grows.
type Flood struct {
	mark  []uint32 // mark[i] == gen: reached by the last Run
	gen   uint32
	Order []int32 // the cells reached, breadth first from the start
}

// Run fills g from cell start (reached whatever it is) over the cells
// pass lets it enter.
func (f *Flood) Run(g *Grid, start int, pass func(i int) bool) {
	gen := f.next(g.Len())
	mark := f.mark
	q := append(f.Order[:0], int32(start))
	mark[start] = gen
	W, last, col := g.W, g.Len()-g.W, g.col
	for k := 0; k < len(q); k++ {
		u := int(q[k])
		x := int(col[u])
		if v := u - 1; x > 0 && mark[v] != gen && pass(v) {
			mark[v] = gen
			q = append(q, int32(v))
		}
		if v := u + 1; x < W-1 && mark[v] != gen && pass(v) {
			mark[v] = gen
			q = append(q, int32(v))
		}
		if v := u - W; u >= W && mark[v] != gen && pass(v) {
			mark[v] = gen
			q = append(q, int32(v))
		}
		if v := u + W; u < last && mark[v] != gen && pass(v) {
			mark[v] = gen
			q = append(q, int32(v))
		}
	}
	f.Order = q
}

// RunNonzero is Run where the passable cells are those whose entry in
// cells is not 0 (a cost field's): the planner's fill, without a call per
// cell.
func (f *Flood) RunNonzero(g *Grid, start int, cells []uint8) {
	gen := f.next(g.Len())
	mark := f.mark
	q := append(f.Order[:0], int32(start))
	mark[start] = gen
	W, last, col := g.W, g.Len()-g.W, g.col
	for k := 0; k < len(q); k++ {
		u := int(q[k])
		x := int(col[u])
		if v := u - 1; x > 0 && cells[v] != 0 && mark[v] != gen {
			mark[v] = gen
			q = append(q, int32(v))
		}
		if v := u + 1; x < W-1 && cells[v] != 0 && mark[v] != gen {
			mark[v] = gen
			q = append(q, int32(v))
		}
		if v := u - W; u >= W && cells[v] != 0 && mark[v] != gen {
			mark[v] = gen
			q = append(q, int32(v))
		}
		if v := u + W; u < last && cells[v] != 0 && mark[v] != gen {
			mark[v] = gen
			q = append(q, int32(v))
		}
	}
	f.Order = q
}

// next starts a fill of a map of n cells and returns its generation.
func (f *Flood) next(n int) uint32 {
	if len(f.mark) != n {
		f.mark, f.gen = make([]uint32, n), 0
		f.Order = make([]int32, 0, n)
	}
	f.gen++
	if f.gen == 0 { // wrapped: old marks could read as new
		clear(f.mark)
		f.gen = 1
	}
	return f.gen
}

// Reached reports whether the last fill reached cell i.
func (f *Flood) Reached(i int) bool { return len(f.mark) > i && f.gen != 0 && f.mark[i] == f.gen }

// Filled reports whether a fill has run on a map of n cells.
func (f *Flood) Filled(n int) bool { return f.gen != 0 && len(f.mark) == n }
