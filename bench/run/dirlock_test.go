package run

import (
	"bufio"
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
)

// TestDirLockModes: one writer at a time, readers together, neither with
// the other; a lock file a dead holder left blocks nothing.
func TestDirLockModes(t *testing.T) {
	dir := t.TempDir()
	w, err := LockDir(dir, []string{"longcraft", "score", "--out", dir})
	require.NoError(t, err)
	_, err = LockDir(dir, []string{"second"})
	require.ErrorIs(t, err, ErrDirInUse)
	assert.ErrorContains(t, err, fmt.Sprintf("%s is in use by pid %d", dir, os.Getpid()))
	assert.ErrorContains(t, err, "(longcraft score --out "+dir+") since ")
	_, err = ReadLockDir(dir)
	require.ErrorIs(t, err, ErrDirInUse, "a reader waits for the writer")
	require.NoError(t, w.Unlock())
	assert.NoFileExists(t, filepath.Join(dir, DirLockFile), "a writer that ends removes its file")

	r1, err := ReadLockDir(dir)
	require.NoError(t, err)
	r2, err := ReadLockDir(dir)
	require.NoError(t, err, "readers share")
	_, err = LockDir(dir, nil)
	require.ErrorIs(t, err, ErrDirInUse, "a writer waits for the readers")
	require.NoError(t, r1.Unlock())
	assert.FileExists(t, filepath.Join(dir, DirLockFile), "another reader holds it")
	require.NoError(t, r2.Unlock())
	assert.NoFileExists(t, filepath.Join(dir, DirLockFile), "the last reader removes it")

	// What a killed holder leaves: its record, and no lock.
	require.NoError(t, os.WriteFile(filepath.Join(dir, DirLockFile), []byte(`{"pid":999999,"host":"gone","command":["longcraft","score"]}`), 0o644))
	r, err := ReadLockDir(dir)
	require.NoError(t, err)
	_, err = LockDir(dir, nil)
	require.ErrorIs(t, err, ErrDirInUse)
	assert.NotContains(t, err.Error(), "999999", "the reader cleared the dead writer's record")
	require.NoError(t, r.Unlock())
	require.NoError(t, os.WriteFile(filepath.Join(dir, DirLockFile), []byte(`{"pid":999999}`), 0o644))
	w, err = LockDir(dir, nil)
	require.NoError(t, err, "a stale lock file does not block")
	require.NoError(t, w.Unlock())
}

// TestReadLockDirs: the directories that exist are held against writers
// until the release; one a writer holds refuses them all, releasing those
// already taken.
func TestReadLockDirs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	release, err := ReadLockDirs([]string{a, filepath.Join(a, "missing"), b})
	require.NoError(t, err)
	for _, d := range []string{a, b} {
		_, err := LockDir(d, nil)
		require.ErrorIs(t, err, ErrDirInUse, "%s is held", d)
	}
	release()
	for _, d := range []string{a, b} {
		assert.NoFileExists(t, filepath.Join(d, DirLockFile), "released")
	}

	w, err := LockDir(b, []string{"longcraft", "score"})
	require.NoError(t, err)
	release, err = ReadLockDirs([]string{a, b})
	require.ErrorIs(t, err, ErrDirInUse)
	assert.Nil(t, release)
	l, err := LockDir(a, nil)
	require.NoError(t, err, "the lock taken before the refusal is released")
	require.NoError(t, l.Unlock())
	require.NoError(t, w.Unlock())
}

// TestTwoRunsOneDirectory: while a score run writes a directory, a second
// score, a --resume and a merge into it are refused at once, naming the
// run that holds it; the first run ends as if alone. Before the lock, the
// second run played every episode again into the same results.jsonl.
func TestTwoRunsOneDirectory(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	first := killable(out)
	first.Args = []string{"longcraft", "score", "--agent", "random", "--out", out}
	inside, goOn := make(chan struct{}), make(chan struct{})
	first.AfterWrite = func(what string) {
		if what == "definition" {
			close(inside)
			<-goOn
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := Score(context.Background(), first, nil)
		done <- err
	}()
	<-inside
	second := killable(out)
	_, err := Score(context.Background(), second, nil)
	require.ErrorIs(t, err, ErrDirInUse, "a second run")
	assert.ErrorContains(t, err, fmt.Sprintf("%s is in use by pid %d", out, os.Getpid()))
	assert.ErrorContains(t, err, "longcraft score --agent random --out "+out)
	second.Resume = true
	_, err = Score(context.Background(), second, nil)
	require.ErrorIs(t, err, ErrDirInUse, "a resume")
	shard := killable(t.TempDir())
	shard.Workers = 1
	_, err = Score(context.Background(), shard, nil)
	require.NoError(t, err)
	_, err = Merge(out, []string{shard.Out})
	require.ErrorIs(t, err, ErrDirInUse, "a merge into it")
	_, err = Merge(t.TempDir(), []string{out})
	require.ErrorIs(t, err, ErrDirInUse, "a merge of it as a shard while it is written")
	close(goOn)
	require.NoError(t, <-done)

	rs, err := results.Read(filepath.Join(out, results.ResultsFile))
	require.NoError(t, err)
	seen := map[int]bool{}
	for _, r := range rs {
		assert.False(t, seen[r.Index], "episode %d played twice", r.Index)
		seen[r.Index] = true
	}
	whole, err := results.Read(filepath.Join(shard.Out, results.ResultsFile))
	require.NoError(t, err)
	assert.Len(t, rs, len(whole))
	assert.NoFileExists(t, filepath.Join(out, DirLockFile))
	second.Resume = true
	oc, err := Score(context.Background(), second, nil)
	require.NoError(t, err, "once the first has ended")
	assert.Equal(t, 0, oc.Played)
}

// TestDirLockAfterSIGKILL: a run killed while it holds its directory
// leaves the lock file, which refuses no one: --resume finishes the run.
// While the run lives, a resume is refused with its pid.
func TestDirLockAfterSIGKILL(t *testing.T) {
	if dir := os.Getenv("LONGCRAFT_DIRLOCK_CHILD"); dir != "" {
		o := killable(dir)
		o.Args = []string{"longcraft", "score", "--out", dir}
		o.AfterWrite = func(what string) {
			if what == "result" {
				fmt.Println("holding")
				select {} // hold the directory until killed
			}
		}
		_, err := Score(context.Background(), o, nil)
		fmt.Fprintln(os.Stderr, "child ended without being killed:", err)
		os.Exit(3)
	}
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestDirLockAfterSIGKILL$")
	cmd.Env = append(os.Environ(), "LONGCRAFT_DIRLOCK_CHILD="+dir)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "holding\n", line)

	o := killable(dir)
	o.Resume = true
	_, err = Score(context.Background(), o, nil)
	require.ErrorIs(t, err, ErrDirInUse)
	assert.ErrorContains(t, err, "in use by pid "+strconv.Itoa(cmd.Process.Pid))

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	data, err := os.ReadFile(filepath.Join(dir, DirLockFile))
	require.NoError(t, err, "the killed run left its lock file")
	assert.True(t, strings.Contains(string(data), `"pid":`+strconv.Itoa(cmd.Process.Pid)))
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err, "the stale lock file does not block the resume")
	assert.True(t, oc.Complete)
	assert.Positive(t, oc.Skipped, "the killed run's result was kept")
}
