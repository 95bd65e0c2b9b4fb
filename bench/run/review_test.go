// Tests written by an adversarial review of the crash-safety, resume,
// merge, trace-limit and comparison code. Each failed on the code as it
// was reviewed; their comments describe the bug as it was found. They
// stay as regression tests.

package run

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/trace"
)

// TestReviewMergeRefusesALostTraceFile: with --traces all every result has
// a trace; a shard whose trace file is gone (lost, not copied back from
// the cluster) must be refused, or the merged run is not the unsharded
// one. Merge skips the missing file silently and writes a run with a
// third of its traces missing.
func TestReviewMergeRefusesALostTraceFile(t *testing.T) {
	shards := playShards(t, 3, killable)
	require.NoError(t, os.Remove(filepath.Join(shards[1], results.TraceFile)))
	merged := t.TempDir()
	s, err := Merge(merged, shards)
	if err == nil {
		tf, oerr := trace.Open(filepath.Join(merged, results.TraceFile))
		require.NoError(t, oerr)
		defer tf.Close()
		t.Errorf("merge accepted a shard set missing a trace file: %d results, %d traces (traces=all)", s.Episodes, len(tf.Index))
	}
}

// TestReviewResumeAfterATornFirstTrace: a crash while the first trace
// record is being written (a record over bufio's 4 KiB goes out in more
// than one write(2); SIGKILL between them, ENOSPC or a power cut leave
// part of it) leaves the magic and part of a record, and no result. The
// resume must play the run; it fails on Open's "no whole episode record"
// and never recovers without the user deleting the file.
func TestReviewResumeAfterATornFirstTrace(t *testing.T) {
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

// TestReviewResumeRerollsOnlyFailures: with --traces failures only failed
// episodes have traces, so a resume after the trace file is lost (or
// deleted: nothing stops it) plays again exactly the failed episodes and
// replaces their recorded results, keeping every success. For a stochastic
// agent (any LLM at temperature > 0) that is a free re-roll of failures:
// repeat and the success rate only goes up, and summary.json does not say
// it happened. Here the agent changes between the runs (noop, then
// move_left): every failure's result is rewritten, no success is touched.
func TestReviewResumeRerollsOnlyFailures(t *testing.T) {
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

// TestReviewMergeIntoAShard: `longcraft merge --out shard0 shard0 shard1
// shard2` (easy to type in a job script) merges into a directory it reads
// from: trace.Create truncates shard 0's trace file while its episodes are
// still to be copied, and shard 0's invocations.jsonl is removed before it
// is read. Merge should refuse an --out that is one of the shards.
func TestReviewMergeIntoAShard(t *testing.T) {
	whole := t.TempDir()
	_, err := Score(context.Background(), killable(whole), nil)
	require.NoError(t, err)
	shards := playShards(t, 3, killable)
	own := traceSet(t, shards[0])
	_, err = Merge(shards[0], shards)
	t.Logf("merge: %v", err)
	tf, oerr := trace.Open(filepath.Join(shards[0], results.TraceFile))
	if !assert.NoError(t, oerr, "shard 0's trace file after the merge") {
		return
	}
	tf.Close()
	if err != nil { // refused: shard 0 must be as it was
		assert.Len(t, traceSet(t, shards[0]), len(own), "a refused merge must leave shard 0's traces (and run.json, invocations) as they were")
		return
	}
	assert.Equal(t, traceSet(t, whole), traceSet(t, shards[0]), "merged into shard 0: its traces")
}

// TestReviewDuplicateEpisodesInASuite: a suite may list one episode twice
// (a family twice in a block, or two blocks over the same seeds): the
// suite accepts it and both are played, each with a result and a trace.
// Resume, merge and the comparison key traces and pairs by task id, so a
// resume that plays nothing drops one of the two traces (OpenAppend's
// keep takes one per id) and keeps both results: an uninterrupted and a
// resumed run no longer have the same traces. Suites should refuse
// duplicate episodes (or everything should key by suite position).
func TestReviewDuplicateEpisodesInASuite(t *testing.T) {
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

// TestReviewCostWithoutUsage: an exec agent reports no tokens (the
// protocol has no usage), yet with --price-in/--price-out its episodes get
// cost_usd = 0 as a measured value, and the summary a measured cost per
// success of $0: the cost chart puts it at the origin. An OpenAI-compatible
// server that omits "usage" does the same. Cost should be not measured
// when no usage was reported.
func TestReviewCostWithoutUsage(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "agent.sh")
	require.NoError(t, os.WriteFile(script, []byte(flakyAgent), 0o755))
	o := Options{Suite: "default", Agent: "exec:" + script, Out: filepath.Join(dir, "run"), Traces: "none",
		Tiers: []string{"easy"}, Families: []string{"survive"}, Seeds: 1, Config: Config{Certify: true, Workers: 1, PriceIn: 3, PriceOut: 15}}
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	t.Logf("tokens %d, cost %+v; group cost %+v per success %+v", rs[0].Tokens, rs[0].Cost, oc.Summary.Overall.Cost, oc.Summary.Overall.CostPerSuccess)
	assert.False(t, rs[0].Tokens == 0 && rs[0].Cost.OK, "no usage reported, yet a measured cost of $%v", rs[0].Cost.Value)
}
