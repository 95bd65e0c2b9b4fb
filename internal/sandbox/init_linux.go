package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// init runs the namespace's init when this process is one, and never
// returns then; in any other process it does nothing.
func init() {
	if len(os.Args) != 1 || os.Getenv(initEnv) != "1" {
		return
	}
	switch os.Args[0] {
	case initArg0:
		os.Exit(runInit())
	case reaperArg0:
		os.Exit(runReaper())
	}
}

// reaperArg0 marks the init's second stage: the same pid 1, re-executed
// without any privilege, that starts the agent and reaps.
const reaperArg0 = initArg0 + "-reaper"

// The init's descriptors, as Process.Start passes them; the reaper gets
// the agent's command on fdConfig.
const (
	fdConfig   = 3
	fdStatus   = 4
	fdLifeline = 5
)

// report writes one line to the evaluator.
func report(format string, args ...any) {
	fmt.Fprintf(os.NewFile(fdStatus, "status"), format+"\n", args...)
}

// runInit sets the sandbox up with the capabilities the new user
// namespace gives, drops them all, and re-executes itself as the reaper,
// so that no thread of pid 1 keeps any (a Go process cannot drop its
// other threads' capabilities itself). It returns only on an error.
func runInit() int {
	// Capabilities, the bounding set and no_new_privs belong to a thread,
	// and execve takes the credentials of the thread that calls it: one
	// thread drops them and executes the reaper.
	runtime.LockOSThread()
	closeOnExec()
	var c config
	cfg := os.NewFile(fdConfig, "config")
	if err := json.NewDecoder(cfg).Decode(&c); err != nil {
		report("error: setup: reading the sandbox's configuration: %v", err)
		return 126
	}
	cfg.Close()
	if err := setup(c); err != nil {
		report("error: setup: %v", err)
		return 126
	}
	if err := execReaper(c); err != nil {
		report("error: setup: starting the reaper: %v", err)
		return 126
	}
	return 126 // not reached
}

// execReaper replaces the init with the reaper, passing the agent's
// command on fdConfig (a memfd: no pipe buffer to fill) and keeping the
// status and lifeline descriptors.
func execReaper(c config) error {
	b, err := json.Marshal(config{Argv: c.Argv, Env: c.Env})
	if err != nil {
		return err
	}
	fd, err := unix.MemfdCreate("longcraft-agent", 0)
	if err != nil {
		return err
	}
	if _, err := unix.Write(fd, b); err != nil {
		return err
	}
	if _, err := unix.Seek(fd, 0, io.SeekStart); err != nil {
		return err
	}
	if fd != fdConfig { // the config pipe's descriptor is free: memfd may have taken it
		if err := unix.Dup3(fd, fdConfig, 0); err != nil {
			return err
		}
	}
	for _, keep := range []int{fdStatus, fdLifeline} {
		if _, err := unix.FcntlInt(uintptr(keep), unix.F_SETFD, 0); err != nil {
			return err
		}
	}
	return syscall.Exec("/proc/self/exe", []string{reaperArg0}, []string{initEnv + "=1"})
}

// runReaper starts the agent, reaps every process of the namespace until
// the agent exits, and returns the agent's exit code. When it returns,
// the kernel kills whatever else runs in the namespace.
func runReaper() int {
	// Not dumpable: the agent, of the same uid, cannot ptrace it (and
	// write its status, or hold it stopped).
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		report("error: setup: making the reaper undumpable: %v", err)
		return 126
	}
	closeOnExec()
	var c config
	cfg := os.NewFile(fdConfig, "config")
	if err := json.NewDecoder(cfg).Decode(&c); err != nil {
		report("error: setup: reading the agent's command: %v", err)
		return 126
	}
	cfg.Close()
	// The evaluator's end closes the lifeline's write end, however it
	// ends (SIGKILL included): the sandbox ends with it.
	go func() {
		_, _ = io.Copy(io.Discard, os.NewFile(fdLifeline, "lifeline"))
		os.Exit(137)
	}()
	if len(c.Argv) == 0 {
		report("ok")
		return 0
	}
	pid, err := syscall.ForkExec(c.Argv[0], c.Argv, &syscall.ProcAttr{Dir: Home, Env: c.Env, Files: []uintptr{0, 1, 2}})
	if err != nil {
		report("error: starting %s in the sandbox: %v", c.Argv[0], err)
		return 127
	}
	report("ok")
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			report("exit %v", err)
			return 125
		}
		if got != pid {
			continue // an orphan of the agent's, reparented to the init
		}
		switch {
		case ws.Exited():
			report("exit exit status %d", ws.ExitStatus())
			return ws.ExitStatus()
		case ws.Signaled():
			report("exit signal: %v", ws.Signal())
			return 128 + int(ws.Signal())
		}
	}
}

// closeOnExec marks every descriptor but stdin, stdout and stderr
// close-on-exec: the init's own, and those the evaluator inherited
// without the flag from its own parent (a shell's, a job system's), which
// would otherwise pass through to the agent.
func closeOnExec() {
	for _, fd := range []int{fdConfig, fdStatus, fdLifeline} {
		syscall.CloseOnExec(fd)
	}
	entries, _ := os.ReadDir("/proc/self/fd")
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// setup builds the agent's view of the system in the init's fresh mount
// namespace, then drops every privilege of the calling thread.
func setup(c config) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	// What the agent needs of the host's /tmp, held open before the
	// private /tmp covers it.
	expose := make([]int, len(c.Expose))
	for i, p := range c.Expose {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("opening %s: %w", p, err)
		}
		expose[i] = fd
	}
	devices := map[string]int{}
	for _, name := range devNodes {
		if fd, err := unix.Open("/dev/"+name, unix.O_PATH|unix.O_CLOEXEC, 0); err == nil {
			devices[name] = fd
		}
	}
	if err := unix.MountSetattr(-1, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("making the file tree read-only: %w", err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting a private /proc: %w", err)
	}
	if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("mounting a private /tmp: %w", err)
	}
	if err := minimalDev(devices); err != nil {
		return fmt.Errorf("mounting a private /dev: %w", err)
	}
	if err := os.MkdirAll(Home, 0o755); err != nil {
		return err
	}
	for i, p := range c.Expose {
		if err := bindReadOnly(fmt.Sprintf("/proc/self/fd/%d", expose[i]), p); err != nil {
			return fmt.Errorf("showing %s to the agent: %w", p, err)
		}
		unix.Close(expose[i])
	}
	if err := hide(c.Hidden); err != nil {
		return err
	}
	if err := os.Chdir(Home); err != nil {
		return err
	}
	return dropPrivileges()
}

// devNodes are the devices the agent's /dev has, as a container's does.
var devNodes = []string{"null", "zero", "full", "random", "urandom", "tty"}

// minimalDev replaces /dev with a read-only tmpfs holding the devices
// (bound from the host's, open in fds), the usual links to /proc/self/fd,
// and a private, writable /dev/shm: no disk, no console, no kvm.
func minimalDev(devices map[string]int) error {
	if err := unix.Mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=755,size=64k"); err != nil {
		return err
	}
	for name, fd := range devices {
		dst := "/dev/" + name
		f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o666)
		if err != nil {
			return err
		}
		f.Close()
		if err := unix.Mount(fmt.Sprintf("/proc/self/fd/%d", fd), dst, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("%s: %w", dst, err)
		}
		unix.Close(fd)
	}
	for link, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, "/dev/"+link); err != nil {
			return err
		}
	}
	if err := os.Mkdir("/dev/shm", 0o1777); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	return unix.MountSetattr(-1, "/dev", 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
}

// bindReadOnly mounts src (a path or a /proc/self/fd link) read-only at
// dst, creating dst's mount point in the private /tmp.
func bindReadOnly(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		err = os.MkdirAll(dst, 0o755)
	} else if _, serr := os.Stat(dst); serr == nil {
		err = nil // the mount point is there (a file to cover)
	} else if err = os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
		var f *os.File
		if f, err = os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Close()
		}
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	return unix.MountSetattr(-1, dst, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
}

// hide covers every path of paths: a directory with an empty, read-only
// tmpfs the agent cannot list, a file with an empty read-only file it
// cannot open (mode 0, and it has no capability to override it). A path
// that does not exist in the agent's view (or lies in the private /tmp)
// is already out of its reach.
func hide(paths []string) error {
	const cover = "/tmp/.longcraft-cover" // bound over each hidden file, then unlinked
	f, err := os.OpenFile(cover, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	f.Close()
	defer os.Remove(cover)
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			err = unix.Mount("tmpfs", p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=000")
		default:
			err = bindReadOnly(cover, p)
		}
		if err != nil {
			return fmt.Errorf("hiding %s: %w", p, err)
		}
	}
	return nil
}

// dropPrivileges leaves the calling thread, and what it starts, without
// any capability, unable to gain one (an empty bounding set, no ambient
// or inheritable ones, no_new_privs: root inside the namespace execs with
// none, set-user-ID programs give none).
func dropPrivileges() error {
	// Until it executes the reaper the init's other threads keep their
	// capabilities: not dumpable, it cannot be ptraced meanwhile.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("making the init undumpable: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clearing the ambient capabilities: %w", err)
	}
	var data [2]unix.CapUserData
	if err := unix.Capset(&unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}, &data[0]); err != nil {
		return fmt.Errorf("dropping the capabilities: %w", err)
	}
	return nil
}
