package sim

// Per-tile draws: one 64-bit hash per tile, cut into four 16-bit uniform
// draws. The draws a tile uses never overlap: mountain tiles read the
// first three for ore, grassland the fourth for trees; creatures read the
// first three on walkable tiles, which took none of them for terrain
// (grass reads the fourth, sand, caves and tunnels none).
const (
	drawCoal, drawIron, drawDiamond, drawTree = 0, 16, 32, 48
	drawCow, drawZombie, drawSkeleton         = 0, 16, 32
)

// The draws a row's tiles pass, two bits per draw in the tile's byte of
// generator.passes (the layout VPMOVMSKB gives draws_amd64.s).
const (
	passCow      = 3 << (2 * (drawCow / 16))
	passZombie   = 3 << (2 * (drawZombie / 16))
	passSkeleton = 3 << (2 * (drawSkeleton / 16))
	passTree     = 3 << (2 * (drawTree / 16))
)

func draw(d uint64, shift uint) int32 { return int32(d >> shift & 0xffff) }

// hashLanes sets the hash inputs of a vector kernel's four 64-bit lanes:
// their offsets from the first input, and the step of all four from one
// iteration to the next.
type hashLanes struct {
	start [4]uint64
	step  uint64
	// mul64 has the kernel multiply by AVX-512's VPMULLQ (hasMul64Kernels).
	mul64 bool
}

// newHashLanes spaces the four lanes every hash inputs apart.
func newHashLanes(every uint64) hashLanes {
	var l hashLanes
	for k := range l.start {
		l.start[k] = uint64(k) * every * splitMixGamma // wraps, as the hash inputs do
	}
	l.step = 4 * every * splitMixGamma
	return l
}

// drawSetup is what drawRow's vector kernel reads, laid out for it.
type drawSetup struct {
	lanes hashLanes // one tile apart
	// above holds, for the four draws of four tiles, the threshold a draw
	// must exceed to pass (cow, zombie, skeleton, tree), at most 65535,
	// with its sign bit flipped.
	above [16]uint16
	// carry02 and carry13 compare draws 0 and 2, and 1 and 3, with their
	// thresholds in the generic code (see drawRow); the kernel does not
	// read them.
	carry02, carry13 uint64
}

// setDraws prepares drawRow for the thresholds of this generation.
func (g *generator) setDraws() {
	s := &g.drawSetup
	s.lanes = newHashLanes(1)
	s.lanes.mul64 = g.mul64
	r := &g.rarity
	var carry [4]uint64
	for k, t := range [4]int32{r.cow, r.zombie, r.skeleton, r.tree} {
		t16 := uint16(min(t, 0xffff))
		for tile := range 4 {
			s.above[4*tile+k] = t16 ^ 0x8000
		}
		carry[k] = uint64(0xffff - t16)
	}
	s.carry02, s.carry13 = carry[0]|carry[2]<<32, carry[1]|carry[3]<<32
}

// evenDraws keeps draws 0 and 2 of a hash, each with 16 spare bits above.
const evenDraws = 0x0000ffff0000ffff

// spreadPasses turns four bits, one per draw, into the two bits per draw
// of passCow and the others. It is a constant table, never written.
var spreadPasses = [16]uint8{
	0x00, 0x03, 0x0c, 0x0f, 0x30, 0x33, 0x3c, 0x3f,
	0xc0, 0xc3, 0xcc, 0xcf, 0xf0, 0xf3, 0xfc, 0xff,
}

// drawRow hashes the n tiles of the row starting at tile index base into
// g.hashes and marks in g.passes the draws each passes (see passCow).
func (g *generator) drawRow(key uint64, base, n int) {
	h := key + uint64(base+1)*splitMixGamma // tile base's hash input
	x := 0
	if g.vector {
		x = n &^ 3
		drawsAVX2(&g.hashes[0], &g.passes[0], h, x, &g.drawSetup)
	}
	// Draws 0 and 2, then 1 and 3, are compared at once: adding
	// 0xffff − threshold carries into the spare bits above a draw exactly
	// when the draw exceeds its threshold.
	for ; x < n; x++ {
		d := mix64(h + uint64(x)*splitMixGamma)
		g.hashes[x&rowMask] = d
		c02, c13 := d&evenDraws+g.drawSetup.carry02, d>>16&evenDraws+g.drawSetup.carry13
		g.passes[x&rowMask] = spreadPasses[c02>>16&1|c13>>15&2|c02>>46&4|c13>>45&8]
	}
}
