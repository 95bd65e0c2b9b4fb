package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/dataset"
	"github.com/longcraft/longcraft/render"
)

func newDatasetCmd() *cobra.Command {
	var cfg dataset.Config
	var quiet bool
	cmd := &cobra.Command{
		Use:   "dataset",
		Short: "Write an image dataset (frames.npy, actions.npy, steps.jsonl) for vision and world models",
		Long: `dataset plays --episodes seeded episodes (world i seeded --seed+i) with a
built-in policy and writes, in --out:

  frames.npy    uint8 [N, size, size, 3]: the agent's observation at every step
  actions.npy   uint8 [N]: the action taken from that frame (255 on an
                episode's last frame, where none was taken)
  steps.jsonl   N lines: frame, episode, seed, step, action name, outcome,
                reward, done, and the text observation of the frame

Both arrays are real NumPy .npy files (numpy.load reads them). Frames are
streamed to disk one at a time, so memory stays small whatever N is.
Ctrl-C stops after the current frame and leaves a valid dataset of the
frames written so far.`,
		Example: `  longcraft dataset --episodes 100 --max-steps 500 --size 64 --out data/
  python3 -c "import numpy; print(numpy.load('data/frames.npy').shape)"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case cfg.Episodes <= 0:
				return fmt.Errorf("--episodes must be positive, got %d", cfg.Episodes)
			case cfg.MaxSteps < 0:
				return fmt.Errorf("--max-steps must be 0 (the episode length) or positive, got %d", cfg.MaxSteps)
			case cfg.Size < 9 || cfg.Size > 4096:
				return fmt.Errorf("--size must be between 9 and 4096 pixels, got %d", cfg.Size)
			case cfg.Out == "":
				return fmt.Errorf("--out is required")
			}
			if _, err := agent.New(cfg.Policy, nil, agent.Options{}); err != nil {
				return fmt.Errorf("--policy: %w", err)
			}
			return runDataset(cmd.Context(), cmd, cfg, quiet)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&cfg.Out, "out", "o", "dataset", "output directory (created if missing)")
	f.IntVar(&cfg.Episodes, "episodes", 10, "episodes to play")
	f.Uint64Var(&cfg.Seed, "seed", 0, "seed of the first episode's world")
	f.IntVar(&cfg.MaxSteps, "max-steps", 500, "steps per episode at most (0: the ruleset's 10,000)")
	f.IntVar(&cfg.Size, "size", 64, "frame side in pixels (64 is Crafter's observation)")
	f.StringVar(&cfg.Policy, "policy", "explorer", fmt.Sprintf("an agent that plays plain worlds: %v", plainAgents()))
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

func runDataset(ctx context.Context, cmd *cobra.Command, cfg dataset.Config, quiet bool) error {
	atlas, err := render.LoadAtlas()
	if err != nil {
		return err
	}
	var progress func(int)
	if !quiet && term.IsTerminal(int(os.Stderr.Fd())) {
		bar := progressbar.NewOptions(-1, progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription("frames"), progressbar.OptionShowCount(),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
		defer bar.Finish()
		progress = func(n int) { _ = bar.Set(n) }
	}
	start := time.Now()
	st, err := dataset.Build(ctx, cfg, atlas, progress)
	secs := time.Since(start).Seconds()
	fmt.Fprintf(cmd.OutOrStdout(), "%d episodes, %d frames of %d×%d in %s (%.0f frames/s)\n",
		st.Episodes, st.Frames, cfg.Size, cfg.Size, cfg.Out, float64(st.Frames)/secs)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: the dataset in %s holds the %d frames written before the stop", cfg.Out, st.Frames)
	}
	return err
}
