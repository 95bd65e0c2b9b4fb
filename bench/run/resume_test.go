package run

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/trace"
)

// TestResumeChecksWhatItJoins: --resume continues only the run it
// began. Before, results were matched by position alone: a changed suite
// file, another embedded suite or another model was merged silently (100%
// reported where the truth was 66.7%).
func TestResumeChecksWhatItJoins(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	write := func(count int) {
		require.NoError(t, os.WriteFile(file, []byte("name: mine\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    split: eval\n    seeds: {from: 0, count: "+
			string(rune('0'+count))+"}\n"), 0o644))
	}
	write(3)
	out := filepath.Join(dir, "run")
	o := Options{Suite: file, Agent: "random", Out: out, Traces: "all", Config: Config{Workers: 1}}
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	o.Resume = true
	for name, c := range map[string]struct {
		change func(*Options)
		field  string
	}{
		"the suite file changed": {func(*Options) { write(4) }, "suite_hash"},
		"another embedded suite": {func(o *Options) { o.Suite = "default" }, "suite"},
		"another agent":          {func(o *Options) { o.Agent = "explorer" }, "agent"},
		"another model": {func(o *Options) {
			o.Agent, o.External = "openai", agent.External{Model: "other", BaseURL: "http://127.0.0.1:9/v1"}
		}, "agent"},
		"other traces kept": {func(o *Options) { o.Traces = "failures" }, "traces"},
		"a tier filter":     {func(o *Options) { o.Tiers = []string{"easy"} }, "tiers"},
		"sharded now":       {func(o *Options) { o.Shard, o.Shards = 0, 2 }, "shards"},
	} {
		t.Run(name, func(t *testing.T) {
			write(3)
			p := o
			c.change(&p)
			_, err := Score(context.Background(), p, nil)
			require.Error(t, err)
			assert.ErrorContains(t, err, "not the run it continues ("+c.field+": ")
		})
	}
	write(3)
	_, err = Score(context.Background(), o, nil)
	require.NoError(t, err, "the run itself resumes")

	// A model's settings are part of the definition too.
	a := Options{Agent: "openai", Config: Config{External: agent.External{Model: "m1", BaseURL: "http://user:secret@host:8000/v1?key=k", Temperature: 0.2}}}
	b := a
	b.External.Model = "m2"
	da, db := definition(a, planned{}, ""), definition(b, planned{}, "")
	assert.Equal(t, "model: \"m1\" here, \"m2\" there", da.Differs(db))
	assert.Equal(t, "http://host:8000", da.BaseURL, "the base URL is kept without credentials, path or query")
}

// TestResumeDropsATornLine: a line cut by a crash is dropped from the file
// (it used to stay, and the next line was appended to it, breaking the
// next resume).
func TestResumeDropsATornLine(t *testing.T) {
	whole := t.TempDir()
	_, err := Score(context.Background(), killable(whole), nil)
	require.NoError(t, err)
	dir := t.TempDir()
	o := killable(dir)
	o.Seeds = 0
	_, err = Score(context.Background(), o, nil)
	require.NoError(t, err)
	rows := filepath.Join(dir, results.ResultsFile)
	// What a crash while the eleventh line was written leaves: eleven
	// traces and ten whole lines, in the order episodes finished (the
	// trace file's), then half of the eleventh.
	rs, err := results.Read(rows)
	require.NoError(t, err)
	byID := map[string]results.Result{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	var lines bytes.Buffer
	tw, err := trace.OpenAppend(filepath.Join(dir, results.TraceFile), func(i int, ep *trace.Episode) bool {
		if i < 11 {
			line, err := json.Marshal(byID[ep.Header.Task.ID()])
			require.NoError(t, err)
			lines.Write(append(line, '\n'))
		}
		return i < 11
	})
	require.NoError(t, err)
	require.NoError(t, tw.Close())
	data := lines.Bytes()
	cut := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	require.NoError(t, os.WriteFile(rows, data[:cut+40], 0o644))
	o.Resume = true
	for range 2 {
		oc, err := Score(context.Background(), o, nil)
		require.NoError(t, err)
		assert.True(t, oc.Complete)
	}
	assert.Equal(t, string(readFile(t, filepath.Join(whole, results.ResultsFile))), string(readFile(t, rows)))
	assert.Equal(t, traceSet(t, whole), traceSet(t, dir))
}

// TestResumeReplaysALostTrace: results whose traces are missing (a run of
// an older Longcraft killed between the result and the trace, or a trace
// file lost) are played again, so every result has its trace.
func TestResumeReplaysALostTrace(t *testing.T) {
	whole := t.TempDir()
	_, err := Score(context.Background(), killable(whole), nil)
	require.NoError(t, err)
	dir := t.TempDir()
	_, err = Score(context.Background(), killable(dir), nil)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, results.TraceFile)))
	o := killable(dir)
	o.Resume = true
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, defaultEpisodes(t), oc.Replayed)
	assert.Equal(t, string(readFile(t, filepath.Join(whole, results.ResultsFile))), string(readFile(t, filepath.Join(dir, results.ResultsFile))))
	assert.Equal(t, traceSet(t, whole), traceSet(t, dir))
}

// TestMergeNeedsTheWholeShardSet: merge refuses 2 of 3 shards (it used to
// write a normal-looking summary) and an unfinished shard, and merges the
// traces too (it used to drop them, though the report links to them).
func TestMergeNeedsTheWholeShardSet(t *testing.T) {
	whole := t.TempDir()
	_, err := Score(context.Background(), killable(whole), nil)
	require.NoError(t, err)
	shards := playShards(t, 3, killable)
	_, err = Merge(t.TempDir(), shards[:2])
	assert.ErrorContains(t, err, "shard 2 of 3 missing (have 2 of 3)")
	_, err = Merge(t.TempDir(), []string{shards[0], shards[2]})
	assert.ErrorContains(t, err, "shard 1 of 3 missing")

	merged := t.TempDir()
	_, err = Merge(merged, shards)
	require.NoError(t, err)
	for _, f := range []string{results.ResultsFile, results.SummaryFile, results.ReportFile, results.DefinitionFile} {
		assert.Equal(t, string(readFile(t, filepath.Join(whole, f))), string(readFile(t, filepath.Join(merged, f))), f)
	}
	assert.Equal(t, traceSet(t, whole), traceSet(t, merged))

	// A shard of another run (another agent) and an unfinished shard.
	other := killable(t.TempDir())
	other.Agent, other.Shard, other.Shards = "noop", 1, 3
	_, err = Score(context.Background(), other, nil)
	require.NoError(t, err)
	_, err = Merge(t.TempDir(), []string{shards[0], other.Out, shards[2]})
	assert.ErrorContains(t, err, "are not shards of one run (agent: ")
	ctx, cancel := context.WithCancel(context.Background())
	unfinished := killable(t.TempDir())
	unfinished.Shard, unfinished.Shards = 1, 3
	unfinished.AfterWrite = func(what string) {
		if what == "result" {
			cancel()
		}
	}
	_, err = Score(ctx, unfinished, nil)
	require.ErrorIs(t, err, context.Canceled)
	_, err = Merge(t.TempDir(), []string{shards[0], unfinished.Out, shards[2]})
	assert.ErrorContains(t, err, "is unfinished")
}

// TestCancelStopsASlowAgent: cancelling a run (Ctrl-C) cancels the calls
// of agents in play: an exec agent that never answers is stopped, its
// episode gets no result, and the partial summary is written. Before, the
// runner played external agents under context.Background(): a slow agent
// kept the run alive until its step timeout, after every signal.
func TestCancelStopsASlowAgent(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("no subprocesses under js/wasm")
	}
	dir := t.TempDir()
	// Ready at once, then thinks for ten minutes about its first move.
	script := filepath.Join(dir, "slow.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nread -r line\necho '{\"type\":\"ready\"}'\nread -r line\nexec sleep 600\n"), 0o755))
	o := killable(filepath.Join(dir, "run"))
	o.Agent = "exec:" + script
	o.External.StepTimeout = time.Hour
	o.Workers = 1
	ctx, cancel := context.WithCancel(context.Background())
	started := time.Now()
	go func() {
		time.Sleep(300 * time.Millisecond) // the agent is thinking
		cancel()
	}()
	oc, err := Score(ctx, o, nil)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(started), time.Minute, "the run ends with its cancellation, not the agent's hour")
	assert.Zero(t, oc.Played, "the abandoned episode has no result")
	var s results.Summary
	require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(o.Out, results.SummaryFile)), &s))
	assert.True(t, s.Partial)
	assert.Equal(t, defaultEpisodes(t), s.Planned)
}

// TestFiltersThatMatchNothingAreAnError: --tier Hard or --family obtian
// used to write an empty run and exit 0.
func TestFiltersThatMatchNothingAreAnError(t *testing.T) {
	o := killable(t.TempDir())
	o.Tiers = []string{"Hard"}
	_, err := Score(context.Background(), o, nil)
	assert.ErrorContains(t, err, "--tier Hard: suite default has no such tier (it has easy, medium)")
	o.Tiers, o.Families = nil, []string{"obtian"}
	_, err = Score(context.Background(), o, nil)
	assert.ErrorContains(t, err, "--family obtian: suite default has no such family (it has ")
	assert.NoFileExists(t, filepath.Join(o.Out, results.ResultsFile))
}

// TestTimingsAreKeptApart: every played episode's wall time is in
// timings.jsonl (one line each, the last kept for one played again), and a
// merge gathers the shards'; results.jsonl holds none, so its bytes stay
// those of any other run of the definition.
func TestTimingsAreKeptApart(t *testing.T) {
	dir := t.TempDir()
	_, err := Score(context.Background(), killable(dir), nil)
	require.NoError(t, err)
	ts, err := results.ReadTimings(dir)
	require.NoError(t, err)
	require.Len(t, ts, defaultEpisodes(t))
	for i, tm := range ts {
		assert.Equal(t, i, tm.Index)
		assert.Positive(t, tm.WallMs)
		assert.Positive(t, tm.Decisions)
		assert.InDelta(t, tm.WallMs/float64(tm.Decisions), tm.PerStepMs, 1e-9)
	}
	assert.NotContains(t, string(readFile(t, filepath.Join(dir, results.ResultsFile))), "wall_ms")
	s := results.SummarizeTimings(ts)
	assert.Equal(t, len(ts), s.Episodes)
	assert.LessOrEqual(t, s.WallMedianMs, s.WallP90Ms)

	shards := playShards(t, 2, killable)
	merged := t.TempDir()
	_, err = Merge(merged, shards)
	require.NoError(t, err)
	mt, err := results.ReadTimings(merged)
	require.NoError(t, err)
	require.Len(t, mt, defaultEpisodes(t))
}

// TestSetChangesTheSuite: --set plays a changed suite, certified and
// locked in the run directory (an embedded suite's lock froze the suite
// itself), named by its overrides; resuming with other overrides is
// refused.
func TestSetChangesTheSuite(t *testing.T) {
	dir := t.TempDir()
	o := killable(dir)
	o.Traces = "none"
	for _, kv := range []string{"budget=200", "families=obtain,collect", "seeds.count=1"} {
		set, err := suite.ParseSet(kv)
		require.NoError(t, err)
		o.Set = append(o.Set, set)
	}
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, "default budget=200 families=obtain,collect seeds.count=1", oc.Summary.Suite)
	assert.FileExists(t, filepath.Join(dir, LockFile), "certified and locked in the run")
	rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
	require.NoError(t, err)
	require.Len(t, rs, 4, "obtain and collect, easy and medium, one seed")
	for _, r := range rs {
		assert.Equal(t, 200, r.Spec.Budget)
		assert.True(t, r.Certified)
	}
	o.Resume, o.Set = true, o.Set[:2]
	_, err = Score(context.Background(), o, nil)
	assert.ErrorContains(t, err, `"default budget=200 families=obtain,collect seeds.count=1", not "default budget=200 families=obtain,collect"`,
		"the kept lock is of the suite as the run began")
}

// TestSeedsKeepsEverySweptValue: --seeds N keeps the first N episodes of
// each family × tier under each swept value, not only the first value's.
func TestSeedsKeepsEverySweptValue(t *testing.T) {
	o := killable(t.TempDir())
	sw, err := suite.ParseSweep("budget=200,400")
	require.NoError(t, err)
	set, err := suite.ParseSet("families=obtain")
	require.NoError(t, err)
	o.Sweep, o.Set, o.Seeds = []suite.Sweep{sw}, []suite.Set{set}, 1
	_, specs, _, err := Plan(o)
	require.NoError(t, err)
	budgets := map[int]int{}
	for _, sp := range specs {
		budgets[sp.Budget]++
	}
	assert.Equal(t, map[int]int{200: 2, 400: 2}, budgets, "one seed of easy and of medium at each budget")
}

// TestResumeAfterATornFirstTrace: a crash while the first trace
// record is being written (a record over bufio's 4 KiB goes out in more
// than one write(2); SIGKILL between them, ENOSPC or a power cut leave
// part of it) leaves the magic and part of a record, and no result. The
// resume must play the run; it fails on Open's "no whole episode record"
// and never recovers without the user deleting the file.
func TestResumeAfterATornFirstTrace(t *testing.T) {
	dir := t.TempDir()
	_, err := Score(context.Background(), killable(dir), nil)
	require.NoError(t, err)
	path := filepath.Join(dir, results.TraceFile)
	tf, err := trace.Open(path)
	require.NoError(t, err)
	first := tf.Index[0]
	tf.Close()
	// The crash state: no result on disk, the first record half written.
	require.NoError(t, os.Truncate(path, first.Offset+int64(first.Length)/2))
	require.NoError(t, os.WriteFile(filepath.Join(dir, results.ResultsFile), nil, 0o644))
	o := killable(dir)
	o.Resume = true
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err, "resume after a torn first trace record")
	assert.True(t, oc.Complete)
}

// TestResumeRerollsOnlyFailures: with --traces failures only failed
// episodes have traces, so a resume after the trace file is lost (or
// deleted: nothing stops it) plays again exactly the failed episodes and
// replaces their recorded results, keeping every success. For a stochastic
// agent (any LLM at temperature > 0) that is a free re-roll of failures:
// repeat and the success rate only goes up, and summary.json does not say
// it happened. Here the agent changes between the runs (noop, then
// move_left): every failure's result is rewritten, no success is touched.
func TestResumeRerollsOnlyFailures(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "agent.sh")
	require.NoError(t, os.WriteFile(script, []byte(flakyAgent), 0o755))
	o := Options{Suite: "default", Agent: "exec:" + script, Out: filepath.Join(dir, "run"), Traces: "failures",
		Tiers: []string{"easy"}, Config: Config{Certify: true, Workers: 2}}
	first, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	before, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "marker"), nil, 0o644))
	require.NoError(t, os.Remove(filepath.Join(o.Out, results.TraceFile)))
	o.Resume = true
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	after, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	changed := 0
	for i := range before {
		if before[i].ValidActionRatio != after[i].ValidActionRatio {
			changed++
		}
	}
	t.Logf("first run: %d episodes, %d successes; resume replayed %d; %d recorded results changed",
		len(before), first.Summary.Overall.Successes, oc.Replayed, changed)
	assert.Zero(t, changed, "a resume must not replace results already recorded")
}

// flakyAgent plays noop, or move_left once a marker file sits beside it.
const flakyAgent = `#!/bin/sh
act=noop
[ -e "$(dirname "$0")/marker" ] && act=move_left
while read -r line; do
  case "$line" in
    *'"reset"'*) echo '{"type":"ready"}' ;;
    *) echo "{\"action\":\"$act\"}" ;;
  esac
done
`

// TestDuplicateEpisodesInASuite: a suite may list one episode twice
// (a family twice in a block, or two blocks over the same seeds): the
// suite accepts it and both are played, each with a result and a trace.
// Resume, merge and the comparison key traces and pairs by task id, so a
// resume that plays nothing drops one of the two traces (OpenAppend's
// keep takes one per id) and keeps both results: an uninterrupted and a
// resumed run no longer have the same traces. Suites should refuse
// duplicate episodes (or everything should key by suite position).
func TestDuplicateEpisodesInASuite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dup.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: dup\nepisodes:\n  - families: [obtain, obtain]\n    tiers: [easy]\n    split: eval\n    seeds: {from: 0, count: 2}\n"), 0o644))
	o := Options{Suite: path, Agent: "random", Out: filepath.Join(dir, "run"), Traces: "all", Config: Config{Workers: 1}}
	_, err := Score(context.Background(), o, nil)
	if err != nil {
		t.Logf("refused: %v", err)
		return
	}
	count := func() int {
		tf, err := trace.Open(filepath.Join(o.Out, results.TraceFile))
		require.NoError(t, err)
		defer tf.Close()
		return len(tf.Index)
	}
	before := count()
	o.Resume = true
	_, err = Score(context.Background(), o, nil)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	t.Logf("%d results; traces: %d before the resume, %d after", len(rs), before, count())
	assert.Equal(t, before, count(), "a resume that plays nothing keeps every trace")
}
