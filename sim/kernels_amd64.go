package sim

import "golang.org/x/sys/cpu"

// hasVectorKernels reports whether this machine runs the AVX2 kernels of
// lerp_amd64.s and draws_amd64.s.
func hasVectorKernels() bool { return cpu.X86.HasAVX2 }

// hasMul64Kernels reports whether the hashing kernels (draws_amd64.s) may
// multiply 64-bit lanes by AVX-512's VPMULLQ on YMM registers: one
// instruction where AVX2 takes seven.
func hasMul64Kernels() bool { return cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL }

// hasWideKernels reports whether the tile decision and the cell
// interpolations may take sixteen tiles at a time in AVX-512's ZMM and
// mask registers (decideAVX512, lerp512_amd64.s), which need no more
// than AVX512F: their 128- and 256-bit instructions are VEX-encoded.
func hasWideKernels() bool { return cpu.X86.HasAVX512F }

// lerpRowsAVX2 sets dst[i] = lerp(top[i], bot[i], th·256+tl) for i < n,
// n ≥ 8; dst must not overlap top or bot.
//
//go:noescape
func lerpRowsAVX2(dst, top, bot *int32, n int, th, tl int32)

// cells8AVX2 fills cells of 8 tiles, plus bias: dst[8c+k] =
// lerp(vals[c], vals[c+1], weight k) + bias for c < cells, the weights
// split as in cellSplit. It reads vals up to index cells.
//
//go:noescape
func cells8AVX2(dst, vals *int32, cells int, w *cellSplit, bias int32)

// cells4AVX2 fills pairs of cells of 4 tiles, plus bias: dst[4c+k] =
// lerp(vals[c], vals[c+1], weight k) + bias for c < 2·pairs. It reads
// vals up to index 2·pairs.
//
//go:noescape
func cells4AVX2(dst, vals *int32, pairs int, w *cellSplit, bias int32)

// cells16AVX2 is cells8AVX2 for cells of 16 tiles.
//
//go:noescape
func cells16AVX2(dst, vals *int32, cells int, w *cellSplit, bias int32)

// cells2AVX2 fills quads of cells of 2 tiles, plus bias, as cells4AVX2
// does pairs of cells of 4. It reads vals up to index 4·quads.
//
//go:noescape
func cells2AVX2(dst, vals *int32, quads int, w *cellSplit, bias int32)

// drawsAVX2 is drawRow for n tiles, n a multiple of 4.
//
//go:noescape
func drawsAVX2(draws *uint64, bits *uint8, h uint64, n int, s *drawSetup)

// decideAVX2 decides the tiles of gen's row y, eight at a time for
// groups groups, from the rows generateRowJobs has evaluated into gen: their
// materials into gen.tileRow, the draws that may start a creature into
// gen.creatures (see decide.go).
//
//go:noescape
func decideAVX2(gen *generator, groups, y int)

// decideAVX512 is decideAVX2 sixteen tiles at a time, for groups groups
// of sixteen.
//
//go:noescape
func decideAVX512(gen *generator, groups, y int)

// startAreaAVX2 is startArea's loop for 8·groups tiles, every pointer at
// the first of them: dist at that tile's entry of its startDist row.
//
//go:noescape
func startAreaAVX2(water, mountain, tree, start, dist *int32, groups int, table *int32)

// octaveAVX2 is addOctave's sum for the first 8·(n/8) lattice points of
// a row, the coarse field's values at them in coarse.
//
//go:noescape
func octaveAVX2(pts, coarse *int32, n int, w *octaveSplit)

// cells2AVX512, cells4AVX512, cells8AVX512 and cells16AVX512 are the
// cell kernels sixteen tiles an iteration (lerp512_amd64.s), for n
// iterations of 8, 4, 2 or 1 cells.
//
//go:noescape
func cells2AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)

//go:noescape
func cells4AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)

//go:noescape
func cells8AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)

//go:noescape
func cells16AVX512(dst, vals *int32, n int, w *cellSplit, bias int32)

// runLerpJobs runs n interpolation jobs of row y in order (jobs.go) by
// the kernels above: the cell kinds by the AVX-512 kernels if wide.
//
//go:noescape
func runLerpJobs(jobs *lerpJob, n, y int, wide bool)

// fillAVX2 is fill's loop for n values, n a multiple of 16, s spacing the
// lanes four tiles apart.
//
//go:noescape
func fillAVX2(dst *int32, h uint64, n int, s *hashLanes)

// nearMaskAVX2 is nearMask for the first 8·groups ≤ 64 objects, the
// player at pxy (X in the low 16 bits, Y in the high) and radius within
// [0, 65536]. It reads all 8·groups objects.
//
//go:noescape
func nearMaskAVX2(objs *Object, groups int, pxy uint32, radius int32) uint64

// prefetchKernels: the prefetch kernels below are real.
const prefetchKernels = true

// The prefetch kernels (prefetch_amd64.s) ask the caches for the lines
// of a World, n objects, n chunk counts, or rows rows of n tiles or
// object slots stride elements apart.

//go:noescape
func prefetchWorld(w *World)

//go:noescape
func prefetchObjects(o *Object, n int)

//go:noescape
func prefetchChunks(c *chunkCounts, n int)

//go:noescape
func prefetchTileRows(p *Material, n, stride, rows int)

//go:noescape
func prefetchSlotRows(p *uint8, n, stride, rows int)
