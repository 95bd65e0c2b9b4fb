package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/run"
)

// TestScoreExitCodes: a run with agent_error episodes exits 3 unless
// --allow-agent-errors, and says so; an agent that cannot start exits 3
// with the cause. Before, both exited 0 with a normal-looking 0 % table
// ("errors": 0).
func TestScoreExitCodes(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 3 { // three replies, then the server fails for good
			http.Error(w, `{"error":{"message":"model unloaded"}}`, http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": `{"action": "noop"}`}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	defer srv.Close()
	dir := t.TempDir()
	failing := []string{"score", "--agent", "openai", "--model", "fake", "--base-url", srv.URL + "/v1", "--retries", "0",
		"--seeds", "1", "--tier", "easy", "--workers", "1", "-q"}

	out, err := runCLI(t, append(failing, "--out", filepath.Join(dir, "a"))...)
	require.Error(t, err, out)
	assert.Equal(t, exitAgentErrors, exitCode(err), "%v", err)
	assert.ErrorContains(t, err, "6 of 6 episodes ended agent_error")
	assert.Contains(t, out, "agent_err", "the table has the column")
	assert.Contains(t, out, "6 of 6 episodes ended agent_error")
	assert.FileExists(t, filepath.Join(dir, "a", "summary.json"), "the run is written all the same")

	calls.Store(0)
	out, err = runCLI(t, append(failing, "--out", filepath.Join(dir, "b"), "--allow-agent-errors")...)
	require.NoError(t, err, out)
	assert.Contains(t, out, "6 of 6 episodes ended agent_error", "allowed, still shown")

	_, err = runCLI(t, "score", "--agent", "exec:/nonexistent", "--seeds", "1", "-q", "--out", filepath.Join(dir, "c"))
	require.Error(t, err)
	assert.Equal(t, exitAgentErrors, exitCode(err))
	assert.ErrorContains(t, err, "could not play")
	assert.ErrorContains(t, err, "/nonexistent")

	_, err = runCLI(t, "score", "--agent", "random", "--retries", "-1", "--out", filepath.Join(dir, "d"))
	assert.ErrorContains(t, err, "--retries -1")
	assert.Equal(t, exitError, exitCode(err))
	assert.Equal(t, exitError, exitCode(errors.New("other")))
}

// TestReportAndMergeWaitForTheWriter: report and merge refuse a run
// directory a score run is writing, naming it.
func TestReportAndMergeWaitForTheWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	out, err := runCLI(t, "score", "--agent", "random", "--seeds", "1", "-q", "--out", dir)
	require.NoError(t, err, out)
	l, err := run.LockDir(dir, []string{"longcraft", "score", "--resume", "--out", dir})
	require.NoError(t, err)
	_, err = runCLI(t, "report", "--out", filepath.Join(t.TempDir(), "c.html"), dir)
	assert.ErrorContains(t, err, dir+" is in use by pid")
	assert.ErrorContains(t, err, "(longcraft score --resume --out "+dir+")")
	_, err = runCLI(t, "merge", "--out", filepath.Join(t.TempDir(), "m"), dir)
	assert.ErrorContains(t, err, dir+" is in use by pid")
	require.NoError(t, l.Unlock())
	_, err = runCLI(t, "report", "--out", filepath.Join(t.TempDir(), "c.html"), dir)
	require.NoError(t, err)
}
