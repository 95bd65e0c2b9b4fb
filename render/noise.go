package render

import "github.com/longcraft/longcraft/sim"

// nightNoise is Crafter's night noise, made deterministic and cheap: below
// half daylight, view pixels are replaced by grey noise (taken through the
// frame's daylight and sleep) with a probability that grows with darkness
// and toward the edges (a vignette). Thresholds and greys are fixed random
// patterns read at an offset derived from the seed and step, so the noise
// moves from frame to frame, is a function of the state, and draws nothing
// from the simulation's RNG.
//
// The noise grain is a cell of about a seventh of a tile, one pixel in
// Crafter's 64×64 frames: the same grain in tile terms at every size, and
// a cost that does not grow with the frame.
type nightNoise struct {
	cell   int // grain in pixels
	w, h   int // view size in cells
	pw, ph int // view size in pixels
	// cells[l][k] lists, for daylight level l and pattern k, the noisy
	// cells: their byte offsets in the frame (from the view's corner) and
	// greys (32 to 127). Picking a pattern per frame replaces a random
	// draw per cell, which would cost a mispredicted branch each.
	cells  [Levels][noisePatterns]noiseCells
	colors [2 * Levels][128][3]uint8
	// rows[v] holds, per grey, one cell row of that colour in variant v,
	// so that a cell fills with a copy per row.
	rows [2 * Levels][]byte
}

// noiseCells is one noise pattern.
type noiseCells struct {
	offset []int32
	gray   []uint8
}

// noisePatterns is the number of noise patterns per daylight level.
const noisePatterns = 16

func newNightNoise(unit, cols, rows int, f Format, stride int) nightNoise {
	cell := max(unit/7, 1)
	pw, ph := unit*cols, unit*rows
	w, h := (pw+cell-1)/cell, (ph+cell-1)/cell
	n := nightNoise{cell: cell, w: w, h: h, pw: pw, ph: ph}
	// Crafter's vignette: 1 − exp(−(x² + y²)/(2σ²)) with σ = 0.5, x and y
	// running from −1 to 1 across the view.
	vignette := make([]int, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			// x² + y² in 1/2^20 units.
			fx := int64(2*x-(w-1)) << 10 / int64(max(w-1, 1))
			fy := int64(2*y-(h-1)) << 10 / int64(max(h-1, 1))
			r2 := fx*fx + fy*fy
			vignette[y*w+x] = int(255 - expNeg(2*r2)*255>>30)
		}
	}
	rng := sim.RNG{State: 0x6e6f697365} // "noise"
	for l := range n.cells {
		amount := levelNoise(l)
		if amount == 0 {
			continue
		}
		for k := range n.cells[l] {
			p := &n.cells[l][k]
			for i, v := range vignette {
				r := rng.Uint64()
				if int(uint8(r)) < amount*v>>8 {
					p.offset = append(p.offset, int32(i/w*cell*stride+i%w*cell*int(f)))
					p.gray = append(p.gray, uint8(32+(r>>8)%96))
				}
			}
		}
	}
	bpp := int(f)
	for v := range n.colors {
		n.rows[v] = make([]byte, 128*cell*bpp)
		for g := range n.colors[v] {
			r, gg, b := variant(g, g, g, v/2, v%2 == 1)
			n.colors[v][g] = [3]uint8{uint8(r), uint8(gg), uint8(b)}
			fill(n.rows[v][g*cell*bpp:], cell*bpp, 0, cell, 1, bpp, uint8(r), uint8(gg), uint8(b))
		}
	}
	return n
}

// apply adds noise pattern k of daylight level (and sleep, in variant) to
// the view whose top-left pixel starts dst.
func (n *nightNoise) apply(dst []byte, stride, bpp, level, k, variant int) {
	p := &n.cells[level][k]
	gray := p.gray[:len(p.offset)]
	if n.cell == 1 {
		colors := &n.colors[variant]
		for i, o := range p.offset {
			c := &colors[gray[i]&127]
			px := dst[o : o+3 : o+3]
			px[0], px[1], px[2] = c[0], c[1], c[2]
		}
		return
	}
	rows := n.rows[variant]
	cb := n.cell * bpp
	for i, o := range p.offset {
		// Cells on the right and bottom edges may be cut short.
		x, y := int(o)%stride/bpp, int(o)/stride
		w, h := min(n.cell, n.pw-x), min(n.cell, n.ph-y)
		g := int(gray[i] & 127)
		src := rows[g*cb : g*cb+w*bpp]
		for r := 0; r < h; r++ {
			copy(dst[int(o)+r*stride:], src)
		}
	}
}

// noisePattern picks the noise pattern of w's frame from its seed and step.
func noisePattern(w *sim.World) int {
	rng := sim.RNG{State: w.Seed() ^ uint64(w.StepCount())*0x9e3779b97f4a7c15}
	return int(rng.Uint64() % noisePatterns)
}

// expNeg returns e^−t for t ≥ 0 in 1/2^20 units, as a 1/2^30 fraction,
// by (1 − t/2^12)^(2^12): integer arithmetic only, so every platform gets
// the same vignette.
func expNeg(t int64) int64 {
	const k = 12
	x := int64(1<<30) - (t<<10)>>k // 1 − t/2^k in 1/2^30
	if x <= 0 {
		return 0
	}
	for i := 0; i < k; i++ {
		x = x * x >> 30
	}
	return x
}
