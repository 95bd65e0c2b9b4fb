package run

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The long tests of this package (a scoring run or more each, 6 to 27 s
// under the race detector) call t.Parallel, so that the race run's longest
// package uses both cores once the other packages are done. Tests that
// set the environment (t.Setenv) cannot, and run before them.

// small is a quick slice of the default suite.
func small(out string) Options {
	return Options{Suite: "default", Agent: "explorer", Out: out, Traces: "failures",
		Config: Config{Certify: true, Workers: 2}}
}

// defaultEpisodes is the embedded default suite's size.
func defaultEpisodes(t *testing.T) int {
	t.Helper()
	s, err := suite.Load("default")
	require.NoError(t, err)
	return int(s.Len())
}

// playShards plays the run opts makes as n shards, each in a directory of
// its own, and returns the directories in shard order.
func playShards(t *testing.T, n int, opts func(out string) Options) []string {
	t.Helper()
	var shards []string
	for i := range n {
		o := opts(t.TempDir())
		o.Shard, o.Shards = i, n
		_, err := Score(context.Background(), o, nil)
		require.NoError(t, err)
		shards = append(shards, o.Out)
	}
	return shards
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

func TestScoreIsIndependentOfWorkers(t *testing.T) {
	t.Parallel()
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, workers := range []int{1, 3} {
		o := small(dirs[i])
		o.Workers = workers
		oc, err := Score(context.Background(), o, nil)
		require.NoError(t, err)
		require.True(t, oc.Complete)
		assert.Equal(t, defaultEpisodes(t), oc.Summary.Episodes)
	}
	for _, f := range []string{results.ResultsFile, results.SummaryFile, results.ReportFile} {
		assert.Equal(t, readFile(t, filepath.Join(dirs[0], f)), readFile(t, filepath.Join(dirs[1], f)), f)
	}
}

func TestShardsMergeToTheSameRun(t *testing.T) {
	t.Parallel()
	whole := t.TempDir()
	_, err := Score(context.Background(), small(whole), nil)
	require.NoError(t, err)
	shards := playShards(t, 3, small)
	merged := t.TempDir()
	_, err = Merge(merged, shards)
	require.NoError(t, err)
	for _, f := range []string{results.ResultsFile, results.SummaryFile, results.ReportFile} {
		assert.Equal(t, readFile(t, filepath.Join(whole, f)), readFile(t, filepath.Join(merged, f)), f)
	}
	_, err = Merge(t.TempDir(), []string{shards[0], shards[0]})
	assert.ErrorContains(t, err, "shard 0 of 3 given twice")
	// A shard played from another lock: not the same tasks.
	other := t.TempDir()
	rs, err := results.Read(filepath.Join(shards[2], results.ResultsFile))
	require.NoError(t, err)
	for i := range rs {
		rs[i].Lock = "0123456789abcdef"
	}
	require.NoError(t, results.WriteSorted(filepath.Join(other, results.ResultsFile), rs))
	for _, f := range []string{results.SummaryFile, results.DefinitionFile} {
		require.NoError(t, os.WriteFile(filepath.Join(other, f), readFile(t, filepath.Join(shards[2], f)), 0o644))
	}
	_, err = Merge(t.TempDir(), []string{shards[0], shards[1], other})
	assert.ErrorContains(t, err, "not the same tasks")
}

func TestRefusesToOverwriteWithoutResume(t *testing.T) {
	dir := t.TempDir()
	o := small(dir)
	o.Seeds = 1
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	_, err = Score(context.Background(), o, nil)
	assert.ErrorContains(t, err, "--resume")
}

// TestKilledRunResumes kills a scoring run with SIGKILL part-way (a child
// process: this test binary re-executed), resumes it, and checks that the
// summary is the one of an uninterrupted run.
func TestKilledRunResumes(t *testing.T) {
	if dir := os.Getenv("LONGCRAFT_SCORE_CHILD"); dir != "" {
		o := small(dir)
		o.Agent = "planner" // slower episodes: time to be killed mid-run
		Score(context.Background(), o, nil)
		os.Exit(0)
	}
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestKilledRunResumes$")
	cmd.Env = append(os.Environ(), "LONGCRAFT_SCORE_CHILD="+dir)
	require.NoError(t, cmd.Start())
	rows := filepath.Join(dir, results.ResultsFile)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if rs, err := results.Read(rows); err == nil && len(rs) >= 5 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	partial, err := results.Read(rows)
	require.NoError(t, err)
	require.Less(t, len(partial), defaultEpisodes(t), "the run was killed before finishing")
	require.GreaterOrEqual(t, len(partial), 5)
	t.Logf("killed after %d of %d episodes", len(partial), defaultEpisodes(t))

	o := small(dir)
	o.Agent, o.Resume = "planner", true
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, len(partial), oc.Skipped)
	whole := small(t.TempDir())
	whole.Agent = "planner"
	_, err = Score(context.Background(), whole, nil)
	require.NoError(t, err)
	for _, f := range []string{results.ResultsFile, results.SummaryFile} {
		assert.Equal(t, readFile(t, filepath.Join(whole.Out, f)), readFile(t, filepath.Join(dir, f)), f)
	}
}
