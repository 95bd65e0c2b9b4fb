package sim

import "fmt"

// The vector path's interpolations as a job list. A row of world
// generation interpolates thirteen fields by some twenty kernel calls
// (lattice rows down to the row, lattice columns across it), and at 64
// tiles a row the Go around each call (slicing, checks, the call itself)
// cost about as many instructions as the kernels: a quarter of Reset.
// generateRowJobs instead lists the row's interpolations (lerpJob) in a
// fixed array and runs them with one call (runLerpJobs,
// jobs_amd64.s), which calls the same kernels. What each job computes is
// what rowCols, acrossPair, sweepRow and lerpRows compute, in the same
// order; TestVectorKernelsSameWorlds and every golden compare the worlds.

// lerpJob is one interpolation. jobRows brings a field's lattice down to
// row y (rowCols): dst[i] = lerp(a[i0+i], a[i0+stride+i], wy[y]) for
// i < n, with i0 = rowStart[y], read on row y by the job itself. The cell
// kinds interpolate the lattice values from a[aOff] across cells of 2,
// 4, 8 or 16 tiles into dst, adding bias, n being the AVX2 kernel's
// count (quads, pairs or cells; see acrossCells) and nWide the AVX-512
// kernel's (lerp512_amd64.s), which the runner takes where the generator
// is wide. Everything is set once (newLerpJobs), or when a field reaches
// a new lattice row (addAcrossX).
type lerpJob struct {
	dst, a       *int32
	split        *cellSplit
	rowStart, wy *int32
	aOff, stride int
	n, kind      int
	nWide        int // a cell kind's count for the AVX-512 kernels
	bias         int32
}

// Job kinds.
const (
	jobRows = iota
	jobCells2
	jobCells4
	jobCells8
	jobCells16
)

// runLerpJobs finds the cell kernels in a table (cellKernels, in
// jobs_amd64.s) by kind, from jobCells2 = 1 to jobCells16 = 4.
var _ = [1]struct{}{}[jobCells2-1]
var _ = [1]struct{}{}[jobCells16-4]

// lerpJobs are the interpolations of a row on the vector path: rows
// holds, in the order they run, water, mountain and tree, each down to
// the row then across it (before the start area); then the two tunnel
// fields the same way (after it). updates lists the lattice rows of the
// five across-first fields that the row reaches first, interpolated
// across x; the decision kernel brings those fields down to the row
// itself.
type lerpJobs struct {
	rows     [numRowJobs]lerpJob
	updates  [2 * numAcross]lerpJob
	nupdates int
}

const (
	numDownFirst = 5 // water, mountain, tree, tunnel H, tunnel V
	numAcross    = 5 // sand, cave, coal, iron, lava
	numRowJobs   = 2 * numDownFirst
	rowJobsEarly = 2 * 3 // water, mountain and tree, before the start area
)

// downFirstFields and acrossFields are the fields of lerpJobs.rows, in
// order.
func downFirstFields() [numDownFirst]int {
	return [...]int{fieldWater, fieldMountain, fieldTree, fieldTunnelH, fieldTunnelV}
}

func acrossFields() [numAcross]int {
	return [...]int{fieldSand, fieldCave, fieldCoal, fieldIron, fieldLava}
}

// newLerpJobs sets the jobs' pointers, kinds and counts, which never
// change, for a map width tiles wide.
func (g *generator) newLerpJobs(width int) {
	downRows := [numDownFirst]*rowBuf{&g.water, &g.mountain, &g.treeRow, &g.tunnelH, &g.tunnelV}
	for k, f := range downFirstFields() {
		fd := &g.fields[f]
		dst, bias := downRows[k], int32(0)
		if f == fieldWater {
			bias = waterBias
		}
		down, across := &g.jobs.rows[2*k], &g.jobs.rows[2*k+1]
		*down = lerpJob{dst: &g.cols[f][0], a: &g.lattice[0], n: fd.stride, kind: jobRows,
			rowStart: &fd.rowStart[0], wy: &fd.wy[0], stride: fd.stride}
		*across = lerpJob{dst: &dst[0], a: &g.cols[f][0], split: &fd.split, n: fd.cellsN, nWide: fd.cellsWide, kind: fd.cellsKind, bias: bias}
	}
}

// latticePad is how far past a lattice's values the cell kernels may
// read: a row ending within a group of cells is interpolated as a whole
// group, past the map's width; cells2AVX512's groups are of eight cells.
const latticePad = 8

// newAcrossReached returns, per row of a map height rows high, a bit per
// across-first field (acrossFields' order) set where the row is the
// first of a new pair of the field's lattice rows: the first row, and
// each row at a multiple of the field's spacing.
func (g *generator) newAcrossReached(height int) []uint8 {
	reached := make([]uint8, height)
	for y := range reached {
		for k, f := range acrossFields() {
			if s := g.fields[f].shiftY; y == 0 || y>>s != (y-1)>>s {
				reached[y] |= 1 << k
			}
		}
	}
	return reached
}

// cellsJob returns the job kind and the counts that interpolate across a
// row of width tiles in cells of span tiles: n for the AVX2 kernels,
// eight tiles an iteration, and wide for the AVX-512 ones, sixteen.
func cellsJob(span, width int) (kind, n, wide int) {
	cells := (width + span - 1) / span
	switch span {
	case 2:
		return jobCells2, (cells + 3) / 4, (cells + 7) / 8
	case 4:
		return jobCells4, (cells + 1) / 2, (cells + 3) / 4
	case 8:
		return jobCells8, cells, (cells + 1) / 2
	case 16:
		return jobCells16, cells, cells
	}
	// fieldShifts spaces every lattice 2 to 16 tiles apart, across x; a
	// job of another kind would run as the last case of the runner.
	panic(fmt.Sprintf("sim: no cell kernel for a lattice %d tiles apart", span))
}

// The decision kernels' last group of 8 or 16 tiles ends inside a row
// buffer of MaxSide values only if MaxSide is a multiple of 16.
var _ = [1]struct{}{}[MaxSide%16]

// setRowJobs lists, for the lattice rows of across-first fields that row
// y reaches first, their interpolation across x into the field's pair of
// rows (as acrossPair), and gives the decision kernel each field's pair.
// The rows' jobs and the decision kernel read their weights themselves. Rows are generated
// in order from the first, so which rows reach a lattice row first is
// known from the shape (acrossReached).
func (g *generator) setRowJobs(y int) {
	g.jobs.nupdates = 0
	if g.acrossReached[y] == 0 {
		return
	}
	d := &g.decide
	for k, f := range acrossFields() {
		fd, a := &g.fields[f], &g.across[f]
		r := y >> fd.shiftY
		if moved, top := a.advance(r); moved {
			if top {
				g.addAcrossX(fd, r, a.top)
			}
			g.addAcrossX(fd, r+1, a.bot)
			d.acrossTop[k], d.acrossBot[k] = &a.top[0], &a.bot[0]
		}
	}
}

// addAcrossX lists lattice row r of field f across every x into dst
// (acrossX).
func (g *generator) addAcrossX(f *noiseField, r int, dst *rowBuf) {
	j := &g.jobs.updates[g.jobs.nupdates%len(g.jobs.updates)]
	*j = lerpJob{dst: &dst[0], a: &g.lattice[0], aOff: f.offset + r*f.stride, split: &f.split, n: f.cellsN, nWide: f.cellsWide, kind: f.cellsKind}
	g.jobs.nupdates++
}

// generateRowJobs is generateRow on the vector path for rulesets without
// extra ores: the same fields, start area, draws and decisions, the
// interpolations run by three calls.
func (w *World) generateRowJobs(y int, key uint64) {
	g := w.gen
	n := w.width
	base := y * n
	g.setRowJobs(y)
	runLerpJobs(&g.jobs.rows[0], rowJobsEarly, y, g.wide)
	g.startArea(y, n)
	if u := g.jobs.nupdates; u > 0 {
		runLerpJobs(&g.jobs.updates[0], min(u, len(g.jobs.updates)), y, g.wide)
	}
	runLerpJobs(&g.jobs.rows[rowJobsEarly], numRowJobs-rowJobsEarly, y, g.wide)
	if n > MaxSide {
		panic("sim: a row wider than MaxSide") // the decision kernels read the across rows to the group's end
	}
	g.drawRow(key, base, n)
	// Both count the row into g.columns too. MaxSide is a multiple of
	// 16 (checked below), so the last group of either ends inside every
	// row buffer.
	if g.wide {
		decideAVX512(g, (n+15)/16, y)
	} else {
		decideAVX2(g, (n+7)/8, y)
	}
	w.scatterRow(y, n)
	copy(w.tiles[base:base+n], g.tileRow[:n])
	if cs := w.rules.Creature.ChunkSize; (y+1)%cs == 0 || y == w.height-1 {
		w.flushCounts(y)
	}
}
