package sim

import "math/bits"

// World generation: every tile is decided from noise fields and a per-tile
// hash of the seed, in the manner of Crafter's generator (a grass start
// area, water with sand beaches, mountains with caves, tunnels and ores,
// lava deep inside, trees in grassland), then creatures are scattered.
// The thresholds are tuned so that the proportions over many seeds match
// the spec's measurements of Crafter worlds (see TestWorldgenProportions).

// Noise fields, one lattice each.
const (
	fieldStart = iota
	fieldWaterLow
	fieldWater // both water octaves, on the fine lattice
	fieldMountainLow
	fieldMountain // both mountain octaves, on the fine lattice
	fieldCave
	fieldTunnelH
	fieldTunnelV
	fieldCoal
	fieldIron
	fieldLava
	fieldSand
	fieldTree
	numFields
)

// fieldShifts gives each field's log2 lattice spacing (x, y).
func fieldShifts(f int) (sx, sy uint) {
	switch f {
	case fieldWaterLow, fieldMountainLow:
		return 4, 4
	case fieldWater, fieldMountain:
		return fineShift, fineShift
	case fieldStart, fieldLava:
		return 2, 2
	case fieldTunnelH:
		return 4, 1
	case fieldTunnelV:
		return 1, 4
	case fieldIron:
		return 2, 2
	default: // cave, coal, sand, tree
		return 3, 3
	}
}

// fieldAcrossFirst reports whether field f is interpolated across x before
// down to the row (acrossPair) rather than down first (rowCols, fineRows).
// The order fixes the rounding, and so the world.
func fieldAcrossFirst(f int) bool {
	switch f {
	case fieldSand, fieldCave, fieldCoal, fieldIron, fieldLava:
		return true
	}
	return false
}

// generator is the scratch space of world generation, allocated by New (or
// by a clone's first Reset).
type generator struct {
	fields [numFields]noiseField
	// jobs are the interpolations of the row being generated, on the
	// vector path (see generateRowJobs); acrossReached marks the rows
	// that reach a new lattice row of an across-first field.
	jobs          lerpJobs
	acrossReached []uint8
	// mul64 is set where the hashing kernels multiply by AVX-512's
	// 64-bit multiply (hasMul64Kernels).
	mul64 bool
	// wide is set, with vector, where the tile decision and the cell
	// interpolations take sixteen tiles at a time in AVX-512's registers
	// (decide512_amd64.s, lerp512_amd64.s; hasWideKernels).
	wide bool
	// plainCount makes countRow count tile by tile (countRowPlain), for
	// the tests.
	plainCount bool
	// vector is set when the vector kernels (lerp_amd64.s, draws_amd64.s,
	// decide_amd64.s, and where wide the AVX-512 ones) run here;
	// fillLanes is fill's setup for them.
	vector    bool
	fillLanes hashLanes
	lattice   []int32
	// startDist holds, per row offset |dy| from the player and column
	// offset dx + startReach, the start area's score before noise:
	// startRadius − √(dx² + dy²), in 1/65536 units, inside its disc.
	startDist [startReach][2 * startReach]int32
	// startSpan holds, per row offset dy from the player, the greatest
	// column offset dx inside the start area's disc.
	startSpan [startReach]int
	// cols holds, per field interpolated down to a row before across x,
	// its lattice column values on row colsRow.
	cols    [numFields][]int32
	colsRow [numFields]int
	// across holds, per field interpolated across x before down to a row,
	// its two lattice rows around the current row (see acrossPair).
	across [numFields]acrossRows
	// rarity holds the draw thresholds of this generation: the classic
	// ones scaled by the ruleset's abundance and hostility.
	rarity rarities
	// The water and mountain heights of the row being generated.
	water, mountain rowBuf
	// treeRow and startRow hold the tree and start fields on the row
	// being generated.
	treeRow, startRow rowBuf
	// The vector path's rows (generateRowJobs): the tunnel fields, which
	// the scalar loop reads only on the tiles that need them, evaluated
	// on every tile of the row (the decision kernel evaluates the
	// across-first fields itself); what each tile's draws may start (passCow and the
	// others); and the kernel's thresholds.
	tunnelH, tunnelV rowBuf
	creatures        [MaxSide]uint8
	decide           decideSetup
	// columns counts, per balance rule, the tiles of its material in each
	// column of the chunk row being generated, a byte a column (see
	// countRow).
	columns [maxBalanceRules][MaxSide / 8]uint64
	// countedRules rules, listed in counted, count a material no earlier
	// rule counts (countedMaterial); countedAs gives each rule the
	// columns that count its material (setCounted).
	counted, countedAs [maxBalanceRules]int
	countedRules       int
	countedMaterial    [maxBalanceRules]Material
	// chunkSpans gives each chunk column's columns.
	chunkSpans []chunkSpan
	// octave places the fine water and mountain lattice columns in their
	// coarse octaves (see addOctave).
	octave octaveColumns
	// octaveRow and octaveSplit are the vector path's scratch for
	// addOctave: the coarse field at the fine lattice columns of a row,
	// and the weights.
	octaveRow   [MaxSide/4 + 8]int32
	octaveSplit octaveSplit
	// hashes holds the hashes of the row's tiles, passes the draws each
	// passes, and drawSetup the setup of their vector kernel (see
	// drawRow).
	hashes    [MaxSide]uint64
	passes    [MaxSide]uint8
	drawSetup drawSetup
	// row holds the inputs of the row being generated.
	row rowInputs
	// tileRow holds the materials of the row being generated, in a fixed
	// array of the generator so that the tile loop reaches it without
	// bounds checks or a register of its own; the row is copied to the
	// world's tiles at its end. walkable marks the walkable materials,
	// for any byte.
	tileRow  [MaxSide]Material
	walkable [256]bool
}

// startReach is the distance beyond which the start area no longer shapes
// the terrain: the logistic of its score is below 1/65536 there.
const startReach = 16

// newGenerator makes the generator of world w, whose shape and chunks are
// set.
func newGenerator(w *World) *generator {
	width, height := w.width, w.height
	g := &generator{vector: hasVectorKernels(), fillLanes: newHashLanes(4)}
	g.mul64 = g.vector && hasMul64Kernels()
	g.wide = g.vector && hasWideKernels()
	g.chunkSpans = newChunkSpans(w.chunkCol)
	n := 0
	for f := range g.fields {
		sx, sy := fieldShifts(f)
		g.fields[f] = newNoiseField(sx, sy, n, width, height)
		n += g.fields[f].stride * g.fields[f].rows
	}
	g.lattice = make([]int32, n+latticePad)
	for f := range g.fields {
		switch {
		case fieldAcrossFirst(f):
			g.across[f] = acrossRows{across: across{top: new(rowBuf), bot: new(rowBuf)}}
		default: // water and mountain too, though only the vector path reads theirs
			g.cols[f] = make([]int32, g.fields[f].stride+latticePad)
		}
	}
	// Both octave pairs have the same lattices (fieldShifts).
	g.newLerpJobs(width)
	g.acrossReached = g.newAcrossReached(height)
	g.octave = newOctaveColumns(&g.fields[fieldWater], &g.fields[fieldWaterLow])
	for dy := range g.startSpan {
		for dx := 0; dx*dx+dy*dy < startReach*startReach; dx++ {
			g.startSpan[dy] = dx
			d := startRadius - isqrt16(dx*dx+dy*dy)
			g.startDist[dy][startReach+dx], g.startDist[dy][startReach-dx] = d, d
		}
	}
	return g
}

// Generation thresholds in 1/65536 units.
const (
	startRadius     = 4 * one        // start area radius before noise
	startNoise      = 2              // × start noise
	waterBias       = one / 10       // added to water
	waterHighWeight = one * 15 / 100 // weight of the fine water octave
	// The mountain octaves weigh 1 (coarse) and 1.56 (fine), normalised
	// by their sum. Crafter's weigh 1 and 0.3, but its fine octave is
	// simplex noise at scale 5, rougher than our value noise 4 apart: with
	// 0.3 our mountains came out as smooth blobs, with too few small
	// outcrops and tunnel mouths near the start, and skeletons reached the
	// player half as often as in Crafter (docs/fidelity.md).
	mountLowNorm        = one * 39 / 100
	mountHighNorm       = one * 61 / 100
	mountainWaterWeight = one * 30 / 100 // water lowers mountains
	mountainLevel       = one * 178 / 1000
	caveMountain        = one * 41 / 100
	caveLevel           = one * 12 / 100
	tunnelLevel         = one * 56 / 100
	coalLevel           = 0
	coalRarity          = one * 87 / 100 // a coal tile needs a draw above this
	ironLevel           = one * 50 / 100
	ironRarity          = one * 81 / 100
	diamondMountain     = one * 18 / 100
	diamondRarity       = one * 9955 / 10000
	lavaMountain        = one * 23 / 100
	lavaLevel           = one * 68 / 100
	sandLow             = one * 28 / 100
	sandHigh            = one * 44 / 100
	sandLevel           = -one * 20 / 100
	waterLevel          = one * 40 / 100
	treeLevel           = 0
	treeRarity          = one * 785 / 1000
	cowRarity           = one * 985 / 1000
	zombieRarity        = one * 993 / 1000
	skeletonRarity      = one * 95 / 100
)

// The tile loop takes every tile above the beaches for water.
const _ = uint(sandHigh - waterLevel) // compile-time check: sandHigh ≥ waterLevel

// logistic returns 1/(1+e^-s) for s in 1/65536 units, interpolated from
// the generated table.
func logistic(s int32) int32 {
	k := int64(s)*8 + 10*8*one // position in the table, in 1/65536 steps
	if k <= 0 {
		return logisticTable[0]
	}
	i, frac := k>>16, k&(one-1)
	if i >= int64(len(logisticTable)-1) {
		return logisticTable[len(logisticTable)-1]
	}
	a, b := int64(logisticTable[i]), int64(logisticTable[i+1])
	return int32(a + (b-a)*frac>>16)
}

// isqrt16 returns √n in 1/65536 units: the floor of √(n·2^32), by
// Newton's method from above.
func isqrt16(n int) int32 {
	v := uint64(n) << 32
	if v == 0 {
		return 0
	}
	r := uint64(1) << ((bits.Len64(v) + 1) / 2)
	for {
		s := (r + v/r) / 2
		if s >= r {
			return int32(r)
		}
		r = s
	}
}

// rarities are draw thresholds in 1/65536: a draw above succeeds.
type rarities struct {
	tree, cow, zombie, skeleton, coal, iron, diamond int32
}

// scaleRarity scales the success chance of threshold r by pct percent.
func scaleRarity(r int32, pct int) int32 {
	if pct == 0 {
		return r
	}
	return max(one-int32(int64(one-r)*int64(pct)/100), 0)
}

// setRarities derives the thresholds of one generation from the rules.
func (g *generator) setRarities(gen *GenRules) {
	a, h := gen.Abundance, gen.Hostility
	g.rarity = rarities{
		tree: scaleRarity(treeRarity, a), cow: scaleRarity(cowRarity, a),
		coal: scaleRarity(coalRarity, a), iron: scaleRarity(ironRarity, a), diamond: scaleRarity(diamondRarity, a),
		zombie: scaleRarity(zombieRarity, h), skeleton: scaleRarity(skeletonRarity, h),
	}
}

// generate fills the map and scatters creatures for the current seed. The
// player has been placed at (px, py) already.
func (w *World) generate(px, py int) {
	g := w.gen
	key := mix64(w.s.Seed ^ 0x6c6f6e6763726166) // "longcraf"
	for f := range g.fields {
		g.fill(&g.fields[f], mix64(key+uint64(f)+1))
	}
	for f := range g.colsRow {
		g.colsRow[f] = -1
		g.across[f].row = -1
	}
	// Which materials are walkable and which the balance counts are set
	// on every Reset, since SetRules may have changed them.
	for m := range g.walkable {
		g.walkable[m] = w.rules.walkable.Has(Material(m))
	}
	g.setRarities(&w.rules.Gen)
	g.setCounted(w.rules.balance)
	g.setDraws()
	g.setDecide()
	// Water and mountains are two octaves each: a coarse one and a fine one
	// weighted less. Folding the coarse octave into the fine lattice's
	// points leaves one interpolation per tile for each.
	g.addOctave(fieldWater, fieldWaterLow, waterHighWeight, one)
	g.addOctave(fieldMountain, fieldMountainLow, mountHighNorm, mountLowNorm)
	g.row.extraOres = len(w.rules.Gen.Ores) > 0
	g.row.px, g.row.py = px, py
	// g.columns is zero: flushCounts clears it after each chunk row. The
	// player was added before the clear, so its chunk is marked here.
	clear(w.chunks)
	w.dueFresh = 0
	w.chunks[w.chunkOf(px, py)].held = true
	if g.vector && !g.row.extraOres {
		for y := 0; y < w.height; y++ {
			w.generateRowJobs(y, key)
		}
		return
	}
	for y := 0; y < w.height; y++ {
		w.generateRow(y, key)
	}
}

// generateRow decides the materials of row y, counts them into the chunks
// and starts creatures on the row.
//
// It is the reference, which machines without AVX2, WebAssembly and
// rulesets with extra ores run; elsewhere generateRowJobs (jobs.go)
// decides eight tiles at a time (sixteen with AVX-512) from every field
// evaluated on the whole row. The row's water, mountain, tree and start fields and its tiles'
// hashes are computed first, for the whole row, by the vector kernels
// where the machine has them (lerp_amd64.s, draws_amd64.s). Then the
// tiles are decided by decideRow, below, which reads the other fields
// only on the tiles that need them, inline: one interpolation there,
// their lattice having been brought down to the row (rowCols, once per
// row) or across x (acrossPair, once per lattice row). Row values live in the generator's fixed arrays, indexed
// by x, which the check that rows fit MaxSide lets the compiler prove in
// bounds (only the tunnel tables, read on mountain tiles, keep their
// checks); the loop holds little more than the generator's address in
// registers.
func (w *World) generateRow(y int, key uint64) {
	g := w.gen
	n := w.width
	base := y * n
	tiles := w.tiles[base : base+n]
	g.fineRows(y, n)
	g.sweepRow(fieldTree, y, &g.treeRow)
	g.startArea(y, n)
	// The inputs of the rarer decisions (mountains, beaches) stay in
	// memory (g.row): the loop reads them on the tiles that need them
	// only, and in registers they would crowd out the values every tile
	// uses.
	r := &g.row
	r.tunnelH, r.tunnelV = g.rowCols(fieldTunnelH, y), g.rowCols(fieldTunnelV, y)
	r.sand, r.sandWy = g.acrossPair(fieldSand, y)
	r.cave, r.caveWy = g.acrossPair(fieldCave, y)
	r.coal, r.coalWy = g.acrossPair(fieldCoal, y)
	r.iron, r.ironWy = g.acrossPair(fieldIron, y)
	r.lava, r.lavaWy = g.acrossPair(fieldLava, y)
	g.drawRow(key, base, n)
	if n > MaxSide {
		panic("sim: a row wider than MaxSide") // New refuses them; this lets the compiler drop bounds checks
	}
	w.decideRow(y, n)
	copy(tiles, g.tileRow[:n])
	if cs := w.rules.Creature.ChunkSize; (y+1)%cs == 0 || y == w.height-1 {
		w.flushCounts(y)
	}
}

// decideRow is the plain tile loop of generateRow: the reference the
// vector path (decideAVX2, decideAVX512) must match tile for tile, and what machines
// without AVX2, WebAssembly, and rulesets with extra ores run.
func (w *World) decideRow(y, n int) {
	g := w.gen
	if n > MaxSide {
		panic("sim: a row wider than MaxSide")
	}
	for x := 0; x < n; x++ {
		wv := g.water[x]
		m, creatures := MatGrass, uint8(passCow|passZombie)
		pass := g.passes[x]
		switch mv := g.mountain[x] - int32(int64(wv)*mountainWaterWeight>>16); {
		case mv > mountainLevel:
			// Caves and tunnels take no random draw; ores do.
			draws := g.hashes[x]
			fh, fv := &g.fields[fieldTunnelH], &g.fields[fieldTunnelV]
			switch {
			case mv > caveMountain && g.row.cave.at(x, g.row.caveWy) > caveLevel:
				m = MatPath
			case colsLerp(g.row.tunnelH, fh.col[x], fh.wx[x]) > tunnelLevel, colsLerp(g.row.tunnelV, fv.col[x], fv.wx[x]) > tunnelLevel:
				m, creatures = MatPath, passCow|passZombie|passSkeleton // skeletons start in tunnels
			default:
				switch {
				case draw(draws, drawCoal) > g.rarity.coal && g.row.coal.at(x, g.row.coalWy) > coalLevel:
					m = MatCoal
				case draw(draws, drawIron) > g.rarity.iron && g.row.iron.at(x, g.row.ironWy) > ironLevel:
					m = MatIron
				case mv > diamondMountain && draw(draws, drawDiamond) > g.rarity.diamond:
					m = MatDiamond
				case mv > lavaMountain && g.row.lava.at(x, g.row.lavaWy) > lavaLevel:
					m = MatLava
				case g.row.extraOres:
					m = w.extraOre(mv, draws)
				default:
					m = MatStone
				}
			}
		case wv > sandHigh: // above the beaches: water (sandHigh ≥ waterLevel)
			m = MatWater
		case wv > sandLow:
			// The beach band: sand where the sand field says, else water
			// above waterLevel, else grass or a tree. The sand field
			// changes often within the band, so this is computed, not
			// branched on.
			isSand := b2i(g.row.sand.at(x, g.row.sandWy) > sandLevel)
			isWater := b2i(wv > waterLevel) &^ isSand
			isTree := b2i(pass&passTree != 0) & b2i(g.treeRow[x] > treeLevel) &^ (isSand | isWater)
			m = MatGrass + Material(isTree*(int(MatTree)-int(MatGrass))+isSand*(int(MatSand)-int(MatGrass))+isWater*(int(MatWater)-int(MatGrass)))
		default:
			// Trees are scattered at random, which a branch would
			// mispredict: the tree bit is computed and added.
			isTree := b2i(pass&passTree != 0) & b2i(g.treeRow[x] > treeLevel)
			m += Material(isTree) * (MatTree - MatGrass)
		}
		g.tileRow[x], g.creatures[x] = m, creatures
	}
	w.countRow(y, n)
}

// rowInputs are the inputs of generateRow's decisions on the row being
// generated, other than the water, mountain and tree rows.
type rowInputs struct {
	tunnelH, tunnelV                       []int32
	sand, cave, coal, iron, lava           across
	sandWy, caveWy, coalWy, ironWy, lavaWy int64
	extraOres                              bool
	px, py                                 int // the player
}

// startTile marks the tiles of the start area in the water, mountain and
// tree rows: no field value reaches it, and it fails every test of the
// tile loop (mountain minus water stays far below any level), so the
// start area's tiles come out grass without a case of their own.
const startTile = -1 << 31

// startArea shapes row y around the player (g.row.px, g.row.py): water
// and mountains are lowered near the start, and the start area's own
// tiles, where its score is positive, are marked startTile.
func (g *generator) startArea(y, n int) {
	px, py := g.row.px, g.row.py
	dy := y - py
	if dy <= -startReach || dy >= startReach {
		return
	}
	// Only the disc of radius startReach, which startDist covers; eight
	// tiles at a time where the machine has the vector kernels
	// (start_amd64.s), the rest one by one.
	r := g.startSpan[abs(dy)]
	x0, x1 := max(px-r, 0), min(px+r+1, n)
	start := &g.startRow
	g.sweepRow(fieldStart, y, start)
	dist := &g.startDist[abs(dy)]
	const distMask = 2*startReach - 1
	if groups := (x1 - x0) / 8; g.vector && groups > 0 {
		i := x0 & rowMask
		startAreaAVX2(&g.water[i], &g.mountain[i], &g.treeRow[i], &start[i], &dist[(x0-px+startReach)&distMask], groups, &logisticTable[0])
		x0 += 8 * groups
	}
	for x := x0; x < x1; x++ {
		i := x & rowMask
		s := dist[(x-px+startReach)&distMask] + startNoise*start[i]
		near := logistic(s)
		g.water[i] -= 2 * near
		g.mountain[i] -= 5 * near / 2 // Crafter's factor is 4; 2.5 was fitted with the octaves (docs/fidelity.md)
		if s > 0 {
			g.water[i], g.mountain[i], g.treeRow[i] = startTile, startTile, startTile
		}
	}
}

// b2i is 1 for true and 0 for false; the compiler makes it a flag set,
// not a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// extraOre picks among the ruleset's extra ores for a stone tile of the
// given mountain height: the first whose depth and chance are met, or
// stone. They read the draw trees use elsewhere.
func (w *World) extraOre(mountain int32, draws uint64) Material {
	gen := &w.rules.Gen
	for i := range gen.Ores {
		o := &gen.Ores[i]
		if mountain > o.MinMountain && uint32(draw(draws, drawTree)) >= one-scaleChance(o.Chance, gen.Abundance) {
			return o.Material
		}
	}
	return MatStone
}

// scatterCreature may start a creature on the walkable tile (x, y) of
// material m, whose hash is draws; tunnel marks a tunnel tile. The kinds
// are the rows that take Crafter's start places (Rules.starts): cows',
// zombies' and skeletons' in classic, each with its own draw.
func (w *World) scatterCreature(x, y int, m Material, tunnel bool, draws uint64) {
	g := w.gen
	dx, dy := x-g.row.px, y-g.row.py
	d2 := dx*dx + dy*dy
	starts := &w.rules.starts
	var k ObjectKind
	switch {
	case d2 == 0: // the player's tile
		return
	case d2 > 3*3 && m == MatGrass && draw(draws, drawCow) > g.rarity.cow:
		k = starts[StartMeadow]
	case d2 > 10*10 && draw(draws, drawZombie) > g.rarity.zombie:
		k = starts[StartAnywhere]
	case m == MatPath && tunnel && draw(draws, drawSkeleton) > g.rarity.skeleton:
		k = starts[StartTunnel]
	}
	if k != ObjNone {
		w.addObject(w.newCreature(k, x, y))
	}
}

// scaleChance scales a probability (1/65536) by pct percent (0: as is).
func scaleChance(p uint32, pct int) uint32 {
	if pct == 0 {
		return p
	}
	return min(uint32(uint64(p)*uint64(pct)/100), one)
}
