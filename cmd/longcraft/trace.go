package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/json64"
)

func newReplayCmd() *cobra.Command {
	var quiet bool
	cmd := &cobra.Command{
		Use:   "replay FILE.lctrace",
		Short: "Re-simulate every episode of a trace and verify it step by step",
		Long: `replay rebuilds each episode's world from its seed (and task), plays the
recorded actions, and checks every step's outcome and every state-hash
checkpoint, then the recorded metrics (death, steps, achievements, reward)
against the replay's. It checks every episode it can read: each bad one
(unreadable, diverged, or refused because it was recorded under other rules
versions) is named with the first diverging step and what differs, and the
command exits with an error if any was. It checks the traces alone: to
check a run's results.jsonl and summary.json against its traces, use
longcraft verify RUN_DIR.`,
		Example: "  longcraft replay runs/today/episodes.lctrace",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := trace.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			out := cmd.OutOrStdout()
			start := time.Now()
			steps, bad, refused, unreadable := 0, 0, 0, 0
			commitments := map[string]int{} // episodes by salt commitment ("": public seeds)
			for i := range f.Index {
				if cmd.Context().Err() != nil {
					return cmd.Context().Err()
				}
				ep, err := f.Episode(i)
				if err != nil {
					// One bad record does not hide the others.
					unreadable++
					fmt.Fprintf(out, "episode %d: unreadable: %v\n", i, err)
					continue
				}
				rep, err := trace.Run(ep)
				steps += rep.Steps
				commitments[ep.Header.SaltCommitment]++
				if mismatch := (*trace.RulesMismatch)(nil); errors.As(err, &mismatch) {
					refused++
					fmt.Fprintf(out, "episode %d (seed %d): refused: %v\n", i, ep.Header.Seed, err)
					continue
				}
				if err != nil {
					bad++
					fmt.Fprintf(out, "episode %d (seed %d): %v\n", i, ep.Header.Seed, err)
					continue
				}
				if !quiet {
					fmt.Fprintf(out, "episode %d (seed %d%s): %d steps, %d checkpoints verified\n", i, ep.Header.Seed, heldOut(ep.Header.SaltCommitment), rep.Steps, rep.Checkpoints)
				}
			}
			secs := time.Since(start).Seconds()
			fmt.Fprintf(out, "%s: %d episodes, %d steps replayed in %.2fs (%.0f steps/s), %d diverged",
				args[0], len(f.Index), steps, secs, float64(steps)/secs, bad)
			if refused > 0 {
				fmt.Fprintf(out, ", %d refused (recorded under other rules versions)", refused)
			}
			if unreadable > 0 {
				fmt.Fprintf(out, ", %d unreadable", unreadable)
			}
			fmt.Fprintln(out)
			for _, c := range slices.Sorted(maps.Keys(commitments)) {
				fmt.Fprintf(out, "  %d episodes on %s\n", commitments[c], task.SeedsLabel(c))
			}
			switch {
			case unreadable > 0:
				return fmt.Errorf("%d of %d episodes unreadable, %d diverged, %d refused", unreadable, len(f.Index), bad, refused)
			case bad > 0 && refused > 0:
				return fmt.Errorf("%d of %d episodes diverged and %d were refused", bad, len(f.Index), refused)
			case bad > 0:
				return fmt.Errorf("%d of %d episodes diverged", bad, len(f.Index))
			case refused > 0:
				return fmt.Errorf("%d of %d episodes refused: recorded under other rules versions; replay them with the Longcraft release that recorded them", refused, len(f.Index))
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "only the summary and divergences")
	return cmd
}

func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Look into trace files",
	}
	var asJSON bool
	inspect := &cobra.Command{
		Use:   "inspect FILE.lctrace",
		Short: "Print a trace's episodes: header, length, outcome and size",
		Long: `inspect lists a trace's episodes: seed, task, agent, steps, success, death,
achievements, notes and bytes per step. --json prints one JSON object per
episode for scripts (the seed as a string: jq and JavaScript round
integers over 2^53).`,
		Example: "  longcraft trace inspect runs/today/episodes.lctrace --json | jq .steps",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := trace.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			out := cmd.OutOrStdout()
			if !asJSON {
				fmt.Fprintf(out, "%s: %d bytes, %d episodes", args[0], f.Size, len(f.Index))
				if !f.Indexed {
					fmt.Fprint(out, " (no index: the file was not closed; whole episodes recovered)")
				}
				fmt.Fprintln(out)
			}
			enc := json.NewEncoder(out)
			for i, x := range f.Index {
				ep, err := f.Episode(i)
				if err != nil {
					return err
				}
				h, m := &ep.Header, &ep.Metrics
				task := "-"
				if h.Task != nil {
					task = fmt.Sprintf("%s/%s/%s#%d", h.Task.Family, h.Task.Tier, h.Task.Split, h.Task.Index)
				}
				perStep := 0.0
				if len(ep.Actions) > 0 {
					perStep = float64(x.Length) / float64(len(ep.Actions))
				}
				if asJSON {
					var build any // null: recorded before traces named their build
					if !h.Build.IsZero() {
						build = h.Build
					}
					if err := enc.Encode(map[string]any{
						"episode": i, "seed": json64.Uint(h.Seed), "build": build, "rules": h.Ruleset, "rules_version": h.RulesVersion,
						"map": h.MapSize, "task": h.Task, "salt_commitment": h.SaltCommitment, "goal": h.Goal, "agent": h.Agent, "steps": len(ep.Actions),
						"success": m.Success, "died": m.Died, "achievements": m.Achievements, "reward": float64(m.RewardTenths) / 10,
						"notes": len(ep.Notes), "bytes": x.Length, "bytes_per_step": perStep,
					}); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(out, "%4d  seed %-20d %-8s task %-28s agent %-10s %6d steps  success %-5v died %-5v  %2d achievements  %d notes  %.2f B/step\n",
					i, h.Seed, printable(h.Ruleset), printable(task), printable(h.Agent), len(ep.Actions), m.Success, m.Died, bits.OnesCount64(m.Achievements), len(ep.Notes), perStep)
			}
			return nil
		},
	}
	inspect.Flags().BoolVar(&asJSON, "json", false, "one JSON object per episode")
	cmd.AddCommand(inspect)
	return cmd
}

// heldOut notes, after an episode's seed, the salt its seed was derived
// from ("" on public seeds).
func heldOut(commitment string) string {
	if commitment == "" {
		return ""
	}
	return fmt.Sprintf(", held-out: salt commitment %.8s…", commitment)
}

// findEpisode returns the index of the episode of task id in a trace.
func findEpisode(path, id string) (int, error) {
	f, err := trace.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	i, err := f.FindEpisode(id)
	if err != nil {
		return 0, fmt.Errorf("--id: %w", err)
	}
	return i, nil
}

// openEpisode reads episode i of a trace file.
func openEpisode(path string, i int) (*trace.Episode, error) {
	f, err := trace.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if i < 0 || i >= len(f.Index) {
		return nil, fmt.Errorf("--episode %d: the trace holds episodes 0 to %d", i, len(f.Index)-1)
	}
	return f.Episode(i)
}

// printable quotes what a trace's header says for a terminal: a header is
// outside input (an agent names itself), and raw control characters in it
// could move the cursor, clear the screen or retitle the window. Plain
// text passes unchanged; anything else is shown Go-quoted.
func printable(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
