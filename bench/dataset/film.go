package dataset

import (
	"context"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"os"
	"path/filepath"

	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// Film describes an episode's film, what the agent saw written as
// images (longcraft render):
//
//	OUT/frame_00000.png ...   one PNG per step (PNGs)
//	OUT/episode.gif           the episode as an animated GIF (GIF)
//	OUT/map.png               the final full map (MapScale > 0)
type Film struct {
	Out      string // directory, created if missing
	Size     int    // frame side in pixels
	PNGs     bool
	GIF      bool
	MapScale int  // map.png's pixels per tile (0: no map)
	Overlay  bool // the step and the last action's outcome drawn on the frames
	Delay    int  // GIF frame delay in 1/100 s
}

// Actions gives the action played at step t, after the outcome last (nil
// before the first step); false when there is none (a trace's end).
type Actions func(t int, last *sim.Outcome) (sim.Action, bool)

// PolicyActions is the world of seed and p's play of it, p reset to seed.
func PolicyActions(p policy.Policy, seed uint64) (*sim.World, Actions, error) {
	w, err := sim.New(sim.Config{})
	if err != nil {
		return nil, nil, err
	}
	w.Reset(seed)
	p.Reset(seed)
	return w, func(_ int, last *sim.Outcome) (sim.Action, bool) { return p.Act(w, last), true }, nil
}

// TraceActions is the world of a trace's episode at its start, and the
// actions it recorded.
func TraceActions(ep *trace.Episode) (*sim.World, Actions, error) {
	w, err := trace.World(&ep.Header)
	if err != nil {
		return nil, nil, err
	}
	return w, func(t int, _ *sim.Outcome) (sim.Action, bool) {
		if t >= len(ep.Actions) {
			return 0, false
		}
		return sim.Action(ep.Actions[t]), true
	}, nil
}

// FilmStats counts what WriteFilm wrote.
type FilmStats struct {
	PNGs      int // frame PNGs
	GIFFrames int // frames of episode.gif
}

// WriteFilm plays up to steps steps of next on w (fewer if the episode
// ends) and writes f's files, the frames rendered with atlas a. When ctx
// is cancelled the film ends at the current frame, its files are written
// as far as it got, and the error is ctx's.
func WriteFilm(ctx context.Context, f Film, a *render.Atlas, w *sim.World, steps int, next Actions) (FilmStats, error) {
	view, err := render.NewAgentView(a, f.Size, render.RGBA)
	if err != nil {
		return FilmStats{}, err
	}
	if err := os.MkdirAll(f.Out, 0o755); err != nil {
		return FilmStats{}, err
	}
	fw := &filmWriter{f: f, atlas: a, view: view, frame: make([]byte, view.FrameBytes()), anim: &gif.GIF{}}
	if err := fw.play(ctx, w, steps, next); err != nil {
		return fw.stats, err
	}
	if f.GIF {
		if err := writeGIF(filepath.Join(f.Out, "episode.gif"), fw.anim); err != nil {
			return fw.stats, err
		}
	}
	if f.MapScale > 0 {
		if err := writeMap(filepath.Join(f.Out, "map.png"), a, f.MapScale, w); err != nil {
			return fw.stats, err
		}
	}
	return fw.stats, ctx.Err()
}

// filmWriter is a film being written: its frame buffer and the GIF so far.
type filmWriter struct {
	f     Film
	atlas *render.Atlas
	view  *render.AgentView
	frame []byte
	anim  *gif.GIF
	stats FilmStats
}

// play writes the frame of every step, the start's first, until the
// episode ends, steps are played, next has none or ctx is cancelled.
func (fw *filmWriter) play(ctx context.Context, w *sim.World, steps int, next Actions) error {
	var last *sim.Outcome
	var out sim.Outcome
	for t := 0; ; t++ {
		if err := fw.write(w, t, last); err != nil {
			return err
		}
		if t == steps || w.Done() || ctx.Err() != nil {
			return nil
		}
		a, ok := next(t, last)
		if !ok {
			return nil
		}
		out = w.Step(a)
		last = &out
	}
}

// write renders w's frame at step t (last: the outcome that led to it)
// and writes it as a PNG and a GIF frame, as the film asks.
func (fw *filmWriter) write(w *sim.World, t int, last *sim.Outcome) error {
	f := fw.f
	fw.view.Render(w, fw.frame)
	if f.Overlay {
		caption := fmt.Sprintf("step %d", t)
		if last != nil {
			caption += "  " + text.Outcome(*last, w.Rules())
		}
		fw.atlas.Text(fw.frame, f.Size, render.RGBA, 2, 2, max(f.Size/256, 1), caption, 255, 255, 255)
	}
	img := render.Image(fw.frame, f.Size, f.Size, render.RGBA)
	if f.PNGs {
		if err := writePNG(filepath.Join(f.Out, fmt.Sprintf("frame_%05d.png", t)), img); err != nil {
			return err
		}
		fw.stats.PNGs++
	}
	if f.GIF {
		pal := image.NewPaletted(img.Bounds(), palette.Plan9)
		draw.Draw(pal, pal.Rect, img, image.Point{}, draw.Src)
		fw.anim.Image = append(fw.anim.Image, pal)
		fw.anim.Delay = append(fw.anim.Delay, f.Delay)
		fw.stats.GIFFrames++
	}
	return nil
}

// writeMap writes w's full map at scale pixels per tile as a PNG.
func writeMap(path string, a *render.Atlas, scale int, w *sim.World) error {
	mv, err := render.NewMapView(a, scale, render.RGBA)
	if err != nil {
		return err
	}
	buf := make([]byte, mv.FrameBytes(w))
	mv.Render(w, buf)
	mw, mh := mv.FrameSize(w)
	return writePNG(path, render.Image(buf, mw, mh, render.RGBA))
}
