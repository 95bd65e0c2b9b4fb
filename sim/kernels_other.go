//go:build !amd64

package sim

// hasVectorKernels reports false: only amd64 has the vector kernels, and
// the generic code computes the same values.
func hasVectorKernels() bool { return false }

func hasMul64Kernels() bool { return false }

func hasWideKernels() bool { return false }

func lerpRowsAVX2(dst, top, bot *int32, n int, th, tl int32) { panic("sim: no vector kernels") }

func cells8AVX2(dst, vals *int32, cells int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func cells4AVX2(dst, vals *int32, pairs int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func cells16AVX2(dst, vals *int32, cells int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func cells2AVX2(dst, vals *int32, quads int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func drawsAVX2(draws *uint64, bits *uint8, h uint64, n int, s *drawSetup) {
	panic("sim: no vector kernels")
}

func decideAVX2(gen *generator, groups, y int) { panic("sim: no vector kernels") }

func decideAVX512(gen *generator, groups, y int) { panic("sim: no vector kernels") }

func startAreaAVX2(water, mountain, tree, start, dist *int32, groups int, table *int32) {
	panic("sim: no vector kernels")
}

func octaveAVX2(pts, coarse *int32, n int, w *octaveSplit) { panic("sim: no vector kernels") }

func runLerpJobs(jobs *lerpJob, n, y int, wide bool) { panic("sim: no vector kernels") }

func cells2AVX512(dst, vals *int32, n int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func cells4AVX512(dst, vals *int32, n int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func cells8AVX512(dst, vals *int32, n int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func cells16AVX512(dst, vals *int32, n int, w *cellSplit, bias int32) {
	panic("sim: no vector kernels")
}

func fillAVX2(dst *int32, h uint64, n int, s *hashLanes) { panic("sim: no vector kernels") }

func nearMaskAVX2(objs *Object, groups int, pxy uint32, radius int32) uint64 {
	panic("sim: no vector kernels")
}

// prefetchKernels: the prefetch kernels below do nothing.
const prefetchKernels = false

// The prefetch kernels do nothing: a prefetch is a hint only, and Go has
// no portable one.

func prefetchWorld(w *World)                            {}
func prefetchObjects(o *Object, n int)                  {}
func prefetchChunks(c *chunkCounts, n int)              {}
func prefetchTileRows(p *Material, n, stride, rows int) {}
func prefetchSlotRows(p *uint8, n, stride, rows int)    {}
