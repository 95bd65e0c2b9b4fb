package sim

// Value noise for world generation: a lattice of random values, spaced a
// power of two apart on each axis, smoothly interpolated. Everything is
// integer (1/65536 units), so every platform generates the same world. It
// is ours, cheaper than simplex noise, and the world generator's
// thresholds are tuned to it (see worldgen.go).
//
// Lookups are table driven: for every x (and y) a field knows its lattice
// column (row) and smoothstep weight. The generator interpolates each
// field once per row (or lattice row) into a cache, so a tile costs one
// interpolation (see generateRow).

// one is 1.0 in the 1/65536 fixed point used by worldgen and daylight.
const one = 65536

// noiseField is one lattice within the generator's buffer.
type noiseField struct {
	shiftX, shiftY uint // log2 of the lattice spacing: 1 to 4 across x (the cell kernels, cellsJob), at most 5 down y
	offset         int  // start in generator.lattice
	stride         int  // lattice points per row
	rows           int
	col, wx        []int32   // per x: lattice column and weight
	cellWeights    []int32   // per x offset within a lattice cell: weight
	split          cellSplit // the weights of cells 2, 4, 8 or 16 tiles wide, for the vector kernels
	cellsKind      int       // the job across a row (addCells)…
	cellsN         int       // …and its count for the AVX2 kernels…
	cellsWide      int       // …and for the AVX-512 ones
	rowStart, wy   []int32   // per y: index of the lattice row in generator.lattice, weight
}

// smoothstep returns smoothstep(k/32) in 1/65536 units for k in [0, 32]:
// t²(3 − 2t) with t = k/32 is k²(96 − 2k)/32768, exactly.
func smoothstep(k int32) int32 { return k * k * (96 - 2*k) * 2 }

// newNoiseField lays out a field of the given spacing for a width×height
// map, its lattice starting at offset.
func newNoiseField(shiftX, shiftY uint, offset, width, height int) noiseField {
	f := noiseField{
		shiftX: shiftX, shiftY: shiftY, offset: offset,
		stride: width>>shiftX + 2, rows: height>>shiftY + 2,
		col: make([]int32, width), wx: make([]int32, width),
		rowStart: make([]int32, height), wy: make([]int32, height),
	}
	f.cellWeights = make([]int32, 1<<shiftX)
	for k := range f.cellWeights {
		f.cellWeights[k] = smoothstep(int32(k) << (5 - shiftX))
	}
	f.split = newCellSplit(f.cellWeights)
	f.cellsKind, f.cellsN, f.cellsWide = cellsJob(1<<shiftX, width)
	for x := range f.col {
		f.col[x] = int32(x >> shiftX)
		f.wx[x] = smoothstep(int32(x&(1<<shiftX-1)) << (5 - shiftX))
	}
	for y := range f.rowStart {
		f.rowStart[y] = int32(offset + (y>>shiftY)*f.stride)
		f.wy[y] = smoothstep(int32(y&(1<<shiftY-1)) << (5 - shiftY))
	}
	return f
}

// fill draws the lattice values of field f from key.
func (g *generator) fill(f *noiseField, key uint64) {
	pts := g.lattice[f.offset : f.offset+f.stride*f.rows]
	// Four values from each 64-bit draw: 16 random bits each, centred and
	// doubled to span [-65536, 65534].
	i := 0
	if g.vector && len(pts) >= 16 {
		i = len(pts) &^ 15
		g.fillLanes.mul64 = g.mul64
		fillAVX2(&pts[0], key, i, &g.fillLanes)
	}
	for ; i+4 <= len(pts); i += 4 {
		r := mix64(key + uint64(i)*splitMixGamma)
		q := pts[i : i+4 : i+4]
		q[0] = 2*int32(uint16(r)) - one
		q[1] = 2*int32(uint16(r>>16)) - one
		q[2] = 2*int32(uint16(r>>32)) - one
		q[3] = 2*int32(uint16(r>>48)) - one
	}
	for r := mix64(key + uint64(i)*splitMixGamma); i < len(pts); i, r = i+1, r>>16 {
		pts[i] = 2*int32(uint16(r)) - one
	}
}

// rowBuf holds one value per tile of a row. Indexed with i&rowMask (as
// across.at and acrossCells do) or with an x the compiler knows to be
// below MaxSide (as generateRow does), it needs no bounds checks.
type rowBuf [MaxSide]int32

// rowMask keeps an index within a rowBuf; MaxSide is a power of two.
const rowMask = MaxSide - 1

// Compile-time check that MaxSide is a power of two, which rowMask needs.
var _ = [1]struct{}{}[MaxSide&(MaxSide-1)]

// rowCols returns field f's lattice brought down to row y: element i is
// the field at lattice column i on that row. It is computed once per row
// and field (rows are generated in order).
func (g *generator) rowCols(f, y int) []int32 {
	cols := g.cols[f]
	if g.colsRow[f] == y {
		return cols
	}
	fd := &g.fields[f]
	i := int(fd.rowStart[y])
	g.lerpRows(cols, g.lattice[i:i+fd.stride], g.lattice[i+fd.stride:i+2*fd.stride], fd.wy[y])
	g.colsRow[f] = y
	return cols
}

// colsLerp interpolates a row's lattice columns (from rowCols) at lattice
// column ix with weight wx: the field at one tile of the row.
func colsLerp(cols []int32, ix, wx int32) int32 {
	return lerp(cols[ix], cols[ix+1], int64(wx))
}

// across is a field between two lattice rows, each interpolated across
// every x.
type across struct{ top, bot *rowBuf }

// at returns the field at tile index i of a row of weight wy between them.
func (a across) at(i int, wy int64) int32 { return lerp(a.top[i&rowMask], a.bot[i&rowMask], wy) }

// acrossRows is a field's across pair for lattice rows row and row+1.
type acrossRows struct {
	row int // -1 before the first use of a generation
	across
}

// acrossPair returns field f's lattice rows around row y interpolated
// across x, and row y's weight between them: the field at a tile of row y
// is then one interpolation. This order, across x before down to y,
// decides the rounding (and so the world) of the fields read this way.
// A pair serves every row between its lattice rows.
func (g *generator) acrossPair(f, y int) (across, int64) {
	fd, a := &g.fields[f], &g.across[f]
	r := y >> fd.shiftY
	if moved, top := a.advance(r); moved {
		if top {
			g.acrossX(fd, r, a.top)
		}
		g.acrossX(fd, r+1, a.bot)
	}
	return a.across, int64(fd.wy[y])
}

// advance points the pair at lattice rows r and r+1, and reports whether
// it moved, and whether its top row must then be interpolated anew (its
// bottom row always must): not when it moved one lattice row down, the
// old bottom row being the new top.
func (a *acrossRows) advance(r int) (moved, top bool) {
	if a.row == r {
		return false, false
	}
	top = a.row < 0 || a.row+1 != r
	if !top {
		a.top, a.bot = a.bot, a.top
	}
	a.row = r
	return true, top
}

// acrossX interpolates lattice row r of field f across every x into dst.
func (g *generator) acrossX(f *noiseField, r int, dst *rowBuf) {
	i := f.offset + r*f.stride
	g.acrossCells(f, g.lattice[i:i+f.stride], dst, 0)
}

// sweepRow evaluates field f on every tile of row y into dst, bringing its
// lattice down to the row first (the order of rowCols and colsLerp).
func (g *generator) sweepRow(f, y int, dst *rowBuf) {
	fd := &g.fields[f]
	g.acrossCells(fd, g.rowCols(f, y), dst, 0)
}

// acrossCells interpolates values given at f's lattice columns across
// every x of the map into dst, adding bias. Every lattice cell spans the
// same tiles with the same weights, so the work is one multiply a tile:
// eight at once in the vector kernels (cells of 2, 4, 8 and 16 tiles,
// every spacing the fields use; the job runner takes the AVX-512 ones
// too, lerp512_amd64.s), else cells four and eight tiles wide,
// those of the fields every tile reads, are unrolled with constant
// weights. Whole cells are written, past the map's width if it ends
// within one. The vector kernels are exact while neighbouring values
// differ by less than 2^23, as lattice values do (TestLatticeAmplitude).
func (g *generator) acrossCells(f *noiseField, vals []int32, dst *rowBuf, bias int32) {
	span := len(f.cellWeights)
	cells := (len(f.col) + span - 1) / span
	_ = vals[cells] // every cell reads the column on its right
	c := 0          // cells done
	if g.vector {
		switch span {
		case 8:
			cells8AVX2(&dst[0], &vals[0], cells, &f.split, bias)
			c = cells
		case 4:
			cells4AVX2(&dst[0], &vals[0], cells/2, &f.split, bias)
			c = cells &^ 1
		case 16:
			cells16AVX2(&dst[0], &vals[0], cells, &f.split, bias)
			c = cells
		case 2:
			cells2AVX2(&dst[0], &vals[0], cells/4, &f.split, bias)
			c = cells &^ 3
		}
	}
	switch span {
	case 4:
		for ; c < cells; c++ {
			a := vals[c] + bias
			d := int64(vals[c+1]) - int64(vals[c])
			// The cleared low bits change nothing (c*4 is a multiple of
			// 4) but let the compiler prove the conversion in bounds.
			o := (*[4]int32)(dst[c*4&rowMask&^3:])
			o[0], o[1], o[2], o[3] = a, a+int32(d*smooth8>>16), a+int32(d*smooth16>>16), a+int32(d*smooth24>>16)
		}
	case 8:
		for ; c < cells; c++ {
			a := vals[c] + bias
			d := int64(vals[c+1]) - int64(vals[c])
			o := (*[8]int32)(dst[c*8&rowMask&^7:]) // as in case 4
			o[0], o[1], o[2], o[3] = a, a+int32(d*smooth4>>16), a+int32(d*smooth8>>16), a+int32(d*smooth12>>16)
			o[4], o[5], o[6], o[7] = a+int32(d*smooth16>>16), a+int32(d*smooth20>>16), a+int32(d*smooth24>>16), a+int32(d*smooth28>>16)
		}
	default:
		for ; c < cells; c++ {
			a := vals[c] + bias
			d := int64(vals[c+1]) - int64(vals[c])
			cell := dst[c*span:][:span]
			for k, wx := range f.cellWeights {
				cell[k] = a + int32(d*int64(wx)>>16)
			}
		}
	}
}

// lerpRows sets dst[i] = lerp(top[i], bot[i], t) for every i of dst.
// The vector kernel is exact while top[i] and bot[i] differ by less than
// 2^23, as lattice values do (TestLatticeAmplitude).
func (g *generator) lerpRows(dst, top, bot []int32, t int32) {
	top, bot = top[:len(dst)], bot[:len(dst)]
	if g.vector && len(dst) >= 8 {
		lerpRowsAVX2(&dst[0], &top[0], &bot[0], len(dst), t>>8, t&255)
		return
	}
	for i := range dst {
		dst[i] = lerp(top[i], bot[i], int64(t))
	}
}

// cellSplit holds the weights of a lattice cell 2, 4, 8 or 16 tiles
// wide, for the vector kernels: eight lanes of weight>>8 and of
// weight&255 (four cells of 2 tiles, two of 4, or one of 8, or the
// first half of a cell of 16, whose second half is hi2 and lo2), and
// the cell of each lane (see cells4AVX2 and cells2AVX2).
type cellSplit struct {
	hi, lo, cell [8]int32
	hi2, lo2     [8]int32
	// cell16 is cell over sixteen lanes, for the AVX-512 kernels
	// (lerp512_amd64.s).
	cell16 [16]int32
}

func newCellSplit(weights []int32) cellSplit {
	var s cellSplit
	switch len(weights) {
	case 2, 4, 8, 16:
	default:
		return s
	}
	for k := range s.hi {
		w := weights[k%len(weights)]
		s.hi[k], s.lo[k] = w>>8, w&255
		s.cell[k] = int32(k / len(weights))
		if len(weights) == 16 {
			w2 := weights[8+k]
			s.hi2[k], s.lo2[k] = w2>>8, w2&255
		}
	}
	for k := range s.cell16 {
		s.cell16[k] = int32(k / len(weights))
	}
	return s
}

// smoothK is smoothstep(K/32) (see smoothstep), as a constant.
const (
	smooth4  = 4 * 4 * (96 - 2*4) * 2
	smooth8  = 8 * 8 * (96 - 2*8) * 2
	smooth12 = 12 * 12 * (96 - 2*12) * 2
	smooth16 = 16 * 16 * (96 - 2*16) * 2
	smooth20 = 20 * 20 * (96 - 2*20) * 2
	smooth24 = 24 * 24 * (96 - 2*24) * 2
	smooth28 = 28 * 28 * (96 - 2*28) * 2
)

// fineRows evaluates the water and mountain fields, which share the fine
// lattice, on the n tiles of row y into g.water and g.mountain, water
// with its bias added.
func (g *generator) fineRows(y, n int) {
	if !g.vector {
		g.fineRowsFused(y, n)
		return
	}
	fw, fm := &g.fields[fieldWater], &g.fields[fieldMountain]
	g.acrossCells(fw, g.rowCols(fieldWater, y), &g.water, waterBias)
	g.acrossCells(fm, g.rowCols(fieldMountain, y), &g.mountain, 0)
}

// fineRowsFused is fineRows for the generic code. Each lattice column is
// brought down to the row once, as the loop reaches it, and each lattice
// cell is fineSpan tiles of fixed weights, so the loop is unrolled over
// them. It is what rowCols and acrossCells do, fused for the two fields
// every tile reads, so that the columns never go through memory: without
// the vector kernels, that saves about a tenth of Reset.
func (g *generator) fineRowsFused(y, n int) {
	fw, fm := &g.fields[fieldWater], &g.fields[fieldMountain]
	stride, wy := fw.stride, int64(fw.wy[y])
	iw, im := int(fw.rowStart[y]), int(fm.rowStart[y])
	wTop, wBot := g.lattice[iw:][:stride], g.lattice[iw+stride:][:stride]
	mTop, mBot := g.lattice[im:][:stride], g.lattice[im+stride:][:stride]
	water, mountain := &g.water, &g.mountain
	wa, ma := int64(lerp(wTop[0], wBot[0], wy)), int64(lerp(mTop[0], mBot[0], wy))
	for ix := 1; ix < stride; ix++ {
		wb, mb := int64(lerp(wTop[ix], wBot[ix], wy)), int64(lerp(mTop[ix], mBot[ix], wy))
		wd, md := wb-wa, mb-ma
		x := (ix - 1) * fineSpan
		if x+fineSpan > n {
			for ; x < n; x++ { // a partial cell at the right edge
				k := int64(fw.cellWeights[x%fineSpan])
				water[x&rowMask] = int32(wa+wd*k>>16) + waterBias
				mountain[x&rowMask] = int32(ma + md*k>>16)
			}
			break
		}
		// Clearing the low bits changes nothing (x is a multiple of
		// fineSpan) but lets the compiler prove the conversions in bounds.
		ws := (*[fineSpan]int32)(water[x&rowMask&^(fineSpan-1):])
		ms := (*[fineSpan]int32)(mountain[x&rowMask&^(fineSpan-1):])
		// Unrolled by hand; the compiler does not unroll loops.
		ws[0], ms[0] = int32(wa)+waterBias, int32(ma)
		ws[1], ms[1] = int32(wa+wd*smooth8>>16)+waterBias, int32(ma+md*smooth8>>16)
		ws[2], ms[2] = int32(wa+wd*smooth16>>16)+waterBias, int32(ma+md*smooth16>>16)
		ws[3], ms[3] = int32(wa+wd*smooth24>>16)+waterBias, int32(ma+md*smooth24>>16)
		wa, ma = wb, mb
	}
}

// fineShift is the log2 lattice spacing of the water and mountain fields
// and fineSpan the spacing; fineRowsFused's unrolled cells and their
// constant weights are for a spacing of 4.
const (
	fineShift = 2
	fineSpan  = 1 << fineShift
)

// lerp returns a + (b−a)·t for t in 1/65536 units.
func lerp(a, b int32, t int64) int32 {
	return int32(int64(a) + (int64(b)-int64(a))*t>>16)
}

// addOctave rescales fine's random lattice by fineWeight and adds the
// coarse field, weighted by coarseWeight, at each of fine's lattice
// points (weights in 1/65536). coarse must be the coarser field, and
// fine's lattice points beyond the map are clamped onto its edge.
// g.octave gives where fine's lattice columns fall in coarse.
func (g *generator) addOctave(fineField, coarseField int, fineWeight, coarseWeight int64) {
	fine, coarse := &g.fields[fineField], &g.fields[coarseField]
	ix, wx := g.octave.col[:fine.stride], g.octave.wx[:fine.stride]
	// The vector path: the first octave.uniform points of a row fall four
	// to a coarse cell with the weights of fine's own cells (fieldShifts:
	// spacings 4 and 16), so cells4AVX2 gives the coarse field at them;
	// octaveAVX2 sums eight points at a time.
	vector, split := g.vector && fine.shiftX == 2 && coarse.shiftX == 4, &g.octaveSplit
	if vector {
		*split = octaveSplit{fineHi: fill8(int32(fineWeight >> 8)), fineLo: fill8(int32(fineWeight & 255)),
			coarseHi: fill8(int32(coarseWeight >> 8)), coarseLo: fill8(int32(coarseWeight & 255))}
	}
	for j := 0; j < fine.rows; j++ {
		cols := g.rowCols(coarseField, min(j<<fine.shiftY, len(coarse.rowStart)-1))
		pts := g.lattice[fine.offset+j*fine.stride:][:fine.stride]
		i := 0
		if vector {
			c, u := &g.octaveRow, g.octave.uniform
			cells4AVX2(&c[0], &cols[0], (u+7)/8, &fine.split, 0)
			octaveAVX2(&pts[0], &c[0], u, split)
			for i = u &^ 7; i < u; i++ {
				pts[i] = int32((int64(pts[i])*fineWeight + int64(c[i])*coarseWeight) >> 16)
			}
		}
		for ; i < len(pts); i++ {
			c := colsLerp(cols, ix[i], wx[i])
			pts[i] = int32((int64(pts[i])*fineWeight + int64(c)*coarseWeight) >> 16)
		}
	}
}

// octaveSplit is octaveAVX2's weights, each split as 256·hi + lo.
type octaveSplit struct{ fineHi, fineLo, coarseHi, coarseLo lanes }

// octaveColumns is where the lattice columns of a fine field fall in a
// coarse one: for each, the coarse lattice column and weight of its x,
// clamped onto the map; the first uniform columns lie on the map, where
// nothing is clamped.
type octaveColumns struct {
	col, wx []int32
	uniform int
}

func newOctaveColumns(fine, coarse *noiseField) octaveColumns {
	o := octaveColumns{col: make([]int32, fine.stride), wx: make([]int32, fine.stride)}
	o.uniform = (len(coarse.col)-1)>>fine.shiftX + 1
	for i := range o.col {
		x := min(i<<fine.shiftX, len(coarse.col)-1)
		o.col[i], o.wx[i] = coarse.col[x], coarse.wx[x]
	}
	return o
}
