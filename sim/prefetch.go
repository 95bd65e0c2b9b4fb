package sim

// Prefetching: a host that steps many worlds in turn, more than its
// caches hold (bench/vec's 4,096 worlds take 80 MB), waits on memory
// for most of each world's step: the World, its objects, the tiles and
// object slots around the player that Step and LocalView read, each a
// miss. A host that knows which world comes next asks for them ahead, in
// three phases a world or so apart, each reading only what the one
// before brought in: PrefetchWorld (the World itself), PrefetchObjects
// (its objects and chunk counts, found through the World), PrefetchView
// (the rows around the player, found through its object). A prefetch
// changes nothing a world computes, only when its memory arrives; on
// machines without the instruction (the kernels are no-ops there) the
// phases cost a few loads.

// PrefetchWorld asks the caches for w's own fields.
func (w *World) PrefetchWorld() {
	prefetchWorld(w)
}

// PrefetchObjects asks for w's live objects and chunk counts; it reads
// w's fields (PrefetchWorld them first).
func (w *World) PrefetchObjects() {
	if n := w.s.NumObjects; n > 0 {
		prefetchObjects(&w.objects[0], int(n))
	}
	if len(w.chunks) > 0 {
		prefetchChunks(&w.chunks[0], len(w.chunks))
	}
}

// prefetchRadius is how many rows above and below the player
// PrefetchView asks for: the local view's half (4) and the row the
// player may step into.
const prefetchRadius = ViewSize/2 + 1

// PrefetchView asks for the tiles and object slots around the player:
// what LocalView and the player's move read. It reads the player's
// object (PrefetchObjects first).
func (w *World) PrefetchView() {
	if w.s.NumObjects == 0 {
		return
	}
	px, py := w.Player()
	x0, x1 := max(px-prefetchRadius, 0), min(px+prefetchRadius, w.width-1)
	y0, y1 := max(py-prefetchRadius, 0), min(py+prefetchRadius, w.height-1)
	i, n, rows := y0*w.width+x0, x1-x0+1, y1-y0+1
	prefetchTileRows(&w.tiles[i], n, w.width, rows)
	prefetchSlotRows(&w.objAt[i], n, w.width, rows)
}

// Prefetching reports whether this build's prefetch phases ask the
// caches for anything (amd64) or do nothing (elsewhere): what a host's
// benchmark of prefetching against none reports beside its figures.
func Prefetching() bool { return prefetchKernels }
