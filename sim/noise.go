package sim

// Value noise for world generation: a lattice of random values, spaced a
// power of two apart on each axis, smoothly interpolated. Everything is
// integer (1/65536 units), so every platform generates the same world. It
// is ours, cheaper than simplex noise, and the world generator's
// thresholds are tuned to it (see worldgen.go).
//
// Lookups are table driven: for every x (and y) a field knows its lattice
// column (row) and smoothstep weight, so an evaluation is loads, three
// multiplies and no variable shifts.

// one is 1.0 in the 1/65536 fixed point used by worldgen and daylight.
const one = 65536

// noiseField is one lattice within the generator's buffer.
type noiseField struct {
	shiftX, shiftY uint // log2 of the lattice spacing, at most 5
	offset         int  // start in generator.lattice
	stride         int  // lattice points per row
	rows           int
	col, wx        []int32 // per x: lattice column and weight
	cellWeights    []int32 // per x offset within a lattice cell: weight
	rowStart, wy   []int32 // per y: index of the lattice row in generator.lattice, weight
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
	for ; i+4 <= len(pts); i += 4 {
		r := mix64(key + uint64(i)*0x9e3779b97f4a7c15)
		q := pts[i : i+4 : i+4]
		q[0] = 2*int32(uint16(r)) - one
		q[1] = 2*int32(uint16(r>>16)) - one
		q[2] = 2*int32(uint16(r>>32)) - one
		q[3] = 2*int32(uint16(r>>48)) - one
	}
	for r := mix64(key + uint64(i)*0x9e3779b97f4a7c15); i < len(pts); i, r = i+1, r>>16 {
		pts[i] = 2*int32(uint16(r)) - one
	}
}

// at returns field f at tile (x, y), in [-65536, 65536). It interpolates
// the lattice down to row y once per row and field (rows are generated in
// order), then across to x.
func (g *generator) at(f int, x, y int) int32 {
	if g.colsRow[f] != y {
		g.rowCols(&g.fields[f], y, g.cols[f])
		g.colsRow[f] = y
	}
	return g.fields[f].colsAt(g.cols[f], x)
}

// point evaluates field f at one tile straight from its lattice: cheaper
// than at for fields read on a few tiles of a row.
func (g *generator) point(f int, x, y int) int32 {
	fd := &g.fields[f]
	i := int(fd.rowStart[y]) + int(fd.col[x])
	p := g.lattice[i : i+fd.stride+2]
	wx := int64(fd.wx[x])
	return lerp(lerp(p[0], p[1], wx), lerp(p[fd.stride], p[fd.stride+1], wx), int64(fd.wy[y]))
}

// rowCols interpolates field f's lattice down to row y: cols[i] is the
// field at lattice column i on that row.
func (g *generator) rowCols(f *noiseField, y int, cols []int32) {
	i := int(f.rowStart[y])
	wy := int64(f.wy[y])
	top := g.lattice[i : i+f.stride]
	bot := g.lattice[i+f.stride : i+2*f.stride]
	cols = cols[:len(top)]
	for i := range cols {
		cols[i] = lerp(top[i], bot[i], wy)
	}
}

// fineRows evaluates the water and mountain fields, which share the fine
// lattice (spacing 4), on every tile of row y, water with its bias added.
// Each lattice cell is four tiles with fixed weights, so the loop is
// unrolled over them.
func (g *generator) fineRows(y int, water, mountain []int32) {
	fw, fm := &g.fields[fieldWater], &g.fields[fieldMountain]
	g.rowCols(fw, y, g.cols[fieldWater])
	g.rowCols(fm, y, g.cols[fieldMountain])
	wc, mc := g.cols[fieldWater], g.cols[fieldMountain]
	var k [fineSpan]int64
	for i := range k {
		k[i] = int64(fw.cellWeights[i])
	}
	mountain = mountain[:len(water)]
	x := 0
	for ix := 0; x+fineSpan <= len(water) && ix+1 < len(wc) && ix+1 < len(mc); ix++ {
		wa, wd := int64(wc[ix]), int64(wc[ix+1])-int64(wc[ix])
		ma, md := int64(mc[ix]), int64(mc[ix+1])-int64(mc[ix])
		ws, ms := water[x:x+fineSpan:x+fineSpan], mountain[x:x+fineSpan:x+fineSpan]
		// Unrolled by hand; the compiler does not unroll loops.
		ws[0], ms[0] = int32(wa+wd*k[0]>>16)+waterBias, int32(ma+md*k[0]>>16)
		ws[1], ms[1] = int32(wa+wd*k[1]>>16)+waterBias, int32(ma+md*k[1]>>16)
		ws[2], ms[2] = int32(wa+wd*k[2]>>16)+waterBias, int32(ma+md*k[2]>>16)
		ws[3], ms[3] = int32(wa+wd*k[3]>>16)+waterBias, int32(ma+md*k[3]>>16)
		x += fineSpan
	}
	for ; x < len(water); x++ { // a partial cell at the right edge
		water[x] = fw.colsAt(wc, x) + waterBias
		mountain[x] = fm.colsAt(mc, x)
	}
}

// fineSpan is the lattice spacing of the water and mountain fields.
const fineSpan = 4

// sweep evaluates field f on row y for x in [lo, hi) into dst[lo:hi].
func (g *generator) sweep(f, y, lo, hi int, dst []int32) {
	fd := &g.fields[f]
	if g.colsRow[f] != y {
		g.rowCols(fd, y, g.cols[f])
		g.colsRow[f] = y
	}
	cols := g.cols[f]
	col, wx := fd.col[lo:hi], fd.wx[lo:hi]
	dst = dst[lo:hi]
	for x := range dst {
		ix := col[x]
		dst[x] = lerp(cols[ix], cols[ix+1], int64(wx[x]))
	}
}

// colsAt interpolates a row's lattice column values (from rowCols) at x.
func (f *noiseField) colsAt(cols []int32, x int) int32 {
	ix := f.col[x]
	return lerp(cols[ix], cols[ix+1], int64(f.wx[x]))
}

// lerp returns a + (b−a)·t for t in 1/65536 units.
func lerp(a, b int32, t int64) int32 {
	return int32(int64(a) + (int64(b)-int64(a))*t>>16)
}

// addOctave rescales fine's random lattice by fineWeight and adds the
// coarse field, weighted by coarseWeight, at each of fine's lattice
// points (weights in 1/65536). coarse must be the coarser field, and
// fine's lattice points beyond the map are clamped onto its edge.
func (g *generator) addOctave(fineField, coarseField int, fineWeight, coarseWeight int64) {
	fine, coarse := &g.fields[fineField], &g.fields[coarseField]
	for j := 0; j < fine.rows; j++ {
		y := min(j<<fine.shiftY, len(coarse.rowStart)-1)
		for i := 0; i < fine.stride; i++ {
			x := min(i<<fine.shiftX, len(coarse.col)-1)
			p := &g.lattice[fine.offset+j*fine.stride+i]
			*p = int32((int64(*p)*fineWeight + int64(g.at(coarseField, x, y))*coarseWeight) >> 16)
		}
	}
}
