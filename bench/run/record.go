package run

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/longcraft/longcraft/bench/results"
)

// outputs are the files Score appends to as each episode ends: the
// results lines, buffered and flushed line by line, and the timings.
type outputs struct {
	results *os.File
	lines   *bufio.Writer
	enc     *json.Encoder // of lines
	timings *os.File
	times   *json.Encoder // of timings
}

// openOutputs opens results.jsonl and timings.jsonl to append.
func (s *scoring) openOutputs() (*outputs, error) {
	f, err := os.OpenFile(s.resultsPath, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	out := &outputs{results: f, lines: bufio.NewWriter(f)}
	out.enc = json.NewEncoder(out.lines)
	// Episodes' wall times, beside the results and apart from them.
	tf, err := os.OpenFile(filepath.Join(s.o.Out, results.TimingsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		f.Close()
		return nil, err
	}
	out.timings, out.times = tf, json.NewEncoder(tf)
	return out, nil
}

// close closes both files; every line was flushed as it was written.
func (out *outputs) close() {
	out.timings.Close()
	out.results.Close()
}

// play plays the episodes still to play across the workers, recording
// each as it ends, and returns how playing ended.
func (s *scoring) play(ctx context.Context, out *outputs, progress func(done, total int)) error {
	o := &s.o
	start := time.Now()
	o.Config.spend = newSpend(o.Config, s.have, o.Out)
	starts := &startWatch{agent: o.Agent}
	runErr := Suite(ctx, s.todoSpecs, s.todoIdx, o.Config, func(d Done) error {
		if err := starts.check(&d.Result); err != nil {
			return err // the agent cannot start: no result, no trace
		}
		if err := s.record(d, out); err != nil {
			return err
		}
		if progress != nil {
			progress(s.oc.Skipped+s.oc.Played, len(s.p.specs))
		}
		return nil
	})
	s.oc.Elapsed = time.Since(start)
	s.oc.BudgetSpent = o.Config.spend.spent()
	return runErr
}

// record writes a finished episode: its trace first, then its result
// line, flushed (a result on disk means its trace is too), then its
// timing.
func (s *scoring) record(d Done, out *outputs) error {
	if s.tw != nil && d.Trace != nil && needsTrace(s.o.Traces, &d.Result) {
		if err := s.tw.Append(d.Trace); err != nil {
			return err
		}
		s.traced[d.Result.ID] = true
	}
	if err := out.enc.Encode(&d.Result); err != nil {
		return err
	}
	if err := out.lines.Flush(); err != nil {
		return err
	}
	s.o.after("result")
	if err := out.times.Encode(&d.Timing); err != nil {
		return err
	}
	s.have = append(s.have, d.Result)
	s.oc.Played++
	s.oc.Steps += d.Result.Steps
	return nil
}
