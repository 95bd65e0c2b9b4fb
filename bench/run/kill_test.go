package run

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/trace"
)

// killable is the run the kill tests crash: the default suite's episodes
// with the random agent, every trace kept.
func killable(out string) Options {
	return Options{Suite: "default", Agent: "random", Out: out, Traces: "all", Config: Config{Certify: true, Workers: 2}}
}

// traceSet returns a run's traces by task, each encoded with its
// wall-clock start cleared (the one field a replayed episode changes).
func traceSet(t *testing.T, dir string) map[string]string {
	t.Helper()
	tf, err := trace.Open(filepath.Join(dir, results.TraceFile))
	require.NoError(t, err)
	defer tf.Close()
	require.True(t, tf.Indexed, "the run closed its trace")
	set := map[string]string{}
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		require.NoError(t, err)
		ep.Header.StartUnixMs = 0
		b, err := trace.MarshalEpisode(ep)
		require.NoError(t, err)
		id := ep.Header.Task.ID()
		_, dup := set[id]
		require.False(t, dup, "%s: two traces of %s", dir, id)
		set[id] = string(b)
	}
	return set
}

// killAfter is the AfterWrite of a run to kill: it SIGKILLs the process
// after the n-th write of kind point.
func killAfter(point string, n int) func(what string) {
	seen := 0
	return func(what string) {
		if what == point {
			if seen++; seen == n {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // the signal is on its way
			}
		}
	}
}

// requireKilled runs cmd, a child run with killAfter set at at, and
// requires that it died of the SIGKILL.
func requireKilled(t *testing.T, cmd *exec.Cmd, at string) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s: %s", at, out)
	ws, ok := exit.Sys().(syscall.WaitStatus)
	require.True(t, ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL, "the child was killed at %s: %s", at, out)
}

// assertSameRun checks that the run in dir ended as the uninterrupted run
// in whole: the same results, summary, report and run.json, and the trace
// set want (whole's).
func assertSameRun(t *testing.T, whole, dir string, want map[string]string) {
	t.Helper()
	for _, f := range []string{results.ResultsFile, results.SummaryFile, results.ReportFile, results.DefinitionFile} {
		assert.Equal(t, string(readFile(t, filepath.Join(whole, f))), string(readFile(t, filepath.Join(dir, f))), f)
	}
	assert.Equal(t, want, traceSet(t, dir), "the traces")
}

// TestKillAtEveryWrite kills `score` with SIGKILL right after each kind of
// write it makes (a child process: this test binary re-executed, killing
// itself from Options.AfterWrite), resumes the run, and checks that it
// ends with the results, summary, report, definition and traces of an
// uninterrupted run. Before traces were written ahead of results, a kill
// between the two lost the episode's trace for good.
func TestKillAtEveryWrite(t *testing.T) {
	if dir := os.Getenv("LONGCRAFT_KILL_CHILD"); dir != "" {
		point, nth, _ := strings.Cut(os.Getenv("LONGCRAFT_KILL_AT"), ":")
		n, _ := strconv.Atoi(nth)
		o := killable(dir)
		o.Resume = os.Getenv("LONGCRAFT_KILL_RESUME") == "1"
		o.AfterWrite = killAfter(point, n)
		_, err := Score(context.Background(), o, nil)
		fmt.Fprintln(os.Stderr, "child ended without being killed:", err)
		os.Exit(3)
	}
	t.Parallel()
	whole := t.TempDir()
	_, err := Score(context.Background(), killable(whole), nil)
	require.NoError(t, err)
	want := traceSet(t, whole)

	kill := func(t *testing.T, dir, at string, resume bool) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run", "^TestKillAtEveryWrite$")
		cmd.Env = append(os.Environ(), "LONGCRAFT_KILL_CHILD="+dir, "LONGCRAFT_KILL_AT="+at)
		if resume {
			cmd.Env = append(cmd.Env, "LONGCRAFT_KILL_RESUME=1")
		}
		requireKilled(t, cmd, at)
	}
	// A kill at each write point; then two kills in a row, the second
	// during the resume of the first.
	cases := [][]string{
		{"lock:1"}, {"definition:1"}, {"record:1"}, {"record:7"}, {"result:1"}, {"result:7"},
		{"index:1"}, {"footer:1"}, {"results:1"}, {"summary:1"}, {"report:1"},
		{"result:5", "record:3"}, {"record:5", "result:2"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c, "+"), func(t *testing.T) {
			dir := t.TempDir()
			for i, at := range c {
				kill(t, dir, at, i > 0)
			}
			o := killable(dir)
			o.Resume = true
			oc, err := Score(context.Background(), o, nil)
			require.NoError(t, err)
			require.True(t, oc.Complete)
			assertSameRun(t, whole, dir, want)
			v, err := Verify(dir)
			require.NoError(t, err)
			assert.True(t, v.OK(), "the resumed run matches its traces: %v", v.Problems())
			t.Logf("killed at %v: resumed %d, replayed %d for a lost trace, played %d", c, oc.Skipped, oc.Replayed, oc.Played)
		})
	}
}
