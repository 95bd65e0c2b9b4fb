package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/workers"
)

// Verification is what checking a run's results against its traces
// found. Every results line of an episode that has a trace is re-derived
// from it (episode.Replay: the trace replayed through the episode rule)
// and compared field by field; the summary is recomputed from the lines
// as their traces say and compared with summary.json.
//
// What a trace proves: the line's spec, seed, goal, conditions, ruleset
// and agent label (its header), and every figure of episode.Metrics:
// end, success, steps, decisions, failed skills, death, return, stages,
// milestones, achievements, the last outcome, and the behaviour and
// exploration metrics; and what the played replies show, which the trace's
// notes keep (deriveReplies): invalid outputs and every probe figure,
// scored again as in play. What it does not: an external player's cost
// (model calls, tokens, latency, retries, cost_usd: its transport's
// word), the task's certificate (certified,
// planner_steps, attempts: the lock's), and a host's stop (an episode
// the replay leaves running ended by timeout, agent_error, stopped,
// budget_tokens or budget_cost, which the line may say but not prove).
type Verification struct {
	Checked    int // lines compared with their traces
	Unverified int // lines of a played episode without a trace
	Errored    int // lines of an episode that could not be played: nothing to replay
	Steps      int // steps replayed
	// Lines names every line that differs from its trace, in suite order:
	// "episode 12 (ep-…): success true in results.jsonl, false by its trace".
	Lines []string
	// Traces names the traces that do not fit the lines: unreadable, not
	// replaying, without a result line, or two for one episode.
	Traces []string
	// Summary names the summary.json fields that differ from the summary
	// of the lines as their traces say.
	Summary []string
	Elapsed time.Duration // the check's wall time

	traced  map[string]bool  // ids that have a trace
	derived []results.Result // the lines, their trace-derived fields as the traces say
}

// OK reports whether everything matched.
func (v *Verification) OK() bool { return len(v.Lines)+len(v.Traces)+len(v.Summary) == 0 }

// Problems lists every mismatch: lines, then traces, then the summary.
func (v *Verification) Problems() []string {
	return append(append(append([]string(nil), v.Lines...), v.Traces...), v.Summary...)
}

// ExitVerify is the exit code of a command refused because results do not
// match their traces.
const ExitVerify = 4

// VerifyError refuses results that do not match their traces. Its
// message names the first mismatches; ExitCode is ExitVerify.
type VerifyError struct {
	What string // what was refused: "resume", "merge", "report", "verify"
	Dir  string // the run directory
	V    *Verification
	// Brief counts the mismatches instead of naming the first ones: for
	// a command that has printed them all.
	Brief bool
}

func (e *VerifyError) Error() string {
	if e.Brief {
		return fmt.Sprintf("%s: %s does not match its traces: %d lines, %d traces and %d summary fields differ (above)",
			e.What, e.Dir, len(e.V.Lines), len(e.V.Traces), len(e.V.Summary))
	}
	const shown = 5
	p := e.V.Problems()
	msg := fmt.Sprintf("%s: %s does not match its traces: %s", e.What, e.Dir, strings.Join(p[:min(len(p), shown)], "; "))
	if len(p) > shown {
		msg += fmt.Sprintf("; and %d more", len(p)-shown)
	}
	return msg + fmt.Sprintf(" (longcraft verify %s lists them all)", e.Dir)
}

// ExitCode is the process's exit code for this error.
func (e *VerifyError) ExitCode() int { return ExitVerify }

// Refuse returns a *VerifyError refusing what ("resume", "merge") of
// dir when v found anything, else nil.
func (v *Verification) Refuse(what, dir string) error {
	if v.OK() {
		return nil
	}
	return &VerifyError{What: what, Dir: dir, V: v}
}

// Verify checks the run in dir: every results line against its trace,
// the traces against the lines, and summary.json (when there is one)
// against the lines as their traces say. An error is a run it could not
// read; mismatches are in the Verification.
func Verify(dir string) (*Verification, error) {
	def, err := results.ReadDefinition(dir)
	if err != nil {
		return nil, err
	}
	rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
	if err != nil {
		return nil, err
	}
	file, err := readSummary(dir)
	if err != nil {
		return nil, err
	}
	// The last trace may lack its line only in a run a crash stopped
	// between the two writes; in a finished run it is a deleted line.
	v := verifyResults(rs, dir, def, file == nil || file.Partial, def.Traces == "all")
	if file != nil {
		start := time.Now()
		v.checkSummary(file, def)
		v.Elapsed += time.Since(start)
	}
	return v, nil
}

// readSummary reads dir's summary.json; nil when there is none.
func readSummary(dir string) (*results.Summary, error) {
	path := filepath.Join(dir, results.SummaryFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s results.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// traceID is the episode id a trace's record is of (salted on held-out
// seeds).
func traceID(ep *trace.Episode) string { return ep.Header.EpisodeID() }

// verifyResults checks the lines rs of the run in dir (defined by def)
// against dir's traces. tolerateLast accepts a last trace record without
// a line: an episode whose line a crash cut off, which a resume plays
// again (or a first one torn). A trace file that cannot be read is one
// of the traces' problems, not an error: every line is then unverified,
// and the run refused. requireTraces refuses a line without a trace in a
// run that keeps every trace (--traces all): the runner writes each
// trace before its line, so such a line was not left by it, or its trace
// was lost since; either way nothing proves it, and a forger who deletes
// the traces of the lines he edits must not pass as merely "unverified".
// A resume (which rebuilds what it can, and counts the rest as
// TracesMissing) passes false.
func verifyResults(rs []results.Result, dir string, def results.Definition, tolerateLast, requireTraces bool) *Verification {
	start := time.Now()
	v := &Verification{traced: map[string]bool{}}
	byID, msgs := linesByID(rs)
	tf, traces := v.locateTraces(dir, byID, tolerateLast)
	if tf != nil {
		defer tf.Close()
	}
	out := replayLines(rs, tf, traces, def)
	msgs = append(msgs, v.tally(rs, out, def, requireTraces)...)
	msgs = append(msgs, disagreeingMetrics(dir, rs, out)...)
	sort.SliceStable(msgs, func(a, b int) bool { return msgs[a].index < msgs[b].index })
	for _, m := range msgs {
		v.Lines = append(v.Lines, m.msg)
	}
	v.Elapsed = time.Since(start)
	return v
}

// linesByID indexes rs by episode id, naming each line after the first
// of an episode.
func linesByID(rs []results.Result) (map[string]*results.Result, []indexed) {
	byID := map[string]*results.Result{}
	var msgs []indexed
	for i := range rs {
		if _, dup := byID[rs[i].ID]; dup {
			msgs = append(msgs, indexed{rs[i].Index, lineName(&rs[i]) + ": two results lines for this episode"})
			continue
		}
		byID[rs[i].ID] = &rs[i]
	}
	return byID, msgs
}

// locateTraces opens dir's trace file and finds where each line's trace
// is (its record), read again when its line is checked: a run's traces
// with their notes need not fit in memory. It notes in v the traces that
// do not fit the lines, and which ids have one. The file is nil when
// there is none to read.
func (v *Verification) locateTraces(dir string, byID map[string]*results.Result, tolerateLast bool) (*trace.File, map[string]int) {
	traces := map[string]int{}
	tf, err := trace.Open(filepath.Join(dir, results.TraceFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, traces
	case errors.Is(err, trace.ErrNoWholeRecord) && tolerateLast:
		// A crash while the first trace was written (with --traces
		// failures, after successes that have none): no line rests on it.
		return nil, traces
	case err != nil:
		v.Traces = append(v.Traces, err.Error())
		return nil, traces
	}
	first := map[string]int{}
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		if err != nil {
			v.Traces = append(v.Traces, err.Error())
			continue
		}
		if ep.Header.Task == nil {
			v.Traces = append(v.Traces, fmt.Sprintf("trace record %d was played outside any task", i))
			continue
		}
		id := traceID(ep)
		if j, dup := first[id]; dup {
			v.Traces = append(v.Traces, fmt.Sprintf("two traces of %s: records %d and %d", id, j, i))
			continue
		}
		first[id] = i
		if byID[id] == nil {
			if tolerateLast && i == len(tf.Index)-1 {
				continue
			}
			v.Traces = append(v.Traces, fmt.Sprintf("trace record %d (%s) has no results line", i, id))
			continue
		}
		traces[id], v.traced[id] = i, true
	}
	return tf, traces
}

// checked is one line as its trace says: the line with its
// trace-derived fields, how it differs, and the steps replayed.
type checked struct {
	derived results.Result
	msg     string
	steps   int
}

// replayLines checks each line on its own, across the cores (the replays
// are independent), into its slot.
func replayLines(rs []results.Result, tf *trace.File, traces map[string]int, def results.Definition) []checked {
	out := make([]checked, len(rs))
	pool := workers.Pool[struct{}]{Jobs: len(rs), New: func(int) (struct{}, error) { return struct{}{}, nil }}
	_ = pool.Run(context.Background(), func(_ struct{}, i int) error {
		out[i] = checkLine(&rs[i], tf, traces, def)
		return nil
	})
	return out
}

// checkLine replays r's trace (record traces[r.ID] of tf, if it has one)
// and compares r with what it derives.
func checkLine(r *results.Result, tf *trace.File, traces map[string]int, def results.Definition) checked {
	c := checked{derived: *r}
	var ep *trace.Episode
	if at, ok := traces[r.ID]; ok {
		var err error
		if ep, err = tf.Episode(at); err != nil { // it read before: the file changed under us
			c.msg = fmt.Sprintf("%s: its trace: %v", lineName(r), err)
			return c
		}
	}
	switch {
	case r.Err != "":
		if diffs := errorDiffs(r, ep != nil); len(diffs) > 0 {
			c.msg = lineName(r) + ": " + strings.Join(diffs, ", ")
		}
	case ep != nil:
		e, err := episode.Replay(ep, def.NoProgress)
		if err != nil {
			c.msg = fmt.Sprintf("%s: its trace does not replay: %v", lineName(r), err)
			break
		}
		c.steps = e.Steps()
		var diffs []string
		if c.derived, diffs = deriveLine(r, ep, e); len(diffs) > 0 {
			c.msg = lineName(r) + ": " + strings.Join(diffs, ", ")
		}
	}
	return c
}

// tally counts the lines checked, unverified and errored into v, with
// their steps and derived lines, and returns the messages of lines that
// differ from their trace or (requireTraces) lack one they need.
func (v *Verification) tally(rs []results.Result, out []checked, def results.Definition, requireTraces bool) []indexed {
	var msgs []indexed
	for i := range rs {
		switch {
		case rs[i].Err != "":
			v.Errored++
		case !v.traced[rs[i].ID]:
			v.Unverified++
			if requireTraces && needsTrace(def.Traces, &rs[i]) {
				msgs = append(msgs, indexed{rs[i].Index, lineName(&rs[i]) + ": no trace, in a run that keeps every trace (--traces all): each trace is written before its line, so this one was removed or lost since, and nothing proves the line"})
			}
		default:
			v.Checked++
		}
		v.Steps += out[i].steps
		v.derived = append(v.derived, out[i].derived)
		if out[i].msg != "" {
			msgs = append(msgs, indexed{rs[i].Index, out[i].msg})
		}
	}
	return msgs
}

// disagreeingMetrics names the lines whose metrics disagree with their
// fields: where the fields match the trace (out), metrics edited by hand
// are named too.
func disagreeingMetrics(dir string, rs []results.Result, out []checked) []indexed {
	var msgs []indexed
	disagree, err := results.DisagreeingMetrics(filepath.Join(dir, results.ResultsFile))
	for i := range rs {
		if why := disagree[rs[i].Index]; why != "" && out[i].msg == "" {
			msgs = append(msgs, indexed{rs[i].Index, lineName(&rs[i]) + ": " + why})
		}
	}
	if err != nil {
		msgs = append(msgs, indexed{-1, fmt.Sprintf("%s: %v", results.ResultsFile, err)})
	}
	return msgs
}

type indexed struct {
	index int
	msg   string
}

func lineName(r *results.Result) string { return fmt.Sprintf("episode %d (%s)", r.Index, r.ID) }

// hostEnds are the ends a host decides (episode.Episode.Stop, the
// timeout): a replay, which plays the trace's steps by the episode rule
// alone, leaves such an episode running.
var hostEnds = map[string]bool{string(task.EndTimeout): true, string(task.EndAgentError): true, string(task.EndStopped): true,
	string(task.EndBudgetTokens): true, string(task.EndBudgetCost): true}

// deriveLine is r with its trace-derived fields as the trace ep and its
// replay e say, and the fields in which r differs.
func deriveLine(r *results.Result, ep *trace.Episode, e *episode.Episode) (results.Result, []string) {
	h := &ep.Header
	d := *r
	var diffs []string
	differ := func(field string, line, traced any) {
		diffs = append(diffs, fmt.Sprintf("%s %s in %s, %s by its trace", field, show(line), results.ResultsFile, show(traced)))
	}
	if line, traced := jsonOf(r.Spec), jsonOf(*h.Task); line != traced {
		differ("spec", line, traced)
	}
	same := func(field string, line, traced any) {
		if line != traced {
			differ(field, line, traced)
		}
	}
	same("goal", r.Goal, h.Goal)
	same("observability", r.Observability, h.View)
	same("feedback", r.Feedback, h.Feedback)
	same("ruleset", r.Ruleset, e.World().Rules().Name)
	same("agent", traceAgent(r.Agent, r.Model), h.Agent)
	same("seed", r.Seed, h.Seed)
	same("salt_commitment", r.SaltCommitment, h.SaltCommitment)
	d.Goal, d.Observability, d.Feedback, d.Ruleset = h.Goal, h.View, h.Feedback, e.World().Rules().Name
	d.Seed, d.SaltCommitment = h.Seed, h.SaltCommitment
	m := e.Metrics()
	switch {
	case !e.Over() && hostEnds[r.End]:
		m.End = r.End // the host's word: the replay agrees the episode had not ended by itself
	case !e.Over():
		diffs = append(diffs, fmt.Sprintf("end %s in %s, but by its trace the episode had not ended (only timeout, agent_error, stopped, budget_tokens or budget_cost stop one early)", show(r.End), results.ResultsFile))
	}
	if r.UnlockSteps == nil {
		m.UnlockSteps = nil // a line written before lines recorded them (they feed only the report's curve, which a line without them leaves out)
	}
	line, traced := fieldsOf(r.Metrics), fieldsOf(m)
	for _, k := range slices.Sorted(maps.Keys(traced)) {
		if !reflect.DeepEqual(line[k], traced[k]) && (k != "end" || e.Over()) {
			differ(k, line[k], traced[k])
		}
	}
	d.Metrics = m
	var replies []string
	d.AgentStats, replies = deriveReplies(r, ep, e.Task())
	return d, append(diffs, replies...)
}

// errorDiffs checks the line of an episode that could not be played: it
// has no trace and claims nothing.
func errorDiffs(r *results.Result, traced bool) []string {
	var diffs []string
	if traced {
		diffs = append(diffs, fmt.Sprintf("could not be played (error %q) yet has a trace", r.Err))
	}
	line, none := fieldsOf(r.Metrics), fieldsOf(episode.Metrics{End: "error"})
	for _, k := range slices.Sorted(maps.Keys(none)) {
		if !reflect.DeepEqual(line[k], none[k]) {
			diffs = append(diffs, fmt.Sprintf("could not be played (error %q) yet claims %s %s", r.Err, k, show(line[k])))
		}
	}
	return diffs
}

// traceAgent is the agent as a trace header names it: the results line's
// agent, and an external player's model ("openai (qwen2.5-7b)").
func traceAgent(agent, model string) string {
	if model != "" {
		return agent + " (" + model + ")"
	}
	return agent
}

// fieldsOf is v's JSON fields, as results.jsonl holds them (numbers
// exactly as written).
func fieldsOf(v any) map[string]any {
	var m map[string]any
	data, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	_ = dec.Decode(&m)
	return m
}

// show prints a field's value in a message: strings quoted, the rest as
// JSON writes it.
func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	if u, ok := v.(uint64); ok {
		return strconv.FormatUint(u, 10)
	}
	return showJSON(v)
}

func jsonOf(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// unverified counts the lines of played episodes without a trace: their
// figures stand on the runner's word alone. The one count the summary,
// the table and the report show.
func unverified(rs []results.Result, traced map[string]bool) int {
	n := 0
	for i := range rs {
		if rs[i].Err == "" && !traced[rs[i].ID] {
			n++
		}
	}
	return n
}

// summarize is the summary of a run defined by def with lines rs, of
// which the ids in traced have traces: what Score and Merge write and
// Verify recomputes.
func summarize(def results.Definition, rs []results.Result, traced map[string]bool) results.Summary {
	s := results.Summarize(def.Suite, summaryAgent(def.Agent, rs), rs)
	s.Run = &def
	s.Unverified = unverified(rs, traced)
	return s
}

// checkSummary compares a run's summary.json, file, with the summary of
// the lines as their traces say.
func (v *Verification) checkSummary(file *results.Summary, def results.Definition) {
	want := summarize(def, v.derived, v.traced)
	// Whether the run was whole is the runner's record, not a figure.
	want.Partial, want.Planned = file.Partial, file.Planned
	var got, derived map[string]any
	_ = json.Unmarshal([]byte(jsonOf(file)), &got)
	_ = json.Unmarshal([]byte(jsonOf(want)), &derived)
	if file.Pooled {
		v.Summary = append(v.Summary, results.SummaryFile+": written by an older Longcraft, with one Crafter score and progression pooled over every ruleset (crafter_score, progression): this version computes them per ruleset (open_ended), so its figures are not this version's; score the run again")
		return
	}
	// So is what a partial run had yet to play (groups of no episode,
	// episodes missing): the plan's, not the lines'.
	for _, m := range []map[string]any{got, derived} {
		if gs, ok := m["groups"].([]any); ok {
			kept := []any{}
			for _, g := range gs {
				if gm, ok := g.(map[string]any); !ok || gm["episodes"] != float64(0) {
					kept = append(kept, g)
				}
			}
			m["groups"] = kept
		}
	}
	diffJSON(results.SummaryFile+": ", "", got, derived, &v.Summary)
}

// diffJSON names the paths at which a (summary.json) and b (recomputed)
// differ, up to maxSummaryDiffs.
func diffJSON(prefix, path string, a, b any, out *[]string) {
	if len(*out) > maxSummaryDiffs || reflect.DeepEqual(a, b) {
		return
	}
	if len(*out) == maxSummaryDiffs {
		*out = append(*out, prefix+"and more fields")
		return
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]any{}
		for k := range am {
			keys[k] = nil
		}
		for k := range bm {
			keys[k] = nil
		}
		delete(keys, "missing") // episodes a partial run had yet to play: the plan's
		ks := slices.Sorted(maps.Keys(keys))
		// The per-group detail last: the run's totals say more first.
		sort.SliceStable(ks, func(i, j int) bool { return ks[i] != "groups" && ks[j] == "groups" })
		for _, k := range ks {
			diffJSON(prefix, join(k), am[k], bm[k], out)
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			diffJSON(prefix, path+"["+strconv.Itoa(i)+"]", al[i], bl[i], out)
		}
		return
	}
	msg := fmt.Sprintf("%s%s %s in %s, %s from the lines as their traces say", prefix, path, showJSON(a), results.SummaryFile, showJSON(b))
	if path == "unverified" && a == nil {
		msg += " (if the run predates this count, score --resume rewrites summary.json)"
	}
	*out = append(*out, msg)
}

const maxSummaryDiffs = 50

func showJSON(v any) string {
	if v == nil {
		return "none"
	}
	data, _ := json.Marshal(v)
	if len(data) > 80 {
		return string(data[:77]) + "..."
	}
	return string(bytes.TrimSpace(data))
}
