package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/report"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/trace"
)

// Merge combines the shard run directories of one run into out: the same
// results.jsonl, summary.json, report.html, run.json and set of traces as
// the run played unsharded. It refuses a shard set with a gap or an
// overlap, shards of different runs (their run.json differ in more than
// the shard), and unfinished shards, naming them.
func Merge(out string, dirs []string) (results.Summary, error) {
	if err := checkMergeDirs(out, dirs); err != nil {
		return results.Summary{}, err
	}
	unlock, err := lockMerge(out, dirs)
	if err != nil {
		return results.Summary{}, mergeErr("%w", err)
	}
	defer unlock()
	m := &merging{out: out, dirs: dirs, byShard: map[int]string{}, traced: map[string]bool{}}
	for k, d := range dirs {
		if err := m.readShard(k, d); err != nil {
			return results.Summary{}, err
		}
	}
	if err := m.checkWhole(); err != nil {
		return results.Summary{}, err
	}
	return m.write()
}

// mergeErr is a refused merge's error.
func mergeErr(format string, a ...any) error {
	return fmt.Errorf("merge: "+format, a...)
}

// checkMergeDirs refuses a merge of no shard, or into one of its shards.
func checkMergeDirs(out string, dirs []string) error {
	if len(dirs) == 0 {
		return mergeErr("no shard directories")
	}
	if ost, err := os.Stat(out); err == nil {
		for _, d := range dirs {
			if dst, err := os.Stat(d); err == nil && os.SameFile(ost, dst) {
				return mergeErr("--out %s is the shard %s: merge into a directory of its own", out, d)
			}
		}
	}
	return nil
}

// merging is a merge in progress: the shards read so far.
type merging struct {
	out     string
	dirs    []string
	def     results.Definition // the first shard's
	byShard map[int]string     // each shard's directory, by its index
	all     []results.Result   // every shard's results
	traced  map[string]bool    // ids that have a trace
}

// readShard reads shard directory d, the k-th given, refusing one of
// another run, a shard given twice, an unfinished one, and one whose
// results are not its run's or do not match its traces.
func (m *merging) readShard(k int, d string) error {
	sd, err := results.ReadDefinition(d)
	if err != nil {
		return mergeErr("%w", err)
	}
	if k == 0 {
		m.def = sd
	} else if err := checkSalt(sd.SaltCommitment, m.def.SaltCommitment); err != nil {
		return mergeErr("%s and %s are not shards of one run (%w)", d, m.dirs[0], err)
	} else if diff := sd.Differs(m.def, "shard"); diff != "" {
		return mergeErr("%s and %s are not shards of one run (%s)", d, m.dirs[0], diff)
	}
	if prev, dup := m.byShard[sd.Shard]; dup {
		return mergeErr("shard %d of %d given twice: %s and %s", sd.Shard, sd.Shards, prev, d)
	}
	m.byShard[sd.Shard] = d
	if err := checkShardFinished(d); err != nil {
		return err
	}
	rs, err := results.Read(filepath.Join(d, results.ResultsFile))
	if err != nil {
		return mergeErr("%w", err)
	}
	if err := m.checkShardResults(d, rs); err != nil {
		return err
	}
	// What is merged must be what the shard's traces say.
	v, err := Verify(d)
	if err != nil {
		return mergeErr("%w", err)
	}
	if err := v.Refuse("merge", d); err != nil {
		return err // "merge: DIR does not match its traces: …"
	}
	for id := range v.traced {
		m.traced[id] = true
	}
	m.all = append(m.all, rs...)
	return nil
}

// checkShardFinished refuses shard d unless its summary.json says it is
// whole.
func checkShardFinished(d string) error {
	var s results.Summary
	data, err := os.ReadFile(filepath.Join(d, results.SummaryFile))
	if err != nil {
		return mergeErr("%s has no %s: is the shard finished?", d, results.SummaryFile)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return mergeErr("%s: %w", filepath.Join(d, results.SummaryFile), err)
	}
	if s.Partial {
		return mergeErr("%s is unfinished (%d of %d episodes): resume it first", d, s.Episodes, s.Planned)
	}
	return nil
}

// checkShardResults refuses results of shard d played by another agent,
// from another lock or with another salt than the run's.
func (m *merging) checkShardResults(d string, rs []results.Result) error {
	def := m.def
	for _, r := range rs {
		if r.Lock != def.Lock || !agent.IsRecorded(def.Agent) && r.Agent != def.Agent {
			return mergeErr("%s: episode %d was played by %s from suite lock %s, the run is %s from %s: not the same tasks",
				d, r.Index, r.Agent, short(r.Lock), def.Agent, short(def.Lock))
		}
		if err := checkSalt(def.SaltCommitment, r.SaltCommitment); err != nil {
			return mergeErr("%s: episode %d: %w", d, r.Index, err)
		}
	}
	return nil
}

// checkWhole refuses a shard set with a shard missing, an episode in two
// shards, or another number of results than the run plans.
func (m *merging) checkWhole() error {
	var missing []string
	for i := range m.def.Shards {
		if _, ok := m.byShard[i]; !ok {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return mergeErr("shard %s of %d missing (have %d of %d)", strings.Join(missing, ", "), m.def.Shards, len(m.byShard), m.def.Shards)
	}
	seen := map[int]bool{}
	for _, r := range m.all {
		if seen[r.Index] {
			return mergeErr("episode %d (%s) in two shards", r.Index, r.ID)
		}
		seen[r.Index] = true
	}
	if len(m.all) != m.def.Episodes {
		return mergeErr("the shards hold %d results, the run plans %d", len(m.all), m.def.Episodes)
	}
	return nil
}

// write writes the merged run into out: the traces, run.json, the
// timings and invocations, results.jsonl, summary.json and report.html,
// then this merge's invocation.
func (m *merging) write() (results.Summary, error) {
	out, def := m.out, m.def
	// The traces first: they are the last thing that can refuse the
	// shard set (a lost trace file), and a refused merge should leave no
	// half-written run behind.
	if def.Traces != "none" && def.Traces != "" {
		if err := mergeTraces(out, m.dirs, m.all, def.Traces); err != nil {
			return results.Summary{}, mergeErr("%w", err)
		}
	}
	def.Shard, def.Shards = 0, 1
	if err := results.WriteDefinition(out, def); err != nil {
		return results.Summary{}, err
	}
	// The shards' timings and invocations, then this merge's.
	if err := mergeTimings(out, m.dirs); err != nil {
		return results.Summary{}, mergeErr("%w", err)
	}
	inv := results.NewInvocation("merge", append([]string{"merge", "--out", out}, m.dirs...), time.Now())
	inv.Merged, inv.Complete = m.dirs, true
	if err := mergeInvocations(out, m.dirs); err != nil {
		return results.Summary{}, err
	}
	if err := results.WriteSorted(filepath.Join(out, results.ResultsFile), m.all); err != nil {
		return results.Summary{}, err
	}
	s := summarize(def, m.all, m.traced)
	if err := results.WriteSummary(filepath.Join(out, results.SummaryFile), s); err != nil {
		return results.Summary{}, err
	}
	if err := report.WriteReport(filepath.Join(out, results.ReportFile), s, m.all); err != nil {
		return results.Summary{}, err
	}
	return s, results.AppendInvocation(out, inv, time.Now())
}

// mergeInvocations writes the shards' invocations.jsonl into out's, in
// the order of dirs, over any out had.
func mergeInvocations(out string, dirs []string) error {
	if err := os.Remove(filepath.Join(out, results.InvocationsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, d := range dirs {
		invs, err := results.ReadInvocations(d)
		if err != nil {
			return mergeErr("%w", err)
		}
		for _, i := range invs {
			if err := results.AppendInvocation(out, i, i.End); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeTraces writes the shards' traces into out's trace file, in suite
// order, one per result that has one.
func mergeTraces(out string, dirs []string, all []results.Result, traces string) error {
	var files []*trace.File
	defer func() {
		for _, tf := range files {
			tf.Close()
		}
	}()
	eps, err := locateShardTraces(dirs, all, &files)
	if err != nil {
		return err
	}
	// Every result that should have a trace has one: a shard whose trace
	// file was lost (not copied back from the cluster) is refused, not
	// merged into a run with traces missing.
	want := 0
	for i := range all {
		if needsTrace(traces, &all[i]) {
			want++
		}
	}
	if len(eps) != want {
		return fmt.Errorf("the shards' results need %d traces (traces %s), their trace files hold %d: is a shard's %s missing?", want, traces, len(eps), results.TraceFile)
	}
	sort.Slice(eps, func(a, b int) bool { return eps[a].at < eps[b].at })
	tw, err := trace.Create(filepath.Join(out, results.TraceFile))
	if err != nil {
		return err
	}
	for _, e := range eps {
		ep, err := e.file.Episode(e.i)
		if err == nil {
			err = tw.Append(ep)
		}
		if err != nil {
			tw.Close()
			return err
		}
	}
	return tw.Close()
}

// shardTrace is a trace in a shard's trace file: record i of file, the
// episode at suite position at.
type shardTrace struct {
	file *trace.File
	i    int
	at   int
}

// locateShardTraces opens each shard's trace file (into files, which the
// caller closes) and finds the result each record is of, refusing a
// record without a task or without a result.
func locateShardTraces(dirs []string, all []results.Result, files *[]*trace.File) ([]shardTrace, error) {
	index := map[string]int{}
	for _, r := range all {
		index[r.ID] = r.Index
	}
	var eps []shardTrace
	for _, d := range dirs {
		tf, err := trace.Open(filepath.Join(d, results.TraceFile))
		if errors.Is(err, os.ErrNotExist) {
			continue // a shard whose episodes all succeeded, with traces of failures only
		}
		if err != nil {
			return nil, err
		}
		*files = append(*files, tf)
		for i := range tf.Index {
			ep, err := tf.Episode(i)
			if err != nil {
				return nil, err
			}
			if ep.Header.Task == nil {
				return nil, fmt.Errorf("%s: episode %d has no task", tf.Path, i)
			}
			at, ok := index[ep.Header.EpisodeID()]
			if !ok {
				return nil, fmt.Errorf("%s: episode %d (%s) has no result", tf.Path, i, ep.Header.EpisodeID())
			}
			eps = append(eps, shardTrace{tf, i, at})
		}
	}
	return eps, nil
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

// mergeTimings writes the shards' timings.jsonl into out's, in suite order.
func mergeTimings(out string, dirs []string) error {
	var all []results.Timing
	for _, d := range dirs {
		ts, err := results.ReadTimings(d)
		if err != nil {
			return err
		}
		all = append(all, ts...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Index < all[j].Index })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range all {
		if err := enc.Encode(&all[i]); err != nil {
			return err
		}
	}
	return results.WriteAtomic(filepath.Join(out, results.TimingsFile), buf.Bytes())
}
