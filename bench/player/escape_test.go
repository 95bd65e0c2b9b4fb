package player

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/proctest"
)

// escaperScript is an exec agent that starts two sleeps tagged with
// marker (a fractional duration no other process uses): one a plain
// child, one that calls setsid (a new session and process group, out of
// reach of a kill of the agent's group), then plays noop; tail is run
// when its stdin closes.
func escaperScript(marker, tail string) string {
	return `sleep ` + marker + ` & setsid sleep ` + marker + ` </dev/null >/dev/null 2>&1 & ` +
		`while read -r line; do case "$line" in *reset*) echo '{"type":"ready"}';; *) echo '{"action":"noop"}';; esac; done; ` + tail
}

// playOne starts p's agent and plays one step.
func playOne(t *testing.T, p *Exec) {
	t.Helper()
	require.NoError(t, p.Reset(context.Background(), "t"))
	_, _, err := p.Act(context.Background(), execObs(0))
	require.NoError(t, err)
}

// TestExecAgentsLeaveNoOrphans: whatever an exec agent starts dies with
// it, a setsid escaper included, whether the agent exits when its stdin
// closes or must be killed. Unsandboxed, the agent's process group is
// killed, which a setsid escaper leaves: it survives (the test would
// catch a sandbox that let it). Before the sandbox, the setsid escaper
// survived every run.
func TestExecAgentsLeaveNoOrphans(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	shortCloseGrace(t)
	for _, c := range []struct {
		name      string
		noSandbox bool
		tail      string
		survivors int
	}{
		{"sandbox/exits", false, `exit 0`, 0},
		{"sandbox/ignores", false, `trap '' TERM; while :; do sleep 1; done`, 0},
		{"no-sandbox/exits", true, `exit 0`, 1},
		{"no-sandbox/ignores", true, `trap '' TERM; while :; do sleep 1; done`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			marker := proctest.Marker()
			t.Cleanup(func() { proctest.KillSleeps(marker) })
			p, err := NewExec(ExecOptions{Command: []string{"/bin/sh", "-c", escaperScript(marker, c.tail)}, Timeout: 5 * time.Second, NoSandbox: c.noSandbox})
			require.NoError(t, err)
			playOne(t, p)
			require.Len(t, proctest.WaitSleeps(marker, proctest.AtLeast(2), 2*time.Second), 2, "both sleeps run while the agent does")
			require.NoError(t, p.Close())
			proctest.WaitSleeps(marker, proctest.AtMost(c.survivors), 3*time.Second)
			time.Sleep(100 * time.Millisecond)
			got := proctest.Sleeps(marker)
			assert.Len(t, got, c.survivors, "processes of the agent alive after Close: %v", got)
		})
	}
}

// scorerEnv marks the child process TestExecDiesWithTheEvaluator starts:
// it plays as an evaluator would, then waits to be SIGKILLed.
const scorerEnv = "LONGCRAFT_TEST_SCORER"

// TestScorerChild is the evaluator of TestExecDiesWithTheEvaluator: run
// alone it does nothing.
func TestScorerChild(t *testing.T) {
	spec := os.Getenv(scorerEnv)
	if spec == "" {
		t.Skip("the child process of TestExecDiesWithTheEvaluator")
	}
	marker, mode, _ := strings.Cut(spec, " ")
	for range 2 { // two agents alive, as two workers
		p, err := NewExec(ExecOptions{Command: []string{"/bin/sh", "-c", escaperScript(marker, "")}, Timeout: 5 * time.Second, NoSandbox: mode == "no-sandbox"})
		require.NoError(t, err)
		playOne(t, p)
	}
	fmt.Println("playing")
	time.Sleep(time.Minute)
}

// TestExecDiesWithTheEvaluator SIGKILLs an evaluator (this test binary
// run as TestScorerChild) while two agents play, each with a plain and a
// setsid child: none survives in the sandbox (the init's lifeline closes
// with the evaluator). Unsandboxed every one survives, as all did before
// the sandbox.
func TestExecDiesWithTheEvaluator(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	for _, c := range []struct {
		mode      string
		survivors int
	}{{"sandbox", 0}, {"no-sandbox", 4}} {
		t.Run(c.mode, func(t *testing.T) {
			marker := proctest.Marker()
			t.Cleanup(func() { proctest.KillSleeps(marker) })
			cmd := exec.Command(os.Args[0], "-test.run=^TestScorerChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), scorerEnv+"="+marker+" "+c.mode)
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			line, err := bufio.NewReader(out).ReadString('\n')
			require.NoError(t, err)
			require.Equal(t, "playing\n", line)
			require.Len(t, proctest.WaitSleeps(marker, proctest.AtLeast(4), 2*time.Second), 4, "two agents' children run")
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()
			proctest.WaitSleeps(marker, proctest.AtMost(c.survivors), 3*time.Second)
			time.Sleep(100 * time.Millisecond)
			got := proctest.Sleeps(marker)
			assert.Len(t, got, c.survivors, "agents' processes alive after the evaluator's SIGKILL: %v", got)
		})
	}
}
