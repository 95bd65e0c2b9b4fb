package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run executes the CLI with args and returns its standard output.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestFidelity(t *testing.T) {
	// 2,000 episodes: enough for every statistic to sit within ±10% here
	// (the full check is bench/fidelity's TestFidelity).
	out, err := runCLI(t, "fidelity", "--episodes", "2000", "-q")
	require.NoError(t, err, out)
	assert.Contains(t, out, "ruleset classic v2, 2000 uniformly random episodes (seeds 0..1999)")
	assert.Contains(t, out, "skeletons in view")
	assert.NotContains(t, out, "NO")
	// A tolerance no run can meet makes it fail, naming the statistics.
	_, err = runCLI(t, "fidelity", "--episodes", "50", "--tolerance", "0.001", "-q")
	assert.ErrorContains(t, err, "outside ±0% of Crafter's")
	// 20 episodes are too few for ±10%: the JSON run allows anything.
	out, err = runCLI(t, "fidelity", "--episodes", "20", "--json", "--tolerance", "100000", "-q")
	require.NoError(t, err)
	assert.Contains(t, out, `"key": "zombies_in_view"`)
	_, err = runCLI(t, "fidelity", "--episodes", "20", "--rules", "extended", "-q")
	assert.NoError(t, err, "other rulesets are reported, not checked")
	for _, bad := range [][]string{{"--episodes", "0"}, {"--tolerance", "-1"}, {"--rules", "nope"}, {"--workers", "-2"}} {
		_, err = runCLI(t, append([]string{"fidelity"}, bad...)...)
		assert.Error(t, err, "%v", bad)
	}
}

func TestSimulate(t *testing.T) {
	out, err := runCLI(t, "simulate", "--worlds", "6", "--max-steps", "300", "-q")
	require.NoError(t, err)
	assert.Contains(t, out, "episodes   6")
	assert.Contains(t, out, "Crafter score")
	assert.Contains(t, out, "collect_wood")
	// The summary does not depend on the number of workers (timing aside).
	strip := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "time") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	one, err := runCLI(t, "simulate", "--worlds", "6", "--max-steps", "300", "-q", "--workers", "1")
	require.NoError(t, err)
	assert.Equal(t, strip(out), strip(one))
}

func TestSimulateRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"simulate", "--worlds", "0"},
		{"simulate", "--max-steps", "-1"},
		{"simulate", "--width", "2"},
		{"simulate", "extra"},
	} {
		_, err := runCLI(t, args...)
		assert.Error(t, err, "%v", args)
	}
}

func TestMap(t *testing.T) {
	out, err := runCLI(t, "map", "--seed", "3", "--describe")
	require.NoError(t, err)
	lines := strings.Split(out, "\n")
	require.Greater(t, len(lines), 64)
	assert.Len(t, lines[0], 64)
	assert.Contains(t, out, "@")
	assert.Contains(t, out, "Health 9/9")
}

func TestRender(t *testing.T) {
	dir := t.TempDir()
	out, err := runCLI(t, "render", "--seed", "2", "--steps", "5", "--size", "64", "--out", dir, "--overlay")
	require.NoError(t, err)
	assert.Contains(t, out, "6 PNG frames")
	for _, name := range []string{"frame_00000.png", "frame_00005.png", "episode.gif", "map.png"} {
		assert.FileExists(t, filepath.Join(dir, name))
	}
	_, err = runCLI(t, "render", "--png=false", "--gif=false", "--map-scale", "0", "--out", dir)
	assert.Error(t, err, "nothing to write")
	_, err = runCLI(t, "render", "--size", "4")
	assert.Error(t, err)
}

func TestDataset(t *testing.T) {
	dir := t.TempDir()
	out, err := runCLI(t, "dataset", "--episodes", "2", "--max-steps", "10", "--out", dir, "-q")
	require.NoError(t, err)
	assert.Contains(t, out, "2 episodes, 22 frames of 64×64")
	for _, name := range []string{"frames.npy", "actions.npy", "steps.jsonl"} {
		assert.FileExists(t, filepath.Join(dir, name))
	}
	_, err = runCLI(t, "dataset", "--episodes", "0")
	assert.Error(t, err)
	_, err = runCLI(t, "dataset", "--policy", "nope")
	assert.ErrorContains(t, err, "unknown agent")
}

func TestTraceCommands(t *testing.T) {
	golden := filepath.Join("..", "..", "bench", "trace", "testdata", "golden.lctrace")
	// The commands' figures come from the file itself, so regenerating
	// the golden trace (go test ./bench/trace -rewrite) touches no test here.
	tf, err := trace.Open(golden)
	require.NoError(t, err)
	first, err := tf.Episode(0)
	require.NoError(t, err)
	second, err := tf.Episode(1)
	require.NoError(t, err)
	tf.Close()
	task := first.Header.Task
	out, err := runCLI(t, "trace", "inspect", golden)
	require.NoError(t, err)
	assert.Contains(t, out, "2 episodes")
	assert.Contains(t, out, fmt.Sprintf("%s/%s/%s#%d", task.Family, task.Tier, task.Split, task.Index))
	out, err = runCLI(t, "trace", "inspect", golden, "--json")
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf(`"steps":%d`, len(first.Actions)))
	out, err = runCLI(t, "replay", golden)
	require.NoError(t, err)
	assert.Contains(t, out, "0 diverged")
	dir := t.TempDir()
	out, err = runCLI(t, "render", "--trace", golden, "--episode", "1", "--size", "64", "--out", dir, "--png=false")
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf("%d steps played", len(second.Actions)))
	_, err = runCLI(t, "render", "--trace", golden, "--episode", "5")
	assert.ErrorContains(t, err, "--episode 5")
	_, err = runCLI(t, "replay", filepath.Join(dir, "missing.lctrace"))
	assert.Error(t, err)
}

func TestReplayRefusesOlderRules(t *testing.T) {
	// golden_v1.lctrace is the golden trace as recorded under classic v1
	// and extended v1, before creatures matched Crafter exactly (v2).
	old := filepath.Join("..", "..", "bench", "trace", "testdata", "golden_v1.lctrace")
	out, err := runCLI(t, "replay", old)
	require.Error(t, err)
	assert.ErrorContains(t, err, "2 of 2 episodes refused")
	assert.Contains(t, out, fmt.Sprintf("recorded with rules classic v1, this build has classic v%d", sim.Classic().Version))
	assert.Contains(t, out, fmt.Sprintf("recorded with rules extended+variants v1, this build has extended+variants v%d", sim.Extended().Version))
	assert.Contains(t, out, "0 diverged, 2 refused")
}

// TestSignalsStopTheCommand: the first Ctrl-C cancels and waits for the
// command; a second one, or SIGTERM, ends the process after the grace
// period if the command has not returned. Before, the second Ctrl-C was
// swallowed and a slow agent kept the run alive 50 s after three signals.
func TestSignalsStopTheCommand(t *testing.T) {
	run := func(signals []os.Signal, finishes bool) (cancelled, exited bool) {
		sigs := make(chan os.Signal, len(signals))
		for _, s := range signals {
			sigs <- s
		}
		finished := make(chan struct{})
		var log bytes.Buffer
		done := make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			stopOnSignals(sigs, cancel, finished, &log, 10*time.Millisecond, func() { exited = true })
			close(done)
		}()
		if finishes {
			<-ctx.Done() // the command sees the cancellation and returns
			close(finished)
		}
		<-done
		return ctx.Err() != nil, exited
	}
	c, e := run([]os.Signal{os.Interrupt}, true)
	assert.True(t, c)
	assert.False(t, e, "one Ctrl-C: the command returns by itself")
	c, e = run([]os.Signal{os.Interrupt, os.Interrupt}, false)
	assert.True(t, c)
	assert.True(t, e, "a second Ctrl-C ends a command that does not return")
	c, e = run([]os.Signal{syscall.SIGTERM}, false)
	assert.True(t, c)
	assert.True(t, e, "SIGTERM ends a command that does not return")
}
