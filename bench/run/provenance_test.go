package run

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
)

// TestProvenanceSurvivesANewerBinary: each results line and trace header
// names the build that played it (builds injected here: go test stamps
// no revision), the summary lists every build its lines name, and a run
// resumed by a newer binary verifies, including when the newer binary
// plays episodes again to rebuild their lost traces (the recorded result
// stands; the new traces name the build that recorded them).
func TestProvenanceSurvivesANewerBinary(t *testing.T) {
	older := buildinfo.Build{Version: "v0.1.0", Revision: "1111111111111111111111111111111111111111", Time: "2026-11-01T00:00:00Z"}
	newer := buildinfo.Build{Version: "v0.2.0-dirty", Revision: "2222222222222222222222222222222222222222", Modified: true}
	newest := buildinfo.Build{Version: "v0.3.0", Revision: "3333333333333333333333333333333333333333"}
	dir := t.TempDir()
	file := filepath.Join(dir, "four.yaml")
	require.NoError(t, os.WriteFile(file, []byte("name: four\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    split: eval\n    seeds: {from: 0, count: 4}\n"), 0o644))
	out := filepath.Join(dir, "run")
	o := Options{Suite: file, Agent: "random", Out: out, Traces: "all", Config: Config{Workers: 1, Build: older}}
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)

	// The older binary's run was killed as it wrote its last line: the
	// newer one plays that episode again.
	rows := filepath.Join(out, results.ResultsFile)
	lines := bytes.SplitAfter(readFile(t, rows), []byte("\n"))
	require.NoError(t, os.WriteFile(rows, bytes.Join(lines[:3], nil), 0o644))
	o.Resume, o.Build = true, newer
	_, err = Score(context.Background(), o, nil)
	require.NoError(t, err)
	rs, err := results.Read(rows)
	require.NoError(t, err)
	require.Len(t, rs, 4)
	for i, r := range rs {
		want := older
		if i >= 3 {
			want = newer
		}
		assert.Equal(t, want, r.Build, "line %d", i)
	}
	headers := func() map[string]buildinfo.Build {
		tf, err := trace.Open(filepath.Join(out, results.TraceFile))
		require.NoError(t, err)
		defer tf.Close()
		out := map[string]buildinfo.Build{}
		for i := range tf.Index {
			ep, err := tf.Episode(i)
			require.NoError(t, err)
			out[ep.Header.EpisodeID()] = ep.Header.Build
		}
		return out
	}
	for _, r := range rs {
		assert.Equal(t, r.Build, headers()[r.ID], "%s: the trace names the build that played it", r.ID)
	}
	s, err := readSummary(out)
	require.NoError(t, err)
	assert.Equal(t, []buildinfo.Build{older, newer}, s.Builds)
	v, err := Verify(out)
	require.NoError(t, err)
	assert.True(t, v.OK(), "%v", v.Problems())

	// Traces lost, rebuilt by the newest binary.
	require.NoError(t, os.Remove(filepath.Join(out, results.TraceFile)))
	o.Build = newest
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, 4, oc.Replayed)
	again, err := results.Read(rows)
	require.NoError(t, err)
	assert.Equal(t, rs, again, "the recorded results stand, with the builds that played them")
	for id, b := range headers() {
		assert.Equal(t, newest, b, "%s: the rebuilt trace names the build that recorded it", id)
	}
	v, err = Verify(out)
	require.NoError(t, err)
	assert.True(t, v.OK(), "%v", v.Problems())
}
