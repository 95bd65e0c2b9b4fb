package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/longcraft/longcraft/bench/run"
	"github.com/longcraft/longcraft/bench/task"
)

// applySalt reads score's salt flags into o and says what they do: the
// commitment, a short salt's weakness, where a random salt is kept, and
// (unless quiet) the progress of making the salted tasks.
func applySalt(cmd *cobra.Command, o *run.Options, salt, saltFile string, quiet bool) error {
	var secret string
	var err error
	if o.Salt, secret, err = run.ResolveSalt(salt, cmd.Flags().Changed("salt"), saltFile, o.Out); err != nil || len(o.Salt) == 0 {
		return err
	}
	o.SaltFile, o.SaltSecret = saltFile, secret
	w := cmd.ErrOrStderr()
	fmt.Fprintf(w, "held-out seeds: salt commitment %s (results, run.json and traces record it; never the salt)\n", task.SaltCommitment(o.Salt))
	if secret != "" {
		fmt.Fprintf(w, "held-out seeds: a random salt, kept in %s (mode 0600): reveal it only after the run is published; resume with --salt-file %s\n", secret, secret)
	}
	if !quiet {
		o.SaltProgress = saltProgress(w)
	}
	return nil
}

// saltProgress shows the making of a salted run's tasks on w: a bar on a
// terminal, else a line every 10 seconds and at the end.
func saltProgress(w io.Writer) func(done, total int) {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		var bar *progressbar.ProgressBar
		return func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w),
					progressbar.OptionSetDescription("held-out seeds: certifying"), progressbar.OptionShowCount(),
					progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
			}
			_ = bar.Set(done)
		}
	}
	start, last := time.Now(), time.Now()
	return func(done, total int) {
		if time.Since(last) > 10*time.Second || done == total {
			fmt.Fprintf(w, "held-out seeds: %d/%d tasks generated and certified (%.1fs)\n", done, total, time.Since(start).Seconds())
			last = time.Now()
		}
	}
}

func newSaltCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "salt",
		Short: "Check the held-out seeds of a run against its revealed salt",
	}
	var salt, saltFile, lockFile string
	check := &cobra.Command{
		Use:   "check --salt S RUN_DIR",
		Short: "Check that a revealed salt is the one a run committed to, and that its seeds follow from it",
		Long: `check reads RUN_DIR's run.json and results.jsonl and checks, for a run played
with --salt: that the salt's commitment is the run's (run.json and every
results line), and that every result's episode id, world seed and goal are
the ones the salt derives from the run's public seeds (its lock's; without
one, the embedded lock's that holds the episode, or SeedFor's). It names
every result that does not follow. It does not replay
the traces ("longcraft replay" does), nor play the episodes again: to
reproduce the run, score it again with the same suite, lock and salt.`,
		Example: "  longcraft salt check --salt-file runs/pub/salt.secret runs/pub",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := run.ReadRevealedSalt(salt, cmd.Flags().Changed("salt"), saltFile)
			if err != nil {
				return err
			}
			if len(s) == 0 {
				return fmt.Errorf("give the revealed salt: --salt S or --salt-file F (%s)", run.SaltUsage)
			}
			if salt == "random" {
				return fmt.Errorf("--salt random draws a new salt: give the run's (--salt-file OUT/%s)", run.SaltSecretFile)
			}
			c, err := run.CheckSalt(args[0], s, lockFile)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: salt commitment %s matches; %d results re-derived from the salt (id, world seed, goal)", args[0], c.Commitment, c.Checked)
			if c.Errors > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), ", %d episodes that could not be made (ids checked)", c.Errors)
			}
			fmt.Fprintln(cmd.OutOrStdout())
			return nil
		},
	}
	f := check.Flags()
	f.StringVar(&salt, "salt", "", "the revealed salt")
	f.StringVar(&saltFile, "salt-file", "", "a file holding the revealed salt (without a trailing newline)")
	f.StringVar(&lockFile, "lock", "", "the lock the run's public seeds came from, when it is neither the embedded suite's nor kept in RUN_DIR")
	cmd.AddCommand(check)
	return cmd
}
