// Command longcraft is Longcraft's one command line: simulate, score,
// render and replay seeded worlds for long-horizon agent benchmarks.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	// Ctrl-C and SIGTERM cancel the context: long commands stop at a clean
	// point and report what they finished.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "longcraft:", err)
		os.Exit(1)
	}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "longcraft",
		Short: "Seeded Crafter-like worlds for benchmarking long-horizon agents",
		Long: `Longcraft simulates seeded, Crafter-like 2D open worlds, deterministically and
fast, to benchmark long-horizon agents: LLM and VLM players, planners and RL
policies.

Start with:
  longcraft score --suite default --agent explorer --out runs/x   score an agent on the default suite
  longcraft simulate --worlds 2000          step seeded worlds, print throughput and scores
  longcraft map --seed 7 --describe         print a world's map as ASCII and its text observation
  longcraft render --seed 7 --out frames    write an episode's frames (PNG, GIF) and map
  longcraft dataset --episodes 100 --out d  write frames.npy, actions.npy, steps.jsonl`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newScoreCmd(), newDemoCmd(), newBenchCmd(), newMergeCmd(), newReportCmd(), newSimulateCmd(), newFidelityCmd(), newSuiteCmd(), newMapCmd(), newRenderCmd(), newDatasetCmd(),
		newReplayCmd(), newTraceCmd(), newTaskCmd(), newServeCmd())
	return root
}
