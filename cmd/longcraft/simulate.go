package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/rollout"
	"github.com/longcraft/longcraft/sim"
)

func newSimulateCmd() *cobra.Command {
	var cfg rollout.Config
	var quiet bool
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Step many seeded worlds with a built-in policy; print throughput and a summary",
		Long: `simulate plays --worlds episodes of the classic ruleset with a built-in policy
(random: uniform actions, Crafter's baseline; explorer: wanders, collects,
crafts and sleeps by simple rules), world i seeded with --seed+i, across
--workers goroutines, and prints
the throughput and a summary: episode lengths, deaths, the success rate of
every achievement, the Crafter score and BALROG's progression.

The results do not depend on --workers: the same flags print the same
summary on any machine. Ctrl-C stops early and summarizes the episodes that
finished.`,
		Example: `  longcraft simulate --worlds 2000
  longcraft simulate --worlds 100 --max-steps 500 --seed 1000 --workers 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := agent.New(cfg.Policy, nil, agent.Options{}); err != nil {
				return fmt.Errorf("--policy: %w", err)
			}
			if cfg.Worlds <= 0 {
				return fmt.Errorf("--worlds must be positive, got %d", cfg.Worlds)
			}
			if cfg.MaxSteps < 0 {
				return fmt.Errorf("--max-steps must be 0 (the episode length) or positive, got %d", cfg.MaxSteps)
			}
			if cfg.Workers < 0 {
				return fmt.Errorf("--workers must be 0 (all cores) or positive, got %d", cfg.Workers)
			}
			if _, err := sim.New(sim.Config{Width: cfg.Width, Height: cfg.Height}); err != nil {
				return fmt.Errorf("--width/--height: %w", err)
			}
			return runSimulate(cmd, cfg, quiet)
		},
	}
	f := cmd.Flags()
	f.IntVar(&cfg.Worlds, "worlds", 1000, "episodes to play, one seeded world each")
	f.StringVar(&cfg.Policy, "policy", "random", fmt.Sprintf("an agent that plays plain worlds: %v", plainAgents()))
	f.Uint64Var(&cfg.Seed, "seed", 0, "seed of the first world; world i uses seed+i")
	f.IntVar(&cfg.MaxSteps, "max-steps", 0, "steps per episode at most (0: the ruleset's 10,000)")
	f.IntVar(&cfg.Workers, "workers", 0, "parallel workers (0: one per core)")
	f.IntVar(&cfg.Width, "width", sim.DefaultSize, "world width in tiles")
	f.IntVar(&cfg.Height, "height", sim.DefaultSize, "world height in tiles")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

func runSimulate(cmd *cobra.Command, cfg rollout.Config, quiet bool) error {
	out := cmd.OutOrStdout()
	var bar *progressbar.ProgressBar
	if !quiet && term.IsTerminal(int(os.Stderr.Fd())) {
		bar = progressbar.NewOptions(cfg.Worlds*expectedSteps(cfg),
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription("simulating"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	var progress func(int)
	if bar != nil {
		progress = func(n int) { _ = bar.Add(n) }
	}
	start := time.Now()
	rows, err := rollout.Run(cmd.Context(), cfg, progress)
	elapsed := time.Since(start)
	if bar != nil {
		_ = bar.Finish()
	}
	interrupted := errors.Is(err, cmd.Context().Err()) && err != nil
	if err != nil && !interrupted {
		return err
	}
	rules := sim.Classic()
	s := rollout.Summarize(rows, len(rules.Achievements))
	printSummary(out, cfg, rules, s, elapsed)
	if interrupted {
		return fmt.Errorf("interrupted after %d of %d episodes (summary above covers those)", s.Episodes, cfg.Worlds)
	}
	return nil
}

// expectedSteps sizes the progress bar: the step budget, or a random
// agent's typical episode when the budget is the full episode.
func expectedSteps(cfg rollout.Config) int {
	if cfg.MaxSteps > 0 && cfg.MaxSteps < 200 {
		return cfg.MaxSteps
	}
	return 200
}

func printSummary(w io.Writer, cfg rollout.Config, r *sim.Rules, s rollout.Summary, elapsed time.Duration) {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	secs := elapsed.Seconds()
	fmt.Fprintf(w, "ruleset %s v%d, %d×%d worlds, %s policy, seeds %d..%d\n",
		r.Name, r.Version, cfg.Width, cfg.Height, cfg.Policy, cfg.Seed, cfg.Seed+uint64(cfg.Worlds)-1)
	fmt.Fprintf(w, "episodes   %d (%d died)\n", s.Episodes, s.Deaths)
	fmt.Fprintf(w, "steps      %d (mean episode %.1f steps, mean reward %.2f)\n", s.Steps, s.MeanLength, s.MeanReward)
	fmt.Fprintf(w, "time       %.2fs on %d workers: %.0f steps/s, %.0f episodes/s (world generation included)\n",
		secs, workers, float64(s.Steps)/secs, float64(s.Episodes)/secs)
	fmt.Fprintf(w, "score      Crafter score %.2f%%, progression %.2f%%\n", s.Score, s.Progression)
	fmt.Fprintln(w, "achievement success rates:")
	for a, name := range r.Achievements {
		fmt.Fprintf(w, "  %-20s %6.2f%%\n", name, s.SuccessRates[a])
	}
}

// plainAgents lists the agents that play plain worlds (no task, no I/O).
func plainAgents() []string {
	return agent.Names(func(k agent.Kind) bool { return k.Offline && !k.NeedsTask })
}
