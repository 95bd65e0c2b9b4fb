package render

// Text draws s into a frame of the given width (pixels) and format with
// its top-left corner at (x, y), each font pixel a scale×scale block, in
// colour (r, g, b) over a one-block dark shadow: a tiny bitmap font for
// demo overlays (task, last outcome). Characters that leave the frame are
// clipped. It allocates nothing.
func (a *Atlas) Text(dst []byte, width int, f Format, x, y, scale int, s string, r, g, b uint8) {
	bpp := int(f)
	height := len(dst) / (width * bpp)
	stride := width * bpp
	const advance = 6
	plot := func(px, py int, cr, cg, cb uint8) {
		x0, y0 := max(px, 0), max(py, 0)
		x1, y1 := min(px+scale, width), min(py+scale, height)
		for yy := y0; yy < y1; yy++ {
			for xx := x0; xx < x1; xx++ {
				o := yy*stride + xx*bpp
				dst[o], dst[o+1], dst[o+2] = cr, cg, cb
			}
		}
	}
	for pass := 0; pass < 2; pass++ { // shadow, then ink
		for i := 0; i < len(s); i++ {
			gl := a.glyph(s[i])
			for gy := 0; gy < 7; gy++ {
				for gx := 0; gx < 5; gx++ {
					if gl[gy]&(1<<(4-gx)) == 0 {
						continue
					}
					px, py := x+(i*advance+gx)*scale, y+gy*scale
					if pass == 0 {
						plot(px+scale, py+scale, 0, 0, 0)
					} else {
						plot(px, py, r, g, b)
					}
				}
			}
		}
	}
}
