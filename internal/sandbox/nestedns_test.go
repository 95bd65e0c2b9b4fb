package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nestedNSProbe runs in the sandbox: it makes a user and mount namespace
// with unshare(2) and, without executing anything (an exec would drop the
// namespace's capabilities: the agent cannot map itself a uid, so
// `unshare -Urm` fails before it tries anything), uses them on the
// sandbox's mounts. It prints one line per attempt.
const nestedNSProbe = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def err(r):
    return "ok" if r == 0 else os.strerror(ctypes.get_errno())
if libc.unshare(0x10000000 | 0x00020000) != 0:  # CLONE_NEWUSER | CLONE_NEWNS
    print("unshare", err(-1)); sys.exit()
caps = [l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff")][0]
print("unshare ok caps", caps)
for m in sys.argv[2:] + ["/tmp", "/proc", "/dev", "/"]:
    print("umount", m, err(libc.umount2(m.encode(), 2)))  # MNT_DETACH
print("remount-rw /", err(libc.mount(b"none", b"/", None, 32 | 4096, None)))  # MS_REMOUNT | MS_BIND
try:
    print("read", sys.argv[1], open(sys.argv[1]).read())
except OSError as e:
    print("read", sys.argv[1], e.strerror)
`

// TestNestedNamespaceCannotUncover: an agent that makes its own user and
// mount namespaces holds every capability in them, but the sandbox's
// mounts it inherits are locked: it can neither unmount a cover (the
// hidden directory, the private /tmp, /proc, /dev) nor remount the tree
// read-write, and the hidden file stays unreadable. TestSandboxView's
// `unshare -Urm` probes never reach the mounts (the uid map cannot be
// written), so they would pass without the locking; this one checks that
// the namespace was made with capabilities before it checks the mounts.
func TestNestedNamespaceCannotUncover(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to call unshare(2) without an exec")
	}
	require.NoError(t, Check(), "this machine can sandbox")
	dir := t.TempDir()
	secretDir := filepath.Join(dir, "run")
	require.NoError(t, os.Mkdir(secretDir, 0o755))
	secret := filepath.Join(secretDir, "salt.secret")
	require.NoError(t, os.WriteFile(secret, []byte("s3cret-nested"), 0o600))
	p, err := New(Options{Command: []string{python, "-c", nestedNSProbe, secret, secretDir}, Hidden: []string{secretDir}})
	require.NoError(t, err)
	var out bytes.Buffer
	p.Cmd.Stdout, p.Cmd.Stderr = &out, &out
	require.NoError(t, p.Start())
	require.NoError(t, p.Cmd.Wait(), out.String())
	p.Close()
	got := out.String()
	t.Log(got)
	require.Contains(t, got, "unshare ok caps ", "the probe made its namespaces")
	require.NotContains(t, got, "caps 0000000000000000", "the probe holds capabilities in its namespaces")
	for _, m := range []string{secretDir, "/tmp", "/proc", "/dev", "/"} {
		assert.Contains(t, got, "umount "+m+" Invalid argument\n", "%s is locked", m)
	}
	assert.Contains(t, got, "remount-rw / Operation not permitted\n")
	assert.NotContains(t, got, "s3cret-nested")
}
