package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/run"
)

func newVerifyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify RUN_DIR",
		Short: "Re-derive every result of a run from its traces and check summary.json",
		Long: fmt.Sprintf(`verify replays every trace of a run directory through the episode rule (the
task rebuilt from the trace's spec and seed, every step checked against the
recorded outcome and state hashes) and recomputes from it the episode's
results line: spec, seed, goal, conditions, ruleset, agent, end, success,
steps, decisions, death, return, stages, milestones, achievements and every
behaviour and exploration metric. It then recomputes summary.json from the
lines as their traces say. Every line, trace and summary field that differs
is named, and the command exits with code %d.

Not re-derived (a trace does not prove them): an external player's model
calls, tokens, latency, retries, invalid outputs, probe scores and cost (the
player's word), the task's certificate (the lock's), and a host's stop: an
episode the replay leaves running may say it ended by timeout, agent_error,
stopped, budget_tokens or budget_cost.

A result without a trace (--traces failures or none, or a trace lost) is
counted unverified, as the summary, the table and report.html count it.
Traces without a results line, two traces of one episode and unreadable
traces are named too. score --resume, merge and report run the same check
on what they read and refuse a run that fails it.`, run.ExitVerify),
		Example: "  longcraft verify runs/explorer",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := run.Verify(args[0])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, p := range v.Problems() {
				fmt.Fprintln(w, p)
			}
			fmt.Fprintf(w, "%s: %d results verified against their traces, %d unverified (no trace), %d could not be played; %d steps replayed in %.2fs\n",
				args[0], v.Checked, v.Unverified, v.Errored, v.Steps, v.Elapsed.Seconds())
			if err := v.Refuse("verify", args[0]); err != nil {
				err.(*run.VerifyError).Brief = true // each is printed above
				return err
			}
			return nil
		},
	}
	return cmd
}
