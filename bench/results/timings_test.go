package results

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A crash inside a timings.jsonl write leaves a torn last line; the
// resumed Score opens the file O_APPEND and writes after it, so the torn
// line is no longer last. ReadTimings stops at the first line it cannot
// decode: every timing of the resumed play is dropped, silently, and the
// medians score and compare print cover only the episodes before the crash.
func TestTimingsAfterATornLineAreKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, TimingsFile)
	before := `{"index":0,"id":"ep-a","wall_ms":1,"decisions":1,"ms_per_decision":1}` + "\n" +
		`{"index":1,"id":"ep-b","wal` // torn
	require.NoError(t, os.WriteFile(path, []byte(before), 0o644))
	// What Score does on resume: append.
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString(`{"index":1,"id":"ep-b","wall_ms":2,"decisions":1,"ms_per_decision":2}` + "\n" +
		`{"index":2,"id":"ep-c","wall_ms":3,"decisions":1,"ms_per_decision":3}` + "\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	ts, err := ReadTimings(dir)
	require.NoError(t, err)
	var idx []int
	for _, x := range ts {
		idx = append(idx, x.Index)
	}
	require.Contains(t, idx, 2, "the resumed play's timings are lost after a torn line: %v", idx)
}
