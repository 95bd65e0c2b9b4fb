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

// TestMergeRefusesALostTraceFile: with --traces all every result has
// a trace; a shard whose trace file is gone (lost, not copied back from
// the cluster) must be refused, or the merged run is not the unsharded
// one. Merge skips the missing file silently and writes a run with a
// third of its traces missing.
func TestMergeRefusesALostTraceFile(t *testing.T) {
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

// TestMergeIntoAShard: `longcraft merge --out shard0 shard0 shard1
// shard2` (easy to type in a job script) merges into a directory it reads
// from: trace.Create truncates shard 0's trace file while its episodes are
// still to be copied, and shard 0's invocations.jsonl is removed before it
// is read. Merge should refuse an --out that is one of the shards.
func TestMergeIntoAShard(t *testing.T) {
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
