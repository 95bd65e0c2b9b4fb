package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// The markers the agent tries to put on the evaluator's terminal: a line
// printed over the score table, and keystrokes pushed into the terminal's
// input (TIOCSTI: the user's shell would run them once longcraft exits,
// as the user, unsandboxed). Written here in two halves, so that only
// the agent's doing puts either whole on the terminal.
const (
	ttyWriteMarker = "FORGED" + "-SCORE-TABLE"
	ttyPushMarker  = "PUSHED" + "-KEYSTROKES"
)

// TestAgentCannotReachTheTerminal runs a sandbox from a process whose
// controlling terminal is a pseudo-terminal, as longcraft is when a user
// types `longcraft score` in a shell. The agent must not be able to open
// /dev/tty: neither to print on the user's terminal nor to push
// keystrokes into its input. Until the init started its own session, it
// could do both (it was in longcraft's session, and /dev/tty is one of the
// sandbox's devices).
func TestAgentCannotReachTheTerminal(t *testing.T) {
	if os.Getenv("LONGCRAFT_TEST_TTY_HELPER") == "1" {
		script := `echo agent-ran
echo "$1$2" > /dev/tty
if command -v python3 >/dev/null; then python3 -c '
import fcntl, sys, termios
with open("/dev/tty", "w") as f:
    for c in sys.argv[1] + sys.argv[2]:
        fcntl.ioctl(f, termios.TIOCSTI, c.encode())
'  "$3" "$4"; fi`
		half := len(ttyWriteMarker) / 2
		push := len(ttyPushMarker) / 2
		out, err := run(t, script, Options{}, ttyWriteMarker[:half], ttyWriteMarker[half:], ttyPushMarker[:push], ttyPushMarker[push:])
		if err != nil {
			t.Log(err)
		}
		// The agent ran in its sandbox (else the markers' absence proves
		// nothing): say so where the outer test reads.
		require.Contains(t, out, "agent-ran", "the agent did not run")
		fmt.Println("the agent ran in its sandbox")
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	defer pts.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestAgentCannotReachTheTerminal$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LONGCRAFT_TEST_TTY_HELPER=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	require.NoError(t, cmd.Start())
	pts.Close()
	var screen bytes.Buffer
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(&screen, ptmx) // ends with EIO once no process holds the terminal
		close(copied)
	}()
	require.NoError(t, cmd.Wait())
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		ptmx.Close()
		<-copied
	}
	out := screen.String()
	t.Logf("the terminal showed:\n%s", out)
	require.Contains(t, out, "PASS", "the helper ran")
	require.Contains(t, out, "the agent ran in its sandbox")
	assert.NotContains(t, out, ttyWriteMarker, "the agent printed on the user's terminal")
	assert.NotContains(t, out, ttyPushMarker, "the agent pushed keystrokes into the user's terminal (echoed back)")
}
