package sim

import (
	"encoding/binary"
	"math/bits"
)

// The vector path of world generation's tile loop. The plain loop
// (decideRow) decides each tile by a chain of tests, reading the rarer
// fields (caves, tunnels, ores, lava, sand) only on the tiles that need
// them. Which test holds changes from tile to tile in ways a branch
// predictor cannot learn (a new world each time): those branches cost
// about a third of Reset (BenchmarkResetSameSeed, where the predictor has
// learnt them all, ran in 28 µs against 45 µs). A branch-free scalar
// loop that evaluated every field on every tile was slower still (about
// 1.6×: some forty operations a tile). The vector path (generateRowJobs,
// jobs.go) evaluates every field on the whole row with the vector kernels
// first, then decides eight tiles at once without a branch (decideAVX2 in
// decide_amd64.s; sixteen, decideAVX512 in decide512_amd64.s, where the
// machine has AVX-512), counting them into the chunks' columns as it
// goes, then starts the creatures in order along the row (scatterRow), as
// the plain loop does.

// decideSetup is what decideAVX2 and decideAVX512 read besides the rows:
// every threshold and material as eight equal 32-bit lanes (decideAVX512
// broadcasts the first), set once per generation (setDecide).
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
	cow, zombie, skeleton                    lanes // passCow, passZombie and passSkeleton, in byte 1
	// walk holds 1 for each walkable material of the ones decideAVX2
	// decides (all below 16, as VPSHUFB's index needs), twice, one for
	// each 128-bit half.
	walk [32]uint8
	pack [32]uint8
	// walkD is walk for decideAVX512: -1 for each walkable material
	// below 16, a dword each, for VPERMD.
	walkD [16]int32
	order lanes
	// The across-first fields (acrossFields: sand, cave, coal, iron,
	// lava) on the row: each field's lattice rows around it interpolated
	// across x (acrossPair's), and its weight between them split as
	// 256·hi + lo, set row by row by setRowJobs.
	acrossTop, acrossBot [numAcross]*int32
	acrossW              [numAcross][2]int32
	// acrossWy holds each field's weights by row (noiseField.wy), from
	// which decideAVX2 sets acrossW on entry.
	acrossWy [numAcross]*int32
	// count holds, per column set of generator.columns, the material it
	// counts in every byte, or 0xff (no material: MaxMaterials) where no
	// rule's material is counted there.
	count [maxBalanceRules][16]uint8
}

// decideAVX2 reaches each column set of generator.columns 1,024 bytes
// after the last.
var _ = [1]struct{}{}[MaxSide/8*8-1024]

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
		cow: fill8(passCow << 8), zombie: fill8(passZombie << 8), skeleton: fill8(passSkeleton << 8),
		// Each 128-bit half gathers its four tiles' materials (byte 0
		// of each lane) into its first four bytes and their creature
		// draws (byte 1) into bytes 8 to 11; order then puts the halves'
		// materials side by side in the first eight bytes, and their
		// draws in the next eight.
		order: lanes{0, 4, 2, 6, 1, 5, 3, 7},
	}
	for k, f := range acrossFields() {
		g.decide.acrossWy[k] = &g.fields[f].wy[0]
	}
	for m := range 16 {
		if g.walkable[m] {
			g.decide.walk[m], g.decide.walk[16+m] = 1, 1
			g.decide.walkD[m] = -1
		}
	}
	for k := range g.decide.count {
		for i := range g.decide.count[k] {
			g.decide.count[k][i] = 0xff
		}
	}
	for _, k := range g.counted[:g.countedRules] {
		for i := range g.decide.count[k] {
			g.decide.count[k][i] = uint8(g.countedMaterial[k])
		}
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

// countRow counts row y's decided tiles (g.tileRow) into the chunk counts
// and starts creatures on them (g.creatures: the draws each tile's
// terrain allows), in order along the row: decideRow ends with it.
// decideAVX2 counts as countRow does, eight tiles at once, and its caller
// then starts the creatures by scatterRow.
//
// It reads the row eight tiles at a time. Adding each tile's count to its
// chunk's counter took about eighteen instructions a tile; here each
// material a balance rule counts adds one to a byte per column
// (g.columns) where the tile is of that material, eight columns in one
// add, and flushCounts sums each chunk's columns once per chunk row. The
// creature draws, which few tiles pass, become a mask of candidates
// visited in order.
func (w *World) countRow(y, n int) {
	g := w.gen
	if n > MaxSide {
		panic("sim: a row wider than MaxSide")
	}
	if g.plainCount {
		w.countRowPlain(y, n)
		return
	}
	words := (n + 7) / 8
	for _, k := range g.counted[:g.countedRules] {
		pat, cols := bytesOf(uint64(g.countedMaterial[k])), &g.columns[k]
		for i := range words {
			i &= MaxSide/8 - 1
			cols[i] += zeroBytes(materials8((*[8]Material)(g.tileRow[i*8:])) ^ pat)
		}
	}
	w.scatterRow(y, n)
}

// scatterRow starts creatures on row y's tiles whose draws may start one
// (the tile's creature byte and passes share a bit), in order along the
// row: those walkable (scatterCreature checks the rest).
func (w *World) scatterRow(y, n int) {
	g := w.gen
	words := (n + 7) / 8
	for i := range words {
		i &= MaxSide/8 - 1
		c := binary.LittleEndian.Uint64(g.passes[i*8:]) & binary.LittleEndian.Uint64(g.creatures[i*8:])
		for c = nonzeroBytes(c); c != 0; c &= c - 1 {
			x := i*8 + bits.TrailingZeros64(c)/8
			if x >= n {
				break // the tail past the row holds no tile
			}
			if m := g.tileRow[x&rowMask]; g.walkable[m] {
				w.scatterCreature(x, y, m, g.creatures[x&rowMask]&passSkeleton != 0, g.hashes[x&rowMask])
			}
		}
	}
}

// countRowPlain is countRow tile by tile, straight into the chunks: the
// reference TestCountRow compares countRow with.
func (w *World) countRowPlain(y, n int) {
	g := w.gen
	for x := range n {
		m := g.tileRow[x&rowMask]
		for r, b := range w.rules.balance {
			if b.Material == m {
				w.chunks[w.chunkOf(x, y)].space[r]++
			}
		}
		if g.walkable[m] && g.passes[x&rowMask]&g.creatures[x&rowMask] != 0 {
			w.scatterCreature(x, y, m, g.creatures[x&rowMask]&passSkeleton != 0, g.hashes[x&rowMask])
		}
	}
}

// flushCounts adds the column counts accumulated over the chunk row of
// row y (countRow) to its chunks and clears them. A column holds at most
// one tile a row of the chunk row, and New bounds the chunk size below
// 16, so no byte overflows.
func (w *World) flushCounts(y int) {
	g := w.gen
	chunks := w.chunks[int(w.chunkRow[y]):][:w.chunksX]
	for r := range w.rules.balance[:min(len(w.rules.balance), maxBalanceRules)] {
		cols := &g.columns[g.countedAs[r]]
		for c := range chunks {
			s := &g.chunkSpans[c]
			// A byte sum: the multiply adds every byte into the top one.
			sum := (cols[s.word[0]&(MaxSide/8-1)]&s.mask[0] + cols[s.word[1]&(MaxSide/8-1)]&s.mask[1] +
				cols[s.word[2]&(MaxSide/8-1)]&s.mask[2]) * 0x0101010101010101 >> 56
			chunks[c].space[r] += uint8(sum)
		}
	}
	for _, k := range g.counted[:g.countedRules] {
		clear(g.columns[k][:])
	}
}

// chunkSpan is a chunk column's bytes in a row of columns: the bytes of
// mask[k] in word[k]. New bounds the chunk size below 16, so a chunk
// spans at most three words; the masks of the words it does not span are
// empty.
type chunkSpan struct {
	word [3]uint
	mask [3]uint64
}

// newChunkSpans returns the span of each chunk column of the map's
// columns (World.chunkCol).
func newChunkSpans(chunkCol []int32) []chunkSpan {
	var spans []chunkSpan
	for x, c := range chunkCol {
		if int(c) == len(spans) {
			spans = append(spans, chunkSpan{})
		}
		s := &spans[c]
		k := 0
		for k < 2 && s.mask[k] != 0 && s.word[k] != uint(x/8) {
			k++
		}
		if s.mask[k] != 0 && s.word[k] != uint(x/8) {
			panic("sim: a chunk over three words of columns")
		}
		s.word[k], s.mask[k] = uint(x/8), s.mask[k]|0xff<<(x%8*8)
	}
	return spans
}

// setCounted lists the balance rules' materials for countRow: a material
// two rules count is counted once.
func (g *generator) setCounted(rules []balanceRule) {
	g.countedRules = 0
	for r := range rules[:min(len(rules), maxBalanceRules)] {
		k := 0
		for k < r && rules[k].Material != rules[r].Material {
			k++
		}
		if k == r {
			g.counted[g.countedRules] = r
			g.countedRules++
		}
		g.countedAs[r], g.countedMaterial[r] = k, rules[r].Material
	}
}

// bytesOf repeats byte b in each of a word's eight bytes.
func bytesOf(b uint64) uint64 { return b * 0x0101010101010101 }

// SWAR masks: the low seven bits and the top bit of each byte.
const low7, high7 = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080

// zeroBytes returns 1 in each byte of v that is zero, else 0. Each byte is
// tested on its own: adding low7 to its low seven bits carries into its
// top bit, never past it.
func zeroBytes(v uint64) uint64 { return ^((v&low7 + low7) | v) & high7 >> 7 }

// nonzeroBytes returns the top bit of each byte of v that is not zero.
func nonzeroBytes(v uint64) uint64 { return (v&low7 + low7 | v) & high7 }

// decideAVX2 looks walkability up by VPSHUFB, which indexes 16 entries:
// every material it decides is below 16.
var _ = [16 - 1 - max(MatWater, MatGrass, MatStone, MatPath, MatSand, MatTree, MatLava, MatCoal, MatIron, MatDiamond)]struct{}{}
