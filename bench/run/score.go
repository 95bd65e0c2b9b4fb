package run

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return oc, err
	}
	if o.SaltSecret != "" {
		if err := keepSaltSecret(o.SaltSecret, o.Salt); err != nil {
			return oc, err
		}
	}
	o.External.Hidden = append(append([]string(nil), o.External.Hidden...), hiddenPaths(o)...)
	resultsPath := filepath.Join(o.Out, results.ResultsFile)
	var have []results.Result
	switch prev, err := results.Read(resultsPath); {
	case err == nil && !o.Resume && len(prev) > 0:
		return oc, fmt.Errorf("%s already holds %d results: use --resume to continue the run, or another --out", resultsPath, len(prev))
	case err == nil:
		have = prev
	case !errors.Is(err, os.ErrNotExist):
		return oc, err
	}
	var saveLock func() error
	if o.Config.lock, saveLock, err = runLock(ctx, o, nil); err != nil {
		return oc, err
	}
	lockHash := ""
	if o.Config.lock != nil {
		lockHash = o.Config.lock.Hash
	}
	def := definition(o, p, lockHash)
	if o.Resume {
		switch was, err := results.ReadDefinition(o.Out); {
		case errors.Is(err, results.ErrNoDefinition) && len(have) == 0:
		case err != nil:
			return oc, fmt.Errorf("resume: %w", err)
		default:
			if err := checkSalt(def.SaltCommitment, was.SaltCommitment); err != nil {
				return oc, fmt.Errorf("resume %s: this invocation is not the run it continues (%w): use the run's salt (--salt-file), or another --out", o.Out, err)
			}
			if diff := def.Differs(was); diff != "" {
				return oc, fmt.Errorf("resume %s: this invocation is not the run it continues (%s): use another --out", o.Out, diff)
			}
		}
	}
	o.Config.Agent = o.Agent
	if agent.IsRecorded(o.Agent) {
		if o.Config.recorded, err = agent.LoadRecorded(o.Agent); err != nil {
			return oc, err
		}
	}
	kept := map[int]bool{}
	var keptResults []results.Result
	for _, r := range have {
		if want := o.Config.resultAgent(r.ID); r.Agent != want {
			return oc, fmt.Errorf("%s: results of agent %q, this run is %q", resultsPath, r.Agent, want)
		}
		if r.Lock != lockHash {
			return oc, fmt.Errorf("%s: results played from suite lock %q, this run's is %q: they are not the same tasks", resultsPath, short(r.Lock), short(lockHash))
		}
		if err := checkSalt(def.SaltCommitment, r.SaltCommitment); err != nil {
			return oc, fmt.Errorf("%s: episode %d: %w", resultsPath, r.Index, err)
		}
		if !kept[r.Index] { // a duplicate line is dropped
			kept[r.Index] = true
			keptResults = append(keptResults, r)
		}
	}
	have = keptResults
	// What a resume keeps must be what its traces say: a results file
	// edited between invocations (by hand, or by an agent that reached
	// it) is refused before anything is written.
	traced := map[string]bool{}
	if len(have) > 0 {
		if err := verifyResults(have, o.Out, def, true, false).Refuse("resume", o.Out); err != nil {
			return oc, err
		}
	}
	if err := saveLock(); err != nil {
		return oc, err
	}
	if err := results.WriteDefinition(o.Out, def); err != nil {
		return oc, err
	}
	o.after("definition")
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

	var tw *trace.Writer
	var rebuild []results.Result // results whose lost traces are played again
	o.Config.Traces = o.Traces == "all" || o.Traces == "failures"
	if o.Config.Traces {
		// Keep one trace per result; a result whose trace was lost is
		// played again, and a trace without its result (the crash came
		// between the two writes) is dropped, since its episode will be.
		byID := map[string]*results.Result{}
		for i := range have {
			byID[have[i].ID] = &have[i]
		}
		if tw, err = trace.OpenAppend(filepath.Join(o.Out, results.TraceFile), func(_ int, ep *trace.Episode) bool {
			if ep.Header.Task == nil {
				return false
			}
			id := ep.Header.EpisodeID()
			r := byID[id]
			if r == nil || traced[id] || !needsTrace(o.Traces, r) {
				return false
			}
			traced[id] = true
			return true
		}); err != nil {
			return oc, err
		}
		tw.AfterWrite = o.after
		defer func() {
			if tw != nil {
				tw.Close()
			}
		}()
		// A result whose trace was lost keeps its result: playing it again
		// and taking the new one would retry exactly the episodes that lack
		// a trace (with traces of failures only, the failures), a free
		// second chance. A deterministic agent's trace is rebuilt by
		// playing the episode again and checking it gives the recorded
		// result; another agent's stays missing, and the summary counts
		// it unverified.
		kind, _ := agent.Lookup(o.Agent)
		for _, r := range have {
			if needsTrace(o.Traces, &r) && !traced[r.ID] {
				if kind.Offline {
					rebuild = append(rebuild, r)
				} else {
					oc.TracesMissing++
				}
			}
		}
	}
	// The results file holds exactly the kept results before anything is
	// appended: a torn last line, duplicates and results to play again go.
	if err := results.WriteSorted(resultsPath, have); err != nil {
		return oc, err
	}
	// The episodes still to play: every planned one without a result.
	done := map[int]bool{}
	for _, r := range have {
		done[r.Index] = true
	}
	var todoSpecs []task.Spec
	var todoIdx []int
	for i, sp := range p.specs {
		if !done[p.indices[i]] {
			todoSpecs, todoIdx = append(todoSpecs, sp), append(todoIdx, p.indices[i])
		}
	}
	// Held-out seeds: their tasks, and those of rebuild, made now, in
	// parallel.
	if o.Config.salted, err = saltTasks(ctx, o, todoSpecs, todoIdx, rebuild); err != nil {
		return oc, err
	}
	if len(rebuild) > 0 {
		specs, idx := make([]task.Spec, len(rebuild)), make([]int, len(rebuild))
		recorded := map[int]results.Result{}
		for i, r := range rebuild {
			specs[i], idx[i], recorded[r.Index] = r.Spec, r.Index, r
		}
		cfg := o.Config
		cfg.Agent = o.Agent
		if err := Suite(ctx, specs, idx, cfg, func(d Done) error {
			// A newer binary may rebuild the trace: the result must be
			// the same, whichever build played it (the new trace's
			// header names the one that recorded it).
			again := d.Result
			again.Build = recorded[d.Result.Index].Build
			want, _ := json.Marshal(recorded[d.Result.Index])
			got, _ := json.Marshal(again)
			if !bytes.Equal(want, got) {
				return fmt.Errorf("resume: episode %d (%s) played again to rebuild its lost trace gave another result than the recorded one: the recorded result stands and the run stops", d.Result.Index, d.Result.ID)
			}
			if d.Trace == nil {
				return fmt.Errorf("resume: episode %d (%s) played again gave no trace", d.Result.Index, d.Result.ID)
			}
			oc.Replayed++
			traced[d.Result.ID] = true
			return tw.Append(d.Trace)
		}); err != nil {
			return oc, err
		}
	}
	oc.Skipped = len(p.specs) - len(todoSpecs)
	f, err := os.OpenFile(resultsPath, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return oc, err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	// Episodes' wall times, beside the results and apart from them.
	tf, err := os.OpenFile(filepath.Join(o.Out, results.TimingsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return oc, err
	}
	defer tf.Close()
	times := json.NewEncoder(tf)
	start := time.Now()
	o.Config.spend = newSpend(o.Config, have, o.Out)
	starts := &startWatch{agent: o.Agent}
	runErr := Suite(ctx, todoSpecs, todoIdx, o.Config, func(d Done) error {
		if err := starts.check(&d.Result); err != nil {
			return err // the agent cannot start: no result, no trace
		}
		// The trace first, then the result: a result on disk means its
		// trace is too.
		if tw != nil && d.Trace != nil && needsTrace(o.Traces, &d.Result) {
			if err := tw.Append(d.Trace); err != nil {
				return err
			}
			traced[d.Result.ID] = true
		}
		if err := enc.Encode(&d.Result); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		o.after("result")
		if err := times.Encode(&d.Timing); err != nil {
			return err
		}
		have = append(have, d.Result)
		oc.Played++
		oc.Steps += d.Result.Steps
		if progress != nil {
			progress(oc.Skipped+oc.Played, len(p.specs))
		}
		return nil
	})
	oc.Elapsed = time.Since(start)
	oc.BudgetSpent = o.Config.spend.spent()
	if tw != nil {
		err := tw.Close()
		tw = nil
		if err != nil && runErr == nil {
			runErr = err
		}
	}
	oc.Summary = summarize(def, have, traced)
	oc.Complete = len(have) == len(p.specs)
	results.CountMissing(&oc.Summary, p.specs, p.indices, have)
	if oc.Complete && errors.Is(runErr, context.Canceled) && ctx.Err() != nil {
		runErr = nil // the signal came after the last episode: the run is whole
	}
	if !oc.Complete {
		// A partial run still says where it stands.
		oc.Summary.Partial, oc.Summary.Planned = true, len(p.specs)
		werr := results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), oc.Summary)
		if werr == nil {
			werr = report.WriteReport(filepath.Join(o.Out, results.ReportFile), oc.Summary, have)
		}
		return oc, errors.Join(runErr, werr)
	}
	if runErr != nil {
		return oc, runErr
	}
	if err := results.WriteSorted(resultsPath, have); err != nil {
		return oc, err
	}
	o.after("results")
	if err := results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), oc.Summary); err != nil {
		return oc, err
	}
	o.after("summary")
	if err := report.WriteReport(filepath.Join(o.Out, results.ReportFile), oc.Summary, have); err != nil {
		return oc, err
	}
	o.after("report")
	return oc, nil
}
