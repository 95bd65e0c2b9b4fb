// Package sandbox runs an agent's program where it cannot touch the
// evaluator that started it: in its own user, PID, mount and IPC
// namespaces, with the whole file tree read-only, the evaluator's files
// (the run directory, suite, lock and salt) covered by empty mounts, a
// fresh /proc (no other process's command line, environment or pid), a
// private /tmp holding its own empty working directory, no capability,
// no_new_privs, and only the environment it is given. The network is the
// host's: an agent may call its own model server. Every process the agent
// starts dies with it (the kernel ends a PID namespace with its init) and
// with the evaluator, however the evaluator dies (a lifeline pipe).
//
// The namespace's init is the evaluator's own binary, re-executed: this
// package's init function recognises the role and never returns, so any
// binary that links the package (longcraft, a test binary) can sandbox.
// docs/players.md says what is enforced and what is not.
//
// It owns process isolation only: the JSON-lines conversation is
// bench/player's. It imports nothing of Longcraft's.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Options say what to run and what to hide from it.
type Options struct {
	// Command is the program and its arguments. A relative program path,
	// and every argument that names an existing file relative to Dir, is
	// made absolute before the start (Resolve): the agent runs in its own
	// empty working directory, not in Dir.
	Command []string
	Dir     string   // the directory relative paths are relative to ("" = current)
	Env     []string // NAME=VALUE entries given to the agent besides the minimal set (MinimalEnv)
	// Hidden are paths the agent must neither read nor write: each is
	// covered by an empty read-only mount (a directory) or /dev/null (a
	// file). A path that does not exist when the agent starts is skipped.
	Hidden []string
}

// Home is the agent's working directory and $HOME inside the sandbox: an
// empty directory of the sandbox's private /tmp.
const Home = "/tmp/agent-home"

// The init's role markers: argv[0] and an environment variable, both
// required, so that nothing starts an init by accident.
const (
	initArg0 = "longcraft-sandbox-init"
	initEnv  = "LONGCRAFT_SANDBOX_INIT"
)

// ErrUnavailable is wrapped by every error saying the sandbox cannot be
// set up here.
var ErrUnavailable = errors.New("cannot sandbox the exec agent")

// unavailable is the error saying why the sandbox cannot be set up, and
// what the user can do.
func unavailable(why string) error {
	return fmt.Errorf("%w: %s (--no-sandbox runs exec agents unsandboxed, as longcraft's own user and environment: they can then read and write everything longcraft can)", ErrUnavailable, why)
}

// config is what the evaluator sends the init, as JSON on fd 3.
type config struct {
	Argv   []string // resolved; empty: a probe (set up, then exit 0)
	Env    []string
	Hidden []string
	Expose []string // paths under /tmp the agent needs (its program, its files), bound read-only into the private /tmp
}

// MinimalEnv is the environment every agent gets: PATH, LANG and LC_ALL
// as the evaluator has them (when set), HOME (its working directory) and
// TMPDIR.
func MinimalEnv() []string {
	env := []string{"HOME=" + Home, "TMPDIR=/tmp"}
	for _, k := range []string{"PATH", "LANG", "LC_ALL"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Resolve makes argv runnable from another working directory: a program
// named by a path is made absolute relative to dir, one named by a bare
// word is looked up in PATH; every argument that names an existing file
// or directory relative to dir is made absolute, and so is the value of
// an option written --name=VALUE. Arguments that name nothing are kept as
// they are. It also returns the absolute files named, the program first.
func Resolve(argv []string, dir string) (resolved, files []string, err error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, nil, errors.New("empty command")
	}
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, nil, err
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, nil, err
	}
	prog := argv[0]
	if strings.ContainsRune(prog, '/') {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(dir, prog)
		}
		fi, err := os.Stat(prog)
		if err != nil {
			return nil, nil, err
		}
		if fi.IsDir() || fi.Mode()&0o111 == 0 {
			return nil, nil, fmt.Errorf("%s: not an executable file", prog)
		}
	} else if prog, err = exec.LookPath(prog); err != nil {
		return nil, nil, err
	}
	resolved, files = []string{prog}, []string{prog}
	for _, a := range argv[1:] {
		prefix, value := "", a
		if strings.HasPrefix(a, "-") {
			name, v, ok := strings.Cut(a, "=")
			if !ok {
				resolved = append(resolved, a)
				continue
			}
			prefix, value = name+"=", v
		}
		if value != "" {
			p := value
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if _, err := os.Stat(p); err == nil {
				files = append(files, p)
				if !filepath.IsAbs(value) {
					value = p
				}
			}
		}
		resolved = append(resolved, prefix+value)
	}
	return resolved, files, nil
}

// exposed lists what of files must be bound into the private /tmp: the
// directory of each file under /tmp (its program's siblings: modules a
// script imports), or the file alone when its directory is /tmp itself.
func exposed(files []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		if !under(f, "/tmp") {
			continue
		}
		e := filepath.Dir(f)
		if e == "/tmp" {
			e = f
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// hidden lists every path to cover: each given one made absolute, and
// its target when it is or goes through a symbolic link.
func hidden(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		add(abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			add(real)
		}
	}
	return out
}

// under reports whether path is dir or below it.
func under(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/")
}
