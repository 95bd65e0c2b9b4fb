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
  longcraft simulate --worlds 2000     step seeded worlds with a random policy
  longcraft map --seed 7               print a world's map as ASCII`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newSimulateCmd(), newMapCmd())
	return root
}
