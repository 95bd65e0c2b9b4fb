package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVerifyAndReportRefuseAnEditedLine: verify passes a run as played
// and names a hand-edited line, exiting 4; report refuses the edited run
// (before: it compared the forged figures).
func TestVerifyAndReportRefuseAnEditedLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	out, err := runCLI(t, "score", "--suite", "default", "--agent", "noop", "--out", dir, "-q")
	require.NoError(t, err, out)
	assert.NotContains(t, out, "unverified")
	out, err = runCLI(t, "verify", dir)
	require.NoError(t, err, out)
	assert.Contains(t, out, "36 results verified against their traces, 0 unverified (no trace), 0 could not be played")

	path := filepath.Join(dir, "results.jsonl")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	require.True(t, bytes.Contains(lines[2], []byte(`"success":false`)))
	lines[2] = bytes.Replace(lines[2], []byte(`"success":false`), []byte(`"success":true`), 1)
	require.NoError(t, os.WriteFile(path, bytes.Join(lines, nil), 0o644))

	out, err = runCLI(t, "verify", dir)
	require.Error(t, err)
	assert.Equal(t, 4, exitCode(err))
	assert.Contains(t, out, "): success true in results.jsonl, false by its trace")
	assert.Contains(t, out, "36 results verified against their traces")

	page := filepath.Join(t.TempDir(), "compare.html")
	_, err = runCLI(t, "report", "--out", page, dir)
	require.Error(t, err)
	assert.Equal(t, 4, exitCode(err))
	assert.Contains(t, err.Error(), "report: "+dir+" does not match its traces: episode 2 (")
	assert.NoFileExists(t, page)

	_, err = runCLI(t, "score", "--suite", "default", "--agent", "noop", "--out", dir, "--resume", "-q")
	require.Error(t, err)
	assert.Equal(t, 4, exitCode(err))
}
