package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/longcraft/longcraft/bench/report"
	"github.com/longcraft/longcraft/bench/results"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
)

// Options describe a scoring run.
type Options struct {
	Suite    string // embedded suite name or YAML path
	Agent    string
	Out      string // run directory
	Config          // workers, certification, termination, traces
	Traces   string // all, failures or none
	Resume   bool   // continue a run from its results.jsonl
	Shard    int    // this shard's index in [0, Shards)
	Shards   int    // 0 or 1: no sharding
	Tiers    []string
	Families []string
	Seeds    int           // keep the first Seeds episodes of each family × tier (0: all)
	Set      []suite.Set   // overrides of every block of the suite (--set)
	Sweep    []suite.Sweep // the suite played once per value (--sweep), into one run

	// Args is the command line, kept in invocations.jsonl and the run
	// directory's lock file (nil: none). Score keeps it there with the
	// value of --salt redacted (RedactSalt), whoever calls it.
	Args []string

	// Salt, if not empty, plays held-out seeds (salt.go): every world seed
	// derived from the public one with the salt, every task generated
	// and certified before the first episode, SaltProgress (if not nil)
	// called after each.
	Salt         []byte
	SaltProgress func(done, total int)
	SaltFile     string // where the salt was read from (--salt-file): hidden from exec agents
	// SaltSecret, if not "", is where --salt random keeps the salt it drew
	// (ResolveSalt's secretPath): Score writes it once it holds the run
	// directory's lock, never over an existing file.
	SaltSecret string
	// weakSaltForTests lets a test play the attacker of a salt shorter
	// than MinSaltBytes, which Validate refuses everyone else.
	weakSaltForTests bool

	// AfterWrite, if not nil, is called after each write reaches the run
	// directory: "lock" (its lock file), "definition", "record" (a
	// trace), "result" (a results line), "index" and "footer" (the
	// trace's), "results" (the sorted rewrite), "summary" and "report".
	// The kill tests crash the process there; nothing else should need it.
	AfterWrite func(what string)
}

func (o *Options) after(what string) {
	if o.AfterWrite != nil {
		o.AfterWrite(what)
	}
}

// Outcome is what Score leaves: the summary of every result in the run
// directory, and how this invocation went.
type Outcome struct {
	Summary       results.Summary
	Played        int // episodes played by this invocation
	Skipped       int // already in results.jsonl (resume)
	Replayed      int // a deterministic agent's result whose trace was lost: played again to rebuild it, giving the same result
	TracesMissing int // results whose traces were lost and cannot be rebuilt (an agent that is not deterministic)
	Steps         int // steps played by this invocation
	Elapsed       time.Duration
	Complete      bool // every planned episode has a result
	// BudgetSpent is the end of the run's budget once it was reached
	// (budget_tokens, budget_cost): the episodes without a result were not
	// started. A resume with the same budget starts none either.
	BudgetSpent task.End
}

// needsTrace reports whether a result's episode has a trace in the run's
// trace file when traces are kept as traces says (an episode that could
// not be played has none).
func needsTrace(traces string, r *results.Result) bool {
	return r.Err == "" && (traces == "all" || traces == "failures" && !r.Success)
}

// Score plays a suite with an agent into o.Out and leaves results.jsonl
// (a line per episode as it finishes), the traces, then results.jsonl in
// suite order, summary.json and report.html. progress, if not nil, is
// called with (done, total) after each episode.
//
// An episode is done once its trace (when kept) and then its result line
// are written, in that order, each flushed before the next episode's: a
// crash at any point loses at most the episodes being played. --resume
// checks run.json against this invocation's definition, drops a torn last
// line, and plays again any episode whose result lost its trace, dropping
// traces that have no result. On cancellation the results so far stay on
// disk and summary.json and report.html cover them, marked partial; the
// error is ctx's.
func Score(ctx context.Context, o Options, progress func(done, total int)) (oc Outcome, err error) {
	o.Args = RedactSalt(o.Args) // the command line is kept in the run directory; the salt never is
	if err := o.Validate(); err != nil {
		return oc, err
	}
	if o.Config.Build.IsZero() {
		o.Config.Build = buildinfo.Read()
	}
	p, err := plan(o)
	if err != nil {
		return oc, err
	}
	unlock, err := lockRun(o) // one writer per run directory, for the whole run
	if err != nil {
		return oc, err
	}
	defer unlock()
	o.after("lock")
	s := &scoring{o: o, p: p, oc: &oc, resultsPath: filepath.Join(o.Out, results.ResultsFile), traced: map[string]bool{}}
	if err := s.open(); err != nil {
		return oc, err
	}
	if err := s.define(ctx); err != nil {
		return oc, err
	}
	inv := results.NewInvocation("score", o.Args, time.Now())
	defer func() {
		inv.Played, inv.Skipped, inv.Replayed, inv.Complete = oc.Played, oc.Skipped, oc.Replayed, oc.Complete
		if err != nil {
			inv.Error = err.Error()
		}
		if ierr := results.AppendInvocation(o.Out, inv, time.Now()); err == nil {
			err = ierr
		}
	}()
	defer s.closeTraces()
	if err := s.resume(ctx); err != nil {
		return oc, err
	}
	out, err := s.openOutputs()
	if err != nil {
		return oc, err
	}
	defer out.close()
	runErr := s.play(ctx, out, progress)
	err = s.finish(ctx, runErr) // before the return reads oc, which finish fills
	return oc, err
}

// scoring is a run in progress: what Score's phases share, each leaving
// its part for the next.
type scoring struct {
	o           Options // the run's, its Config filled in as the phases go
	p           planned
	oc          *Outcome // Score's, filled in as the phases go
	resultsPath string
	lockHash    string             // the suite lock's ("": none)
	def         results.Definition // what defines the run (run.json)
	have        []results.Result   // the results kept from before, then each played
	traced      map[string]bool    // ids whose trace is in the trace file
	tw          *trace.Writer      // the trace file (nil: no traces kept)
	rebuild     []results.Result   // results whose lost traces are played again
	todoSpecs   []task.Spec        // the episodes still to play
	todoIdx     []int              // their positions in the suite
}

// open makes the run directory, keeps a random salt there and reads the
// results it already holds, which only a resume may continue.
func (s *scoring) open() error {
	o := &s.o
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	if o.SaltSecret != "" {
		if err := keepSaltSecret(o.SaltSecret, o.Salt); err != nil {
			return err
		}
	}
	o.External.Hidden = append(append([]string(nil), o.External.Hidden...), hiddenPaths(*o)...)
	switch prev, err := results.Read(s.resultsPath); {
	case err == nil && !o.Resume && len(prev) > 0:
		return fmt.Errorf("%s already holds %d results: use --resume to continue the run, or another --out", s.resultsPath, len(prev))
	case err == nil:
		s.have = prev
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	return nil
}

// define takes the suite's lock, checks that a resume continues the run
// of this definition with results that match their traces, and writes the
// lock and run.json.
func (s *scoring) define(ctx context.Context) error {
	o := &s.o
	var saveLock func() error
	var err error
	if o.Config.lock, saveLock, err = runLock(ctx, *o, s.p.suite, nil); err != nil {
		return err
	}
	if o.Config.lock != nil {
		s.lockHash = o.Config.lock.Hash
	}
	s.def = definition(*o, s.p, s.lockHash)
	if o.Resume {
		if err := checkResume(o.Out, s.def, len(s.have)); err != nil {
			return err
		}
	}
	o.Config.Agent = o.Agent
	if agent.IsRecorded(o.Agent) {
		if o.Config.recorded, err = agent.LoadRecorded(o.Agent); err != nil {
			return err
		}
	}
	if err := s.keepResults(); err != nil {
		return err
	}
	// What a resume keeps must be what its traces say: a results file
	// edited between invocations (by hand, or by an agent that reached
	// it) is refused before anything is written.
	if len(s.have) > 0 {
		if err := verifyResults(s.have, o.Out, s.def, true, false).Refuse("resume", o.Out); err != nil {
			return err
		}
	}
	if err := saveLock(); err != nil {
		return err
	}
	if err := results.WriteDefinition(o.Out, s.def); err != nil {
		return err
	}
	o.after("definition")
	return nil
}

// finish closes the trace file, summarises the results and writes the
// run's files: all of them for a complete run, the summary and report
// (marked partial) for one that stopped short. runErr is how playing
// ended; the error returned is it, joined with a write's.
func (s *scoring) finish(ctx context.Context, runErr error) error {
	if s.tw != nil {
		err := s.tw.Close()
		s.tw = nil
		if err != nil && runErr == nil {
			runErr = err
		}
	}
	oc := s.oc
	oc.Summary = summarize(s.def, s.have, s.traced)
	oc.Complete = len(s.have) == len(s.p.specs)
	results.CountMissing(&oc.Summary, s.p.specs, s.p.indices, s.have)
	if oc.Complete && errors.Is(runErr, context.Canceled) && ctx.Err() != nil {
		runErr = nil // the signal came after the last episode: the run is whole
	}
	if !oc.Complete {
		// A partial run still says where it stands.
		oc.Summary.Partial, oc.Summary.Planned = true, len(s.p.specs)
		werr := results.WriteSummary(filepath.Join(s.o.Out, results.SummaryFile), oc.Summary)
		if werr == nil {
			werr = report.WriteReport(filepath.Join(s.o.Out, results.ReportFile), oc.Summary, s.have)
		}
		return errors.Join(runErr, werr)
	}
	if runErr != nil {
		return runErr
	}
	return s.writeComplete()
}

// writeComplete rewrites results.jsonl in suite order and writes
// summary.json and report.html, in that order.
func (s *scoring) writeComplete() error {
	o := &s.o
	if err := results.WriteSorted(s.resultsPath, s.have); err != nil {
		return err
	}
	o.after("results")
	if err := results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), s.oc.Summary); err != nil {
		return err
	}
	o.after("summary")
	if err := report.WriteReport(filepath.Join(o.Out, results.ReportFile), s.oc.Summary, s.have); err != nil {
		return err
	}
	o.after("report")
	return nil
}
