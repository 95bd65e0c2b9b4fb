package run

import (
	"bufio"
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
	Seeds    int // keep the first Seeds episodes of each family × tier (0: all)
}

// Plan expands the options' suite into the episodes this shard plays, with
// their positions in the whole suite.
func Plan(o Options) (name string, specs []task.Spec, indices []int, err error) {
	var all []task.Spec
	if agent.IsRecorded(o.Suite) {
		r, err := agent.LoadRecorded(o.Suite)
		if err != nil {
			return "", nil, nil, err
		}
		name, all = r.SuiteName(), r.Specs()
	} else {
		s, err := suite.Load(o.Suite)
		if err != nil {
			return "", nil, nil, err
		}
		name, all = s.Name, s.Expand()
	}
	keep := func(list []string, v string) bool {
		if len(list) == 0 {
			return true
		}
		for _, x := range list {
			if x == v {
				return true
			}
		}
		return false
	}
	seen := map[[2]string]int{}
	shards := max(o.Shards, 1)
	for i, sp := range all {
		if !keep(o.Tiers, sp.Tier) || !keep(o.Families, sp.Family) {
			continue
		}
		k := [2]string{sp.Family, sp.Tier}
		if seen[k]++; o.Seeds > 0 && seen[k] > o.Seeds {
			continue
		}
		if i%shards != o.Shard {
			continue
		}
		specs = append(specs, sp)
		indices = append(indices, i)
	}
	return name, specs, indices, nil
}

// Outcome is what Score leaves: the summary of every result in the run
// directory, and how this invocation went.
type Outcome struct {
	Summary  results.Summary
	Played   int // episodes played by this invocation
	Skipped  int // already in results.jsonl (resume)
	Steps    int // steps played by this invocation
	Elapsed  time.Duration
	Complete bool // every planned episode has a result
}

// Score plays a suite with an agent into o.Out: results.jsonl appended as
// each episode finishes, traces, then (when complete) results.jsonl in
// suite order, summary.json and report.html. progress, if not nil, is
// called with (done, total) after each episode. On cancellation the
// results so far stay on disk, the summary covers them, and the error is
// ctx's.
func Score(ctx context.Context, o Options, progress func(done, total int)) (Outcome, error) {
	var oc Outcome
	name, specs, indices, err := Plan(o)
	if err != nil {
		return oc, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return oc, err
	}
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
	done := map[int]bool{}
	for _, r := range have {
		if r.Agent != o.Agent {
			return oc, fmt.Errorf("%s: results of agent %q, this run is %q", resultsPath, r.Agent, o.Agent)
		}
		if r.Lock != lockHash {
			return oc, fmt.Errorf("%s: results played from suite lock %q, this run's is %q: they are not the same tasks", resultsPath, short(r.Lock), short(lockHash))
		}
		done[r.Index] = true
	}
	if err := saveLock(); err != nil {
		return oc, err
	}
	var todoSpecs []task.Spec
	var todoIdx []int
	for i, sp := range specs {
		if !done[indices[i]] {
			todoSpecs, todoIdx = append(todoSpecs, sp), append(todoIdx, indices[i])
		}
	}
	oc.Skipped = len(specs) - len(todoSpecs)
	f, err := os.OpenFile(resultsPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return oc, err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	var tw *trace.Writer
	o.Config.Traces = o.Traces == "all" || o.Traces == "failures"
	if o.Config.Traces {
		if tw, err = trace.OpenAppend(filepath.Join(o.Out, results.TraceFile)); err != nil {
			return oc, err
		}
	}
	start := time.Now()
	o.Config.Agent = o.Agent
	if agent.IsRecorded(o.Agent) {
		if o.Config.recorded, err = agent.LoadRecorded(o.Agent); err != nil {
			return oc, err
		}
	}
	runErr := Suite(ctx, todoSpecs, todoIdx, o.Config, func(d Done) error {
		// One line per finished episode, on disk before the next: a crash
		// loses at most the episodes being played.
		if err := enc.Encode(&d.Result); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if tw != nil && d.Trace != nil && (o.Traces == "all" || !d.Result.Success) {
			if err := tw.Append(d.Trace); err != nil {
				return err
			}
		}
		have = append(have, d.Result)
		oc.Played++
		oc.Steps += d.Result.Steps
		if progress != nil {
			progress(oc.Skipped+oc.Played, len(specs))
		}
		return nil
	})
	oc.Elapsed = time.Since(start)
	if tw != nil {
		if err := tw.Close(); err != nil && runErr == nil {
			runErr = err
		}
	}
	oc.Summary = results.Summarize(name, o.Agent, have, results.ClassicAchievements)
	oc.Complete = len(have) == len(specs)
	if runErr != nil || !oc.Complete {
		return oc, runErr
	}
	if err := results.WriteSorted(resultsPath, have); err != nil {
		return oc, err
	}
	if err := results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), oc.Summary); err != nil {
		return oc, err
	}
	return oc, report.WriteReport(filepath.Join(o.Out, results.ReportFile), oc.Summary, have)
}

// Merge combines the results of shard run directories into out: the same
// results.jsonl and summary.json, byte for byte, as an unsharded run.
func Merge(out string, dirs []string) (results.Summary, error) {
	var all []results.Result
	seen := map[int]string{}
	suiteName, agent := "", ""
	lock, lockDir := "", ""
	for _, d := range dirs {
		rs, err := results.Read(filepath.Join(d, results.ResultsFile))
		if err != nil {
			return results.Summary{}, fmt.Errorf("merge: %w", err)
		}
		var s results.Summary
		if data, err := os.ReadFile(filepath.Join(d, results.SummaryFile)); err == nil {
			if err := json.Unmarshal(data, &s); err != nil {
				return results.Summary{}, fmt.Errorf("merge: %s: %w", filepath.Join(d, results.SummaryFile), err)
			}
		} else {
			return results.Summary{}, fmt.Errorf("merge: %s has no %s: is the shard finished?", d, results.SummaryFile)
		}
		if suiteName != "" && (s.Suite != suiteName || s.Agent != agent) {
			return results.Summary{}, fmt.Errorf("merge: %s ran %s with %s, others %s with %s", d, s.Suite, s.Agent, suiteName, agent)
		}
		suiteName, agent = s.Suite, s.Agent
		for _, r := range rs {
			// Shards must have played the same tasks: one suite lock (or
			// none) for all of them.
			if lockDir == "" { // the first result of all
				lock, lockDir = r.Lock, d
			}
			if r.Lock != lock {
				return results.Summary{}, fmt.Errorf("merge: %s played from suite lock %q, %s from %q: not the same tasks", d, short(r.Lock), lockDir, short(lock))
			}
			if prev, dup := seen[r.Index]; dup {
				return results.Summary{}, fmt.Errorf("merge: episode %d (%s) in both %s and %s", r.Index, r.ID, prev, d)
			}
			seen[r.Index] = d
			all = append(all, r)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return results.Summary{}, err
	}
	if err := results.WriteSorted(filepath.Join(out, results.ResultsFile), all); err != nil {
		return results.Summary{}, err
	}
	s := results.Summarize(suiteName, agent, all, results.ClassicAchievements)
	if err := results.WriteSummary(filepath.Join(out, results.SummaryFile), s); err != nil {
		return results.Summary{}, err
	}
	return s, report.WriteReport(filepath.Join(out, results.ReportFile), s, all)
}

// short abbreviates a lock hash for messages ("none" when empty).
func short(h string) string {
	switch {
	case h == "":
		return "none"
	case len(h) > 12:
		return h[:12]
	}
	return h
}
