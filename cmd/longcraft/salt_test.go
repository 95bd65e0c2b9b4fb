package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaltCommand scores a small run on held-out seeds from the command
// line, with a random salt kept in the run directory, and checks it with
// `salt check` and `replay`; bad salt flags are refused with what a salt
// may be.
func TestSaltCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"score", "--suite", "default", "--agent", "random", "--family", "obtain", "--tier", "easy", "--out", out, "-q"}
	got, err := runCLI(t, append(args, "--salt", "random")...)
	require.NoError(t, err, got)
	secret := filepath.Join(out, "salt.secret")
	assert.Contains(t, got, "a random salt, kept in "+secret)
	assert.Contains(t, got, "held-out seeds (salt commitment ")
	st, err := os.Stat(secret)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	got, err = runCLI(t, "salt", "check", "--salt-file", secret, out)
	require.NoError(t, err, got)
	assert.Contains(t, got, "3 results re-derived from the salt")
	_, err = runCLI(t, "salt", "check", "--salt", "a guess", out)
	assert.ErrorContains(t, err, "salt commitment differs")
	got, err = runCLI(t, "replay", filepath.Join(out, "episodes.lctrace"))
	require.NoError(t, err, got)
	assert.Contains(t, got, "3 episodes on held-out seeds (salt commitment ")

	got, err = runCLI(t, append(args, "--resume", "--salt-file", secret)...)
	require.NoError(t, err, got)
	_, err = runCLI(t, append(args, "--resume")...)
	assert.ErrorContains(t, err, "salt commitment differs")

	inv, err := os.ReadFile(filepath.Join(out, "invocations.jsonl"))
	require.NoError(t, err)
	salt, err := os.ReadFile(secret)
	require.NoError(t, err)
	assert.NotContains(t, string(inv), strings.TrimSpace(string(salt)))

	for _, bad := range [][]string{{"--salt", ""}, {"--salt", "a", "--salt-file", secret}, {"--salt-file", filepath.Join(t.TempDir(), "none")}} {
		other := filepath.Join(t.TempDir(), "x")
		_, err := runCLI(t, append([]string{"score", "--suite", "default", "--agent", "noop", "--out", other, "-q"}, bad...)...)
		assert.Error(t, err, "%v", bad)
	}
	_, err = runCLI(t, "score", "--suite", "default", "--agent", "noop", "--out", filepath.Join(t.TempDir(), "y"), "-q", "--salt", "")
	assert.ErrorContains(t, err, "a salt is a string of 16 to 4096 bytes")
}

// TestDemoRefusesHeldOutTraces: `longcraft demo --traces DIR` will not
// serve a held-out run's traces (its worlds and winning plays, which an
// agent on the same host could fetch while others are scored on the same
// salt) unless --held-out says the salt is revealed.
func TestDemoRefusesHeldOutTraces(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	got, err := runCLI(t, "score", "--suite", "default", "--agent", "noop", "--family", "obtain", "--tier", "easy", "--out", out, "-q", "--salt", "random")
	require.NoError(t, err, got)
	_, err = runCLI(t, "demo", "--traces", out, "--addr", "127.0.0.1:0")
	assert.ErrorContains(t, err, "held-out seeds")
	assert.NoError(t, refuseHeldOut(out, true), "--held-out serves them")
	assert.NoError(t, refuseHeldOut(t.TempDir(), false), "a directory that is no run")
}
