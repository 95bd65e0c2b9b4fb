package run

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/trace"
)

// dropTraces rewrites dir's trace file without the records of the ids in
// drop, and returns the ids that keep one.
func dropTraces(t *testing.T, dir string, drop map[string]bool) map[string]bool {
	t.Helper()
	path := filepath.Join(dir, results.TraceFile)
	tf, err := trace.Open(path)
	require.NoError(t, err)
	var keep []*trace.Episode
	kept := map[string]bool{}
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		require.NoError(t, err)
		if id := ep.Header.EpisodeID(); !drop[id] {
			keep = append(keep, ep)
			kept[id] = true
		}
	}
	require.NoError(t, tf.Close())
	w, err := trace.Create(path)
	require.NoError(t, err)
	for _, ep := range keep {
		require.NoError(t, w.Append(ep))
	}
	require.NoError(t, w.Close())
	return kept
}

// TestVerifyRefusesLinesWhoseTracesWereDropped: in a --traces all run
// every line's trace is written before the line, so a line without one
// was not left by the runner. A forger with write access to the run
// directory flips noop's failures to successes and deletes their trace
// records (rewriting summary.json as Score would from those lines):
// verify must not accept the run. Before, it did: every forged line was
// merely counted "unverified", verify said OK, and the summary (and the
// report's and comparison page's figures built on it) gave noop 36 of 36.
// (The forged lines drop their metrics object, which would otherwise
// disagree with the edited fields, as a line of the older format.)
func TestVerifyRefusesLinesWhoseTracesWereDropped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := killable(dir)
	o.Agent = "noop"
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	forged := map[string]bool{}
	editLines(t, dir, func(_ int, m map[string]any) bool {
		if m["success"] == false {
			forged[m["id"].(string)] = true
			m["success"], m["end"] = true, "goal"
			delete(m, "metrics") // a line of the format before it held its metrics: not checked against them
		}
		return true
	})
	require.NotEmpty(t, forged)
	traced := dropTraces(t, dir, forged)
	def, err := results.ReadDefinition(dir)
	require.NoError(t, err)
	require.Equal(t, "all", def.Traces)
	rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
	require.NoError(t, err)
	forgedSummary := summarize(def, rs, traced)
	require.NoError(t, results.WriteSummary(filepath.Join(dir, results.SummaryFile), forgedSummary))

	v, err := Verify(dir)
	require.NoError(t, err)
	require.False(t, v.OK(), "verify accepted %d lines without a trace in a --traces all run (%d unverified): the summary gives noop %d of %d",
		len(forged), v.Unverified, forgedSummary.Overall.Successes, forgedSummary.Episodes)
	assert.Contains(t, v.Problems()[0], "no trace")
}
