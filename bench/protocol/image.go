package protocol

import (
	"bytes"
	"encoding/base64"
	"image/png"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// EncodePNG encodes an RGBA frame of width×height pixels.
func EncodePNG(frame []byte, width, height int) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, render.Image(frame, width, height, render.RGBA)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// FullObservation holds what full observability adds to the modalities an
// agent asked for: the whole map as semantic ids and as an image.
type FullObservation struct {
	mv    *render.MapView
	frame []byte
	ids   []uint8
}

// mapScale is the full-map image's pixels per tile.
const mapScale = 4

// NewFullObservation prepares the full-map modalities: the image only
// when images are asked for (a nil atlas: none).
func NewFullObservation(a *render.Atlas) (*FullObservation, error) {
	f := &FullObservation{}
	if a != nil {
		mv, err := render.NewMapView(a, mapScale, render.RGBA)
		if err != nil {
			return nil, err
		}
		f.mv = mv
	}
	return f, nil
}

// Fill adds the whole map to obs: symbolic when asked, the image when
// prepared.
func (f *FullObservation) Fill(w *sim.World, obs *Observation, symbolic bool) error {
	if symbolic {
		n := w.Width() * w.Height()
		if len(f.ids) != n {
			f.ids = make([]uint8, n)
		}
		w.SemanticMap(f.ids)
		obs.SymbolicMap = make([][]int, w.Height())
		for y := range obs.SymbolicMap {
			row := make([]int, w.Width())
			for x := range row {
				row[x] = int(f.ids[y*w.Width()+x])
			}
			obs.SymbolicMap[y] = row
		}
	}
	if f.mv != nil {
		if n := f.mv.FrameBytes(w); len(f.frame) != n {
			f.frame = make([]byte, n)
		}
		f.mv.Render(w, f.frame)
		fw, fh := f.mv.FrameSize(w)
		b, err := EncodePNG(f.frame, fw, fh)
		if err != nil {
			return err
		}
		obs.MapImage = base64.StdEncoding.EncodeToString(b)
	}
	return nil
}

// ImageNote tells, in the text, what the agent-view image shows beside the
// text and the symbolic view: under Longcraft's view they cover more, under
// Crafter's the same tiles.
func ImageNote(v task.LocalView) string {
	if v == task.CrafterView {
		return "The image shows the 9×7 tiles around you (4 east and west, 3 north and south) above your inventory, as this text and the symbolic view do.\n"
	}
	return "The image shows the 9×7 tiles around you (4 east and west, 3 north and south) above your inventory; this text and the symbolic view cover 9×9 (4 tiles each way).\n"
}
