package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/longcraft/longcraft/bench/run"
	"github.com/longcraft/longcraft/bench/suite"
)

func newSuiteCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "suite", Short: "Freeze a suite's task set in a lock file"}
	var name, out string
	var workers int
	var quiet bool
	lock := &cobra.Command{
		Use:   "lock",
		Short: "Generate and certify every episode of a suite once and write its lock",
		Long: fmt.Sprintf(`lock generates every episode of --suite (embedded: %v, or a YAML file),
certifies each with the full-knowledge planner (regenerating a world the
planner cannot solve, as score does), and writes the suite's lock: for every
episode its id, world seed, goal and certificate, the rules versions, and a
hash of the whole. score then reads the lock and runs no planner, so the
benchmark is frozen: a planner change cannot change it, and results carry
the lock's hash so that two runs can be checked to have played the same
tasks.

A suite file's lock goes beside it (FILE.lock.json), where score finds it.
An embedded suite's goes to bench/suite/suites/NAME.lock.json in the
checkout: commit it. A lock made under other rules versions is refused by
score, which says to relock.`, suite.Embedded()),
		Example: `  longcraft suite lock --suite standard
  longcraft suite lock --suite my-suite.yaml --workers 8`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := suite.Load(name)
			if err != nil {
				return err
			}
			if out == "" {
				out = suite.LockPath(name)
				if suite.IsEmbedded(name) {
					wd, err := os.Getwd()
					if err != nil {
						return err
					}
					root, err := moduleRoot(wd)
					if err != nil {
						return fmt.Errorf("--out: %w", err)
					}
					out = filepath.Join(root, "bench", "suite", "suites", name+".lock.json")
				}
			}
			var bar *progressbar.ProgressBar
			if !quiet && term.IsTerminal(int(os.Stderr.Fd())) {
				bar = progressbar.NewOptions(int(s.Len()), progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription("certifying"), progressbar.OptionShowCount(),
					progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
			}
			start := time.Now()
			l, err := run.LockSuite(cmd.Context(), s, workers, func(int, int) {
				if bar != nil {
					_ = bar.Add(1)
				}
			})
			if bar != nil {
				_ = bar.Finish()
			}
			if err != nil {
				return err
			}
			data, err := l.Marshal()
			if err != nil {
				return err
			}
			tmp := out + ".tmp"
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				return err
			}
			if err := os.Rename(tmp, out); err != nil {
				return err
			}
			certified := 0
			for _, e := range l.Episodes {
				if e.Certified {
					certified++
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "suite %s: %d episodes (%d certified) locked in %.1fs, hash %s\nwrote %s\n",
				s.Name, len(l.Episodes), certified, time.Since(start).Seconds(), l.Hash, out)
			return nil
		},
	}
	f := lock.Flags()
	f.StringVar(&name, "suite", "default", "embedded suite name or suite YAML file")
	f.StringVarP(&out, "out", "o", "", "lock file (default: beside a suite file; bench/suite/suites/NAME.lock.json for an embedded one)")
	f.IntVar(&workers, "workers", 0, "parallel workers (0: one per core)")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	cmd.AddCommand(lock)
	return cmd
}
