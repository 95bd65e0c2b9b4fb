package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "agent.py"), nil, 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "weights"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.sh"), nil, 0o755))
	sh, err := exec.LookPath("sh")
	require.NoError(t, err)
	for _, c := range []struct {
		in, want, files []string
	}{
		{[]string{"sh", "agent.py", "--k", "3"}, []string{sh, dir + "/agent.py", "--k", "3"}, []string{sh, dir + "/agent.py"}},
		{[]string{"./run.sh", "--model=weights", "-v", "nothing-here"}, []string{dir + "/run.sh", "--model=" + dir + "/weights", "-v", "nothing-here"}, []string{dir + "/run.sh", dir + "/weights"}},
		{[]string{"sh", "/etc/hostname", "--x="}, []string{sh, "/etc/hostname", "--x="}, []string{sh, "/etc/hostname"}},
	} {
		got, files, err := Resolve(c.in, dir)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, c.files, files, c.in)
	}
	for _, bad := range [][]string{{}, {""}, {"./agent.py"}, {"./weights"}, {"./missing"}, {"no-such-program-anywhere"}} {
		_, _, err := Resolve(bad, dir)
		assert.Error(t, err, bad)
	}
}

func TestExposed(t *testing.T) {
	assert.Equal(t, []string{"/tmp/a", "/tmp/x.py"}, exposed([]string{"/usr/bin/python3", "/tmp/a/agent.py", "/tmp/a/b.py", "/tmp/x.py", "/home/u/y"}))
}

// run runs script (with args) in a sandbox set up as o says and returns
// its output.
func run(t *testing.T, script string, o Options, args ...string) (string, error) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	o.Command = append([]string{"/bin/sh", "-c", script, "sh"}, args...)
	p, err := New(o)
	require.NoError(t, err)
	var out bytes.Buffer
	p.Cmd.Stdout, p.Cmd.Stderr = &out, &out
	if err := p.Start(); err != nil {
		return "", err
	}
	err = p.Cmd.Wait()
	p.Close()
	return out.String(), err
}

// TestSandboxView checks what the agent sees and can do, one probe a
// line: each prints "ok NAME" when the agent may, "no NAME" when it may
// not.
func TestSandboxView(t *testing.T) {
	require.NoError(t, Check(), "this machine can sandbox")
	dir := t.TempDir()
	secretDir := filepath.Join(dir, "run")
	require.NoError(t, os.Mkdir(secretDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(secretDir, "results.jsonl"), []byte("{}\n"), 0o644))
	secretFile := filepath.Join(dir, "salt")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "salt"), []byte("s3cret"), 0o644))
	visible := filepath.Join(dir, "visible")
	require.NoError(t, os.WriteFile(visible, []byte("v"), 0o644))
	hostTmp, err := os.CreateTemp("", "longcraft-host-tmp-")
	require.NoError(t, err)
	hostTmp.Close()
	t.Cleanup(func() { os.Remove(hostTmp.Name()) })
	t.Setenv("LONGCRAFT_TEST_SECRET", "x")
	t.Setenv("GIVEN", "y")
	probes := map[string]string{
		"read_hidden_dir":      `cat ` + secretDir + `/results.jsonl`,
		"list_hidden_dir":      `ls ` + secretDir,
		"write_hidden_dir":     `echo x > ` + secretDir + `/results.jsonl`,
		"read_hidden_file":     `grep -q s3cret ` + secretFile,
		"write_hidden_file":    `echo x > ` + secretFile,
		"read_exposed":         `grep -q v ` + visible, // the script's argument: its directory is shown
		"write_exposed":        `echo x > ` + visible,
		"write_tree":           `touch /etc/longcraft-sandbox-test`,
		"write_home":           `touch ` + Home + `/f && [ "$(pwd)" = ` + Home + ` ] && [ "$HOME" = ` + Home + ` ]`,
		"write_tmp":            `touch /tmp/f`,
		"host_tmp":             `[ -e ` + hostTmp.Name() + ` ]`,
		"evaluator_environ":    `cat /proc/*/environ | tr '\0' '\n' | grep -q LONGCRAFT_TEST_SECRET`,
		"given_env":            `[ "$GIVEN" = y ]`,
		"evaluator_cmdline":    `cat /proc/*/cmdline | tr '\0' ' ' | grep -q -- '-tes[t]\.'`,
		"many_pids":            `[ $(ls /proc | grep -c '^[0-9]') -gt 8 ]`,
		"capabilities":         `grep -q 'CapEff:.*[1-9a-f]' /proc/self/status || grep -q 'CapBnd:.*[1-9a-f]' /proc/self/status`,
		"no_new_privs_unset":   `grep -q 'NoNewPrivs:.0' /proc/self/status`,
		"unmount_in_new_ns":    `unshare -Urm sh -c 'umount ` + secretDir + ` && cat ` + secretDir + `/results.jsonl'`,
		"remount_rw_in_new_ns": `unshare -Urm sh -c 'mount -o remount,rw,bind /etc && touch /etc/longcraft-sandbox-test'`,
	}
	probes["read_init_environ"] = `cat /proc/1/environ`
	probes["init_capabilities"] = `cat /proc/1/task/*/status | grep -E '^Cap(Eff|Prm|Bnd):' | awk '{print $2}' | grep -q '[1-9a-f]'`
	probes["devices"] = `ls /dev | grep -qv -x -E 'null|zero|full|random|urandom|tty|fd|stdin|stdout|stderr|shm'`
	probes["dev_null_zero"] = `echo x > /dev/null && [ "$(head -c 3 /dev/zero | od -An -tx1 | tr -d ' ')" = 000000 ] && head -c 8 /dev/urandom >/dev/null && touch /dev/shm/f`
	probes["extra_fds"] = `[ $(ls /proc/self/fd | wc -l) -gt 4 ]` // 0, 1, 2 and ls's own
	if _, err := exec.LookPath("python3"); err == nil {
		// Attach to the init (and let it go at once): its other threads
		// hold capabilities over the namespaces.
		probes["ptrace_init"] = `python3 -c 'import ctypes, sys, time; c = ctypes.CDLL(None); r = c.ptrace(16, 1, 0, 0); time.sleep(0.05); c.ptrace(17, 1, 0, 0); sys.exit(r != 0)'`
	} else {
		t.Log("no python3: the ptrace probe is not run")
	}
	var script strings.Builder
	for name, probe := range probes {
		script.WriteString("if (" + probe + ") >/dev/null 2>&1; then echo ok " + name + "; else echo no " + name + "; fi\n")
	}
	out, err := run(t, script.String(), Options{Hidden: []string{secretDir, secretFile}, Env: []string{"GIVEN=y"}}, visible)
	require.NoError(t, err, out)
	allowed := map[string]bool{"read_exposed": true, "write_home": true, "write_tmp": true, "given_env": true, "dev_null_zero": true}
	for name := range probes {
		want := "no "
		if allowed[name] {
			want = "ok "
		}
		assert.Contains(t, out, want+name+"\n")
	}
	b, err := os.ReadFile(filepath.Join(secretDir, "results.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, "{}\n", string(b), "the hidden file is untouched")
	_, err = os.Stat("/etc/longcraft-sandbox-test")
	assert.True(t, os.IsNotExist(err))
}

// An agent that cannot start in the sandbox (here: a program hidden from
// it) is an error naming the program and the cause.
func TestSandboxStartFailure(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	dir := t.TempDir()
	prog := filepath.Join(dir, "agent")
	require.NoError(t, os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755))
	p, err := New(Options{Command: []string{prog}, Hidden: []string{dir}})
	require.NoError(t, err)
	err = p.Start()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "starting "+prog+" in the sandbox")
	assert.Contains(t, err.Error(), "permission denied")

	_, err = New(Options{Command: []string{filepath.Join(dir, "missing")}})
	assert.ErrorContains(t, err, "no such file or directory")
}

// The agent's exit status is reported as the agent's, not the init's.
func TestSandboxExitStatus(t *testing.T) {
	for script, want := range map[string]string{"exit 3": "exit status 3", "kill -9 $$": "signal: killed", "true": "exit status 0"} {
		if runtime.GOOS != "linux" {
			t.Skip("the sandbox is Linux's")
		}
		p, err := New(Options{Command: []string{"/bin/sh", "-c", script}})
		require.NoError(t, err)
		require.NoError(t, p.Start())
		_ = p.Cmd.Wait()
		assert.Equal(t, want, p.Status(), script)
		p.Close()
	}
}

// TestRefusedWithoutUserNamespaces runs Check where no user namespace
// can be made (this test binary in a user namespace whose limit of
// nested ones is 0): it must say why and name --no-sandbox.
func TestRefusedWithoutUserNamespaces(t *testing.T) {
	if os.Getenv("LONGCRAFT_TEST_NO_USERNS") == "1" {
		err := Check()
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrUnavailable)
		assert.Contains(t, err.Error(), "user.max_user_namespaces")
		assert.Contains(t, err.Error(), "--no-sandbox")
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1) to make a namespace without user namespaces")
	}
	cmd := exec.Command(unshare, "-Ur", "sh", "-c", `echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" -test.run='^TestRefusedWithoutUserNamespaces$' -test.count=1 -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "LONGCRAFT_TEST_NO_USERNS=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "--- PASS: TestRefusedWithoutUserNamespaces")
}

// BenchmarkStart measures starting a sandboxed program (/bin/true) and
// reaping it: what each agent (re)start costs.
func BenchmarkStart(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("the sandbox is Linux's")
	}
	for b.Loop() {
		p, err := New(Options{Command: []string{"/bin/true"}})
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Start(); err != nil {
			b.Fatal(err)
		}
		_ = p.Cmd.Wait()
		p.Close()
	}
}
