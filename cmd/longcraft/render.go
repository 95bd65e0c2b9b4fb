package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/dataset"
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
	w, next, source, err := renderSource(cmd, &f)
	if err != nil {
		return err
	}
	atlas, err := render.LoadAtlas()
	if err != nil {
		return err
	}
	film := dataset.Film{Out: f.out, Size: f.size, PNGs: f.pngs, GIF: f.gif, MapScale: f.mapScale, Overlay: f.overlay, Delay: f.delay}
	st, err := dataset.WriteFilm(cmd.Context(), film, atlas, w, f.steps, next)
	if err != nil && !errors.Is(err, cmd.Context().Err()) {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "seed %d, %s: %d steps played (%s), %d PNG frames", f.seed, source, w.StepCount(), endReason(w), st.PNGs)
	if f.gif {
		fmt.Fprintf(out, ", episode.gif (%d frames)", st.GIFFrames)
	}
	if f.mapScale > 0 {
		fmt.Fprint(out, ", map.png")
	}
	fmt.Fprintf(out, " in %s\n", f.out)
	return cmd.Context().Err()
}

// renderSource is the world render plays and where its actions come from
// (a policy, or a trace's episode), and its name for the summary line.
// A trace's episode sets f's seed, and its steps unless --steps is given.
func renderSource(cmd *cobra.Command, f *renderFlags) (*sim.World, dataset.Actions, string, error) {
	if f.trace == "" {
		policy, err := agent.New(f.policy, nil, agent.Options{})
		if err != nil {
			return nil, nil, "", fmt.Errorf("--policy: %w", err)
		}
		w, next, err := dataset.PolicyActions(policy, f.seed)
		return w, next, f.policy + " policy", err
	}
	if f.id != "" {
		i, err := findEpisode(f.trace, f.id)
		if err != nil {
			return nil, nil, "", err
		}
		f.episode = i
	}
	ep, err := openEpisode(f.trace, f.episode)
	if err != nil {
		return nil, nil, "", err
	}
	w, next, err := dataset.TraceActions(ep)
	if err != nil {
		return nil, nil, "", fmt.Errorf("trace %s episode %d: %w", f.trace, f.episode, err)
	}
	f.seed = ep.Header.Seed
	if !cmd.Flags().Changed("steps") {
		f.steps = len(ep.Actions)
	}
	return w, next, fmt.Sprintf("trace %s episode %d (%s)", f.trace, f.episode, ep.Header.Agent), nil
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
