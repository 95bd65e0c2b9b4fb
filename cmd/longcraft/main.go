// Command longcraft is Longcraft's one command line: simulate, score,
// render and replay seeded worlds for long-horizon agent benchmarks.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/internal/buildinfo"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 3)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	go stopOnSignals(sigs, cancel, finished, os.Stderr, stopGrace, func() { os.Exit(130) })
	err := newRootCmd().ExecuteContext(ctx)
	close(finished)
	if err != nil {
		fmt.Fprintln(os.Stderr, "longcraft:", err)
		os.Exit(exitCode(err))
	}
}

// stopGrace is how long a second signal (or SIGTERM) leaves the command to
// write what it holds before the process ends.
const stopGrace = 3 * time.Second

// stopOnSignals turns signals into a stop. The first Ctrl-C cancels the
// command's context: long commands stop starting work, cancel what runs
// (an agent's model call, an exec agent's reply), write what they have
// (the results so far, a partial summary) and return. A second Ctrl-C, or
// SIGTERM (what Slurm and Kubernetes send before killing), cancels too and
// ends the process after grace at most, whether or not the command has
// returned: every result line is already on disk when it is written, so
// nothing finished is lost. exit is os.Exit in the command.
func stopOnSignals(sigs <-chan os.Signal, cancel func(), finished <-chan struct{}, log io.Writer, grace time.Duration, exit func()) {
	hurry := func() {
		select {
		case <-finished:
		case <-time.After(grace):
			fmt.Fprintln(log, "longcraft: stopped")
			exit()
		}
	}
	select {
	case <-finished:
		return
	case s := <-sigs:
		cancel()
		if s == syscall.SIGTERM {
			fmt.Fprintln(log, "\nlongcraft: terminated: writing what is finished")
			hurry()
			return
		}
		fmt.Fprintln(log, "\nlongcraft: interrupted: stopping the episodes in play and writing what is finished (Ctrl-C again to quit now)")
	}
	select {
	case <-finished:
	case <-sigs:
		hurry()
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
	root.AddCommand(newScoreCmd(), newSaltCmd(), newDemoCmd(), newBenchCmd(), newMergeCmd(), newReportCmd(), newSimulateCmd(), newFidelityCmd(), newSuiteCmd(), newMapCmd(), newRenderCmd(), newDatasetCmd(),
		newReplayCmd(), newTraceCmd(), newTaskCmd(), newServeCmd(), newVerifyCmd(), newVersionCmd(buildinfo.Read()))
	return root
}
