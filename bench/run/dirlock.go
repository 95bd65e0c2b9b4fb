package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DirLockFile is the lock file inside a run directory. Whoever writes the
// directory (score, --resume, merge into it) holds an exclusive flock on
// it for as long as it writes; its content names the holder, for the
// message a second writer gets. The kernel drops the flock when its holder
// ends, however it ends (SIGKILL, a crash, a lost node), so a file left
// behind blocks nothing: only a live holder refuses.
const DirLockFile = ".longcraft.lock"

// ErrDirInUse is wrapped by the error of locking a directory another
// process (or another writer in this one) holds.
var ErrDirInUse = errors.New("run directory in use")

// dirInUse is the refusal of a directory another holder has.
type dirInUse struct{ dir, owner string }

func (e *dirInUse) Error() string {
	return fmt.Sprintf("%s is in use by %s: wait for it to end, or use another directory", e.dir, e.owner)
}

func (e *dirInUse) Is(target error) bool { return target == ErrDirInUse }

// DirOwner is what the lock file says about its holder.
type DirOwner struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command []string  `json:"command"`
	Since   time.Time `json:"since"`
}

// DirLock is the hold on one run directory; Unlock releases it.
type DirLock struct {
	f      *os.File
	path   string
	writer bool // exclusive, the file's content is this process's
}

// LockDir takes the run directory dir (created if need be) for this
// process, recording command as the holder's command line. It refuses at
// once, without waiting, when another holder has it: the error names that
// holder ("runs/x is in use by pid 1234 on host (longcraft score …) since
// …") and wraps ErrDirInUse.
func LockDir(dir string, command []string) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return lockDir(dir, command, true)
}

// ReadLockDir holds the run directory dir against writers while it is
// read (report, the shards of a merge): readers share it, a writer
// holding it refuses the reader with LockDir's message. A directory this
// process may not write (a read-only copy) cannot hold a lock file and is
// read without one: no run can be writing it either.
func ReadLockDir(dir string) (*DirLock, error) {
	l, err := lockDir(dir, nil, false)
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return nil, nil
	}
	return l, err
}

func lockDir(dir string, command []string, exclusive bool) (*DirLock, error) {
	path := filepath.Join(dir, DirLockFile)
	// A holder that releases removes the file; a newcomer that opened the
	// old file before the removal holds a lock on a name no one else
	// sees. Locking, then checking the name still is the locked file,
	// closes that gap (the loop retries on the new file).
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		if !exclusive {
			// Alone on it, a reader clears what a writer that crashed left
			// there, so that a writer refused while this reads is not
			// told the dead one holds it.
			if alone, _ := tryLock(f, true); alone {
				_ = f.Truncate(0)
			}
		}
		switch held, err := tryLock(f, exclusive); {
		case err != nil:
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		case !held:
			owner := readOwner(f)
			f.Close()
			return nil, &dirInUse{dir: dir, owner: owner}
		}
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(fi, pi) {
			f.Close() // released and removed under us: take the new one
			continue
		}
		if !exclusive {
			return &DirLock{f: f, path: path}, nil
		}
		host, _ := os.Hostname()
		data, err := json.Marshal(DirOwner{PID: os.Getpid(), Host: host, Command: command, Since: time.Now().UTC().Truncate(time.Second)})
		if err == nil {
			err = f.Truncate(0)
		}
		if err == nil {
			_, err = f.WriteAt(append(data, '\n'), 0)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: write %s: %w", dir, path, err)
		}
		return &DirLock{f: f, path: path, writer: true}, nil
	}
	return nil, fmt.Errorf("lock %s: %s keeps being replaced", dir, path)
}

// Unlock releases the lock. The last holder removes the lock file first
// (a newcomer that opened it meanwhile then finds the name gone and takes
// a new file): a writer always, a reader when no other reader shares it.
func (l *DirLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	var err error
	last := l.writer
	if !last {
		last, _ = tryLock(l.f, true) // no other reader shares it
	}
	if last {
		if err = os.Remove(l.path); errors.Is(err, os.ErrNotExist) {
			err = nil
		}
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// readOwner describes the holder of the locked file f from its content.
func readOwner(f *os.File) string {
	buf := make([]byte, 64<<10)
	n, _ := f.ReadAt(buf, 0)
	var o DirOwner
	if err := json.Unmarshal(buf[:n], &o); err != nil || o.PID == 0 {
		return "another process (a reader such as longcraft report or merge, or a writer that has not said which yet)"
	}
	s := fmt.Sprintf("pid %d", o.PID)
	if o.Host != "" {
		s += " on " + o.Host
	}
	if len(o.Command) > 0 {
		cmd := strings.Join(o.Command, " ")
		if len(cmd) > 200 {
			cmd = cmd[:200] + "…"
		}
		s += " (" + cmd + ")"
	}
	if !o.Since.IsZero() {
		s += " since " + o.Since.Format(time.RFC3339)
	}
	return s
}

// lockRun takes o.Out for a score run; the returned func releases it.
func lockRun(o Options) (func(), error) {
	cmd := o.Args
	if len(cmd) == 0 {
		cmd = []string{"longcraft", "score", "--agent", o.Agent, "--out", o.Out}
	}
	l, err := LockDir(o.Out, cmd)
	if err != nil {
		return nil, err
	}
	return func() { _ = l.Unlock() }, nil
}

// lockMerge takes out for a merge, and holds its shard directories
// against writers while they are read; the returned func releases all.
func lockMerge(out string, dirs []string) (func(), error) {
	l, err := LockDir(out, append([]string{"longcraft", "merge", "--out", out}, dirs...))
	if err != nil {
		return nil, err
	}
	release, err := ReadLockDirs(dirs) // a missing shard is skipped: merge names it
	if err != nil {
		_ = l.Unlock()
		return nil, err
	}
	return func() { release(); _ = l.Unlock() }, nil
}

// ReadLockDirs holds the run directories dirs against writers while they
// are read (ReadLockDir), skipping those that do not exist (their reader
// names them); the returned func releases them, the last taken first. On
// an error the locks taken are released and the func is nil.
func ReadLockDirs(dirs []string) (func(), error) {
	var held []*DirLock
	release := func() {
		for i := len(held) - 1; i >= 0; i-- {
			_ = held[i].Unlock()
		}
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			continue
		}
		l, err := ReadLockDir(d)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, l)
	}
	return release, nil
}
