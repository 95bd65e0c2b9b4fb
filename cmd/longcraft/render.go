package main

import (
	"bufio"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

type renderFlags struct {
	trace    string
	episode  int
	id       string
	seed     uint64
	policy   string
	steps    int
	size     int
	out      string
	pngs     bool
	gif      bool
	mapScale int
	overlay  bool
	delay    int
}

func newRenderCmd() *cobra.Command {
	var f renderFlags
	cmd := &cobra.Command{
		Use:   "render",
		Short: "Write an episode's frames as PNGs and a GIF: played by a built-in policy, or from a trace",
		Long: `render plays --steps steps of the world of --seed with a built-in policy, or
replays episode --episode of the trace --trace, and writes what the agent
saw, at --size pixels square:

  OUT/frame_00000.png ...   one PNG per step (--png)
  OUT/episode.gif           the episode as an animated GIF (--gif)
  OUT/map.png               the final full map, the agent's view outlined (--map-scale)

Frames are exactly what a vision model receives as observations; --overlay
adds the step and the last action's outcome in a small font (for demos; it
changes the pixels, so do not use it for datasets).`,
		Example: `  longcraft render --seed 7 --policy explorer --steps 200 --size 256 --out frames
  longcraft render --seed 7 --size 64 --png=false --gif --overlay
  longcraft render --trace runs/today/episodes.lctrace --episode 3 --out ep3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case f.steps < 0:
				return fmt.Errorf("--steps must be 0 or more, got %d", f.steps)
			case f.size < 9 || f.size > 4096:
				return fmt.Errorf("--size must be between 9 and 4096 pixels, got %d", f.size)
			case f.mapScale < 0 || f.mapScale > 64:
				return fmt.Errorf("--map-scale must be between 0 (no map) and 64, got %d", f.mapScale)
			case !f.pngs && !f.gif && f.mapScale == 0:
				return fmt.Errorf("nothing to write: --png, --gif and --map-scale are all off")
			}
			return runRender(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.trace, "trace", "", "render an episode of this trace file instead of playing one")
	fl.IntVar(&f.episode, "episode", 0, "with --trace: the episode's index")
	fl.StringVar(&f.id, "id", "", "with --trace: the episode whose task id this is (as in results.jsonl)")
	fl.Uint64Var(&f.seed, "seed", 0, "world seed")
	fl.StringVar(&f.policy, "policy", "explorer", fmt.Sprintf("an agent that plays plain worlds: %v", plainAgents()))
	fl.IntVar(&f.steps, "steps", 100, "steps to play (the episode may end sooner)")
	fl.IntVar(&f.size, "size", 256, "frame side in pixels (64 is Crafter's observation)")
	fl.StringVarP(&f.out, "out", "o", "frames", "output directory (created if missing)")
	fl.BoolVar(&f.pngs, "png", true, "write one PNG per frame")
	fl.BoolVar(&f.gif, "gif", true, "write episode.gif")
	fl.IntVar(&f.mapScale, "map-scale", 4, "pixels per tile of map.png (0: no map)")
	fl.BoolVar(&f.overlay, "overlay", false, "draw the step and last outcome on the frames")
	fl.IntVar(&f.delay, "delay", 10, "GIF frame delay in 1/100 s")
	return cmd
}

func runRender(cmd *cobra.Command, f renderFlags) error {
	// The actions come from a policy, or from a trace's episode.
	var w *sim.World
	var next func(t int, last *sim.Outcome) (sim.Action, bool)
	source := f.policy + " policy"
	if f.trace != "" {
		if f.id != "" {
			i, err := findEpisode(f.trace, f.id)
			if err != nil {
				return err
			}
			f.episode = i
		}
		ep, err := openEpisode(f.trace, f.episode)
		if err != nil {
			return err
		}
		if w, err = trace.World(&ep.Header); err != nil {
			return fmt.Errorf("trace %s episode %d: %w", f.trace, f.episode, err)
		}
		next = func(t int, _ *sim.Outcome) (sim.Action, bool) {
			if t >= len(ep.Actions) {
				return 0, false
			}
			return sim.Action(ep.Actions[t]), true
		}
		f.seed, source = ep.Header.Seed, fmt.Sprintf("trace %s episode %d (%s)", f.trace, f.episode, ep.Header.Agent)
		if !cmd.Flags().Changed("steps") {
			f.steps = len(ep.Actions)
		}
	} else {
		policy, err := agent.New(f.policy, nil, agent.Options{})
		if err != nil {
			return fmt.Errorf("--policy: %w", err)
		}
		if w, err = sim.New(sim.Config{}); err != nil {
			return err
		}
		w.Reset(f.seed)
		policy.Reset(f.seed)
		next = func(_ int, last *sim.Outcome) (sim.Action, bool) { return policy.Act(w, last), true }
	}
	atlas, err := render.LoadAtlas()
	if err != nil {
		return err
	}
	view, err := render.NewAgentView(atlas, f.size, render.RGBA)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	frame := make([]byte, view.FrameBytes())
	anim := &gif.GIF{}
	var last *sim.Outcome
	var out sim.Outcome
	written := 0
	for t := 0; ; t++ {
		view.Render(w, frame)
		if f.overlay {
			caption := fmt.Sprintf("step %d", t)
			if last != nil {
				caption += "  " + text.Outcome(*last, w.Rules())
			}
			atlas.Text(frame, f.size, render.RGBA, 2, 2, max(f.size/256, 1), caption, 255, 255, 255)
		}
		img := render.Image(frame, f.size, f.size, render.RGBA)
		if f.pngs {
			if err := writePNG(filepath.Join(f.out, fmt.Sprintf("frame_%05d.png", t)), img); err != nil {
				return err
			}
			written++
		}
		if f.gif {
			pal := image.NewPaletted(img.Bounds(), palette.Plan9)
			draw.Draw(pal, pal.Rect, img, image.Point{}, draw.Src)
			anim.Image = append(anim.Image, pal)
			anim.Delay = append(anim.Delay, f.delay)
		}
		if t == f.steps || w.Done() || cmd.Context().Err() != nil {
			break
		}
		a, ok := next(t, last)
		if !ok {
			break
		}
		out = w.Step(a)
		last = &out
	}
	if f.gif {
		if err := writeGIF(filepath.Join(f.out, "episode.gif"), anim); err != nil {
			return err
		}
	}
	if f.mapScale > 0 {
		mv, err := render.NewMapView(atlas, f.mapScale, render.RGBA)
		if err != nil {
			return err
		}
		buf := make([]byte, mv.FrameBytes(w))
		mv.Render(w, buf)
		mw, mh := mv.FrameSize(w)
		if err := writePNG(filepath.Join(f.out, "map.png"), render.Image(buf, mw, mh, render.RGBA)); err != nil {
			return err
		}
	}
	fmt.Fprintf(cmd.OutOrStdout(), "seed %d, %s: %d steps played (%s), %d PNG frames", f.seed, source, w.StepCount(),
		endReason(w), written)
	if f.gif {
		fmt.Fprintf(cmd.OutOrStdout(), ", episode.gif (%d frames)", len(anim.Image))
	}
	if f.mapScale > 0 {
		fmt.Fprint(cmd.OutOrStdout(), ", map.png")
	}
	fmt.Fprintf(cmd.OutOrStdout(), " in %s\n", f.out)
	return cmd.Context().Err()
}

func endReason(w *sim.World) string {
	switch {
	case w.Dead():
		return "died"
	case w.Done():
		return "episode over"
	}
	return "stopped"
}

func writePNG(path string, img image.Image) error {
	return writeFile(path, func(w io.Writer) error { return png.Encode(w, img) })
}

func writeGIF(path string, g *gif.GIF) error {
	return writeFile(path, func(w io.Writer) error { return gif.EncodeAll(w, g) })
}

// writeFile creates path and writes it with encode, buffered.
func writeFile(path string, encode func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := encode(bw); err != nil {
		f.Close()
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
