package render

import (
	"fmt"

	"github.com/longcraft/longcraft/sim"
)

// MapView renders whole maps at a fixed number of pixels per tile, in full
// daylight, with the player's 9×7 view outlined: for demos, thumbnails and
// reports. Like AgentView it is built once and allocates nothing per frame.
type MapView struct {
	scale  int
	format Format
	world  *tileSet // two variants: awake, asleep (full daylight)
	layout *worldLayout
}

// NewMapView prepares a renderer of scale pixels per tile (1 to 64).
func NewMapView(a *Atlas, scale int, f Format) (*MapView, error) {
	if scale < 1 || scale > 64 {
		return nil, fmt.Errorf("map view: scale %d outside 1 to 64", scale)
	}
	if !f.valid() {
		return nil, fmt.Errorf("map view: unknown format %d", f)
	}
	m := &MapView{scale: scale, format: f, layout: newWorldLayout()}
	m.world = newTileSet(a, m.layout.sprites, scale, f, 1, func(_, r, g, b int) (int, int, int) {
		return variant(r, g, b, Levels-1, false)
	})
	m.layout.groundOpaque(m.world)
	return m, nil
}

// FrameSize returns the pixel size of w's map.
func (m *MapView) FrameSize(w *sim.World) (width, height int) {
	return w.Width() * m.scale, w.Height() * m.scale
}

// FrameBytes returns the buffer size for w's map.
func (m *MapView) FrameBytes(w *sim.World) int {
	fw, fh := m.FrameSize(w)
	return fw * fh * int(m.format)
}

// Render draws w's whole map into dst, which must hold FrameBytes(w).
func (m *MapView) Render(w *sim.World, dst []byte) {
	bpp := int(m.format)
	fw, _ := m.FrameSize(w)
	stride := fw * bpp
	dst = dst[:m.FrameBytes(w)]
	rules, facing, sleeping := w.Rules(), w.Facing(), w.Sleeping()
	for y := 0; y < w.Height(); y++ {
		for x := 0; x < w.Width(); x++ {
			at := y*m.scale*stride + x*m.scale*bpp
			m.world.draw(dst, stride, at, 0, m.layout.ground(w.Material(x, y)))
			if o, ok := w.ObjectAt(x, y); ok {
				m.world.draw(dst, stride, at, 0, m.layout.object(rules, o, facing, sleeping))
			}
		}
	}
	// Outline the agent's view, clipped to the map.
	px, py := w.Player()
	x0, y0 := max(px-viewCols/2, 0)*m.scale, max(py-viewRows/2, 0)*m.scale
	x1 := min(px+viewCols/2+1, w.Width()) * m.scale
	y1 := min(py+viewRows/2+1, w.Height()) * m.scale
	t := max(m.scale/8, 1)
	const r, g, b = 255, 220, 40
	fill(dst, stride, y0*stride+x0*bpp, x1-x0, t, bpp, r, g, b)
	fill(dst, stride, (y1-t)*stride+x0*bpp, x1-x0, t, bpp, r, g, b)
	fill(dst, stride, y0*stride+x0*bpp, t, y1-y0, bpp, r, g, b)
	fill(dst, stride, y0*stride+(x1-t)*bpp, t, y1-y0, bpp, r, g, b)
}
