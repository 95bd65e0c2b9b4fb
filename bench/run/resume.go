package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
)

// checkResume refuses to resume the run in dir, defined by run.json, as
// the run def: another definition, or another salt. A directory without
// run.json and without results (have of them) starts the run.
func checkResume(dir string, def results.Definition, have int) error {
	switch was, err := results.ReadDefinition(dir); {
	case errors.Is(err, results.ErrNoDefinition) && have == 0:
	case err != nil:
		return fmt.Errorf("resume: %w", err)
	default:
		if err := checkSalt(def.SaltCommitment, was.SaltCommitment); err != nil {
			return fmt.Errorf("resume %s: this invocation is not the run it continues (%w): use the run's salt (--salt-file), or another --out", dir, err)
		}
		if diff := def.Differs(was); diff != "" {
			return fmt.Errorf("resume %s: this invocation is not the run it continues (%s): use another --out", dir, diff)
		}
	}
	return nil
}

// keepResults refuses results of another agent, lock or salt than this
// run's, and drops a duplicate line.
func (s *scoring) keepResults() error {
	kept := map[int]bool{}
	var keptResults []results.Result
	for _, r := range s.have {
		if want := s.o.Config.resultAgent(r.ID); r.Agent != want {
			return fmt.Errorf("%s: results of agent %q, this run is %q", s.resultsPath, r.Agent, want)
		}
		if r.Lock != s.lockHash {
			return fmt.Errorf("%s: results played from suite lock %q, this run's is %q: they are not the same tasks", s.resultsPath, short(r.Lock), short(s.lockHash))
		}
		if err := checkSalt(s.def.SaltCommitment, r.SaltCommitment); err != nil {
			return fmt.Errorf("%s: episode %d: %w", s.resultsPath, r.Index, err)
		}
		if !kept[r.Index] { // a duplicate line is dropped
			kept[r.Index] = true
			keptResults = append(keptResults, r)
		}
	}
	s.have = keptResults
	return nil
}

// resume opens the trace file, rewrites results.jsonl with the kept
// results alone, lists the episodes still to play, makes the held-out
// tasks and rebuilds the lost traces a deterministic agent can.
func (s *scoring) resume(ctx context.Context) error {
	o := &s.o
	o.Config.Traces = o.Traces == "all" || o.Traces == "failures"
	if o.Config.Traces {
		if err := s.openTraces(); err != nil {
			return err
		}
	}
	// The results file holds exactly the kept results before anything is
	// appended: a torn last line, duplicates and results to play again go.
	if err := results.WriteSorted(s.resultsPath, s.have); err != nil {
		return err
	}
	s.listTodo()
	// Held-out seeds: their tasks, and those of rebuild, made now, in
	// parallel.
	var err error
	if o.Config.salted, err = saltTasks(ctx, *o, s.todoSpecs, s.todoIdx, s.rebuild); err != nil {
		return err
	}
	if len(s.rebuild) > 0 {
		if err := s.rebuildTraces(ctx); err != nil {
			return err
		}
	}
	s.oc.Skipped = len(s.p.specs) - len(s.todoSpecs)
	return nil
}

// openTraces opens the trace file to append, keeping one trace per
// result, and lists the results whose trace was lost.
func (s *scoring) openTraces() error {
	o := &s.o
	// Keep one trace per result; a result whose trace was lost is
	// played again, and a trace without its result (the crash came
	// between the two writes) is dropped, since its episode will be.
	byID := map[string]*results.Result{}
	for i := range s.have {
		byID[s.have[i].ID] = &s.have[i]
	}
	tw, err := trace.OpenAppend(filepath.Join(o.Out, results.TraceFile), func(_ int, ep *trace.Episode) bool {
		if ep.Header.Task == nil {
			return false
		}
		id := ep.Header.EpisodeID()
		r := byID[id]
		if r == nil || s.traced[id] || !needsTrace(o.Traces, r) {
			return false
		}
		s.traced[id] = true
		return true
	})
	if err != nil {
		return err
	}
	s.tw = tw
	tw.AfterWrite = o.after
	// A result whose trace was lost keeps its result: playing it again
	// and taking the new one would retry exactly the episodes that lack
	// a trace (with traces of failures only, the failures), a free
	// second chance. A deterministic agent's trace is rebuilt by
	// playing the episode again and checking it gives the recorded
	// result; another agent's stays missing, and the summary counts
	// it unverified.
	kind, _ := agent.Lookup(o.Agent)
	for _, r := range s.have {
		if needsTrace(o.Traces, &r) && !s.traced[r.ID] {
			if kind.Offline {
				s.rebuild = append(s.rebuild, r)
			} else {
				s.oc.TracesMissing++
			}
		}
	}
	return nil
}

// closeTraces closes the trace file if it is still open (Score's
// deferred cleanup: finish closes it on the way that reports its error).
func (s *scoring) closeTraces() {
	if s.tw != nil {
		s.tw.Close()
	}
}

// listTodo lists the episodes still to play: every planned one without a
// result.
func (s *scoring) listTodo() {
	done := map[int]bool{}
	for _, r := range s.have {
		done[r.Index] = true
	}
	for i, sp := range s.p.specs {
		if !done[s.p.indices[i]] {
			s.todoSpecs, s.todoIdx = append(s.todoSpecs, sp), append(s.todoIdx, s.p.indices[i])
		}
	}
}

// rebuildTraces plays again the episodes of the results whose traces
// were lost, appending each new trace once its result is the recorded
// one; any other result stops the run.
func (s *scoring) rebuildTraces(ctx context.Context) error {
	specs, idx := make([]task.Spec, len(s.rebuild)), make([]int, len(s.rebuild))
	recorded := map[int]results.Result{}
	for i, r := range s.rebuild {
		specs[i], idx[i], recorded[r.Index] = r.Spec, r.Index, r
	}
	cfg := s.o.Config
	cfg.Agent = s.o.Agent
	return Suite(ctx, specs, idx, cfg, func(d Done) error {
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
		s.oc.Replayed++
		s.traced[d.Result.ID] = true
		return s.tw.Append(d.Trace)
	})
}
