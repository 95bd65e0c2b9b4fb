package sim

// The vector path of world generation's tile loop. The plain loop
// (decideRow) decides each tile by a chain of tests, reading the rarer
// fields (caves, tunnels, ores, lava, sand) only on the tiles that need
// them. Which test holds changes from tile to tile in ways a branch
// predictor cannot learn (a new world each time): those branches cost
// about a third of Reset (BenchmarkResetSameSeed, where the predictor has
// learnt them all, ran in 28 µs against 45 µs). A branch-free scalar
// loop that evaluated every field on every tile was slower still (about
// 1.6×: some forty operations a tile). decideRowVector evaluates every
// field on the whole row with the vector kernels first, then decides
// eight tiles at once without a branch (decideAVX2 in decide_amd64.s),
// then counts the tiles and starts the creatures in order along the row
// (countRow), as the plain loop does.

// decideSetup is what decideAVX2 reads besides the rows: every threshold
// and material as eight equal 32-bit lanes, set once per generation
// (setDecide).
type decideSetup struct {
	w76, w204                                lanes // mountainWaterWeight = 76·256 + 204
	mountainLevel, caveMountain, caveLevel   lanes
	tunnelLevel, coalLevel, ironLevel        lanes
	diamondMountain, lavaMountain, lavaLevel lanes
	sandLow, sandHigh, sandLevel, waterLevel lanes
	treeLevel                                lanes
	coal, iron, diamond                      lanes // the draws' rarities
	low16, passTree                          lanes // 0xffff; passTree
	stone, path, coalM, ironM, diamondM      lanes // materials
	lava, grass, tree, sandM, water          lanes
	creatures, skeleton                      lanes // passCow|passZombie and passSkeleton, in byte 1
	pack                                     [32]uint8
	order                                    lanes
}

// decideAVX2 stores a tile's material as one byte.
var _ = [1]struct{}{}[^Material(0)-0xff]

// lanes is one 32-bit value in each of a vector's eight lanes.
type lanes [8]int32

func fill8(v int32) (l lanes) {
	for i := range l {
		l[i] = v
	}
	return l
}

// The mountain water weight is split for the kernel into 76·256 + 204,
// so that each product fits 32 bits: ⌊w·19660/65536⌋ = (w·76 + (w·204 >> 8)) >> 8
// with arithmetic shifts, exactly, for |w| < 2^23.
const _ = uint(mountainWaterWeight - (76*256 + 204)) // compile-time: the split is exact…
const _ = uint(76*256 + 204 - mountainWaterWeight)   // …both ways

// setDecide prepares decideAVX2 for this generation's rarities.
func (g *generator) setDecide() {
	r := &g.rarity
	g.decide = decideSetup{
		w76: fill8(76), w204: fill8(204),
		mountainLevel: fill8(mountainLevel), caveMountain: fill8(caveMountain), caveLevel: fill8(caveLevel),
		tunnelLevel: fill8(tunnelLevel), coalLevel: fill8(coalLevel), ironLevel: fill8(ironLevel),
		diamondMountain: fill8(diamondMountain), lavaMountain: fill8(lavaMountain), lavaLevel: fill8(lavaLevel),
		sandLow: fill8(sandLow), sandHigh: fill8(sandHigh), sandLevel: fill8(sandLevel), waterLevel: fill8(waterLevel),
		treeLevel: fill8(treeLevel),
		coal:      fill8(r.coal), iron: fill8(r.iron), diamond: fill8(r.diamond),
		low16: fill8(0xffff), passTree: fill8(passTree),
		stone: fill8(int32(MatStone)), path: fill8(int32(MatPath)), coalM: fill8(int32(MatCoal)),
		ironM: fill8(int32(MatIron)), diamondM: fill8(int32(MatDiamond)), lava: fill8(int32(MatLava)),
		grass: fill8(int32(MatGrass)), tree: fill8(int32(MatTree)), sandM: fill8(int32(MatSand)), water: fill8(int32(MatWater)),
		creatures: fill8((passCow | passZombie) << 8), skeleton: fill8(passSkeleton << 8),
		// Each 128-bit half gathers its four tiles' materials (byte 0
		// of each lane) into its first four bytes and their creature
		// draws (byte 1) into bytes 8 to 11; order then puts the halves'
		// materials side by side in the first eight bytes, and their
		// draws in the next eight.
		order: lanes{0, 4, 2, 6, 1, 5, 3, 7},
	}
	for half := 0; half < 2; half++ {
		p := g.decide.pack[16*half:][:16]
		for i := range p {
			p[i] = 0x80 // zero
		}
		for t := 0; t < 4; t++ {
			p[t], p[8+t] = uint8(4*t), uint8(4*t+1)
		}
	}
}

// decideRowVector is decideRow for machines with the vector kernels and
// rulesets without extra ores: the same tiles, the same creatures, in the
// same order.
func (w *World) decideRowVector(y, n int) {
	g := w.gen
	r := &g.row
	g.sweepRow(fieldTunnelH, y, &g.tunnelH)
	g.sweepRow(fieldTunnelV, y, &g.tunnelV)
	g.lerpRows(g.sand[:n], r.sand.top[:n], r.sand.bot[:n], int32(r.sandWy))
	g.lerpRows(g.cave[:n], r.cave.top[:n], r.cave.bot[:n], int32(r.caveWy))
	g.lerpRows(g.coal[:n], r.coal.top[:n], r.coal.bot[:n], int32(r.coalWy))
	g.lerpRows(g.iron[:n], r.iron.top[:n], r.iron.bot[:n], int32(r.ironWy))
	g.lerpRows(g.lava[:n], r.lava.top[:n], r.lava.bot[:n], int32(r.lavaWy))
	decideAVX2(g, (n+7)/8)
	w.countRow(y, n)
}

// countRow counts row y's decided tiles (g.tileRow) into the chunk counts
// and starts creatures on them (g.creatures: the draws each tile's
// terrain allows), in order along the row: both decideRow and
// decideRowVector end with it.
func (w *World) countRow(y, n int) {
	g := w.gen
	if n > MaxSide {
		panic("sim: a row wider than MaxSide")
	}
	for x := 0; x < n; x++ {
		m := g.tileRow[x]
		t := g.info[m]
		g.counts[g.chunkCol[x]&rowMask] += t
		// Few tiles start a creature, but which tiles are walkable
		// changes at random (trees), so the walkable flag and the draws
		// are combined before the one branch; scatterCreature checks the
		// rest.
		if creatures := g.creatures[x]; int(g.passes[x]&creatures)&-int(t>>63) != 0 {
			w.scatterCreature(x, y, m, creatures&passSkeleton != 0, g.hashes[x])
		}
	}
}
