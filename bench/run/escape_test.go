package run

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/proctest"

	"github.com/longcraft/longcraft/bench/agent"
)

// escaperAgent starts a plain and a setsid sleep tagged with its first
// argument, then plays noop slowly enough for a run to last.
const escaperAgent = "#!/bin/sh\n" + escaperPlay

const escaperPlay = `sleep "$1" & setsid sleep "$1" </dev/null >/dev/null 2>&1 &
while read -r line; do case "$line" in *reset*) echo '{"type":"ready"}';; *) sleep 0.02; echo '{"action":"noop"}';; esac; done
`

// stopperAgent is escaperAgent that first tries to stop its sandbox's
// init (pid 1 in its PID namespace), the process whose death takes the
// agent's with it: a stopped init would hold the namespace open.
const stopperAgent = `#!/bin/sh
kill -STOP 1; kill -TSTP 1; kill -TTIN 1; kill -TTOU 1
` + escaperPlay

// TestScoreKilledLeavesNoAgents SIGKILLs `score` (this test binary
// re-executed, running Score with two workers of an agent that starts a
// plain and a setsid child) while its agents play: sandboxed, none of
// their processes survives, nor does one whose agent tried to stop its
// sandbox's init first (the kernel keeps a namespace's init from signals
// its members send it that it does not handle: checked, no init is left
// stopped); with --no-sandbox all four do, as they did before the
// sandbox.
func TestScoreKilledLeavesNoAgents(t *testing.T) {
	if spec := os.Getenv("LONGCRAFT_ESCAPE_CHILD"); spec != "" {
		out, rest, _ := strings.Cut(spec, " ")
		marker, mode, _ := strings.Cut(rest, " ")
		script := filepath.Join(filepath.Dir(out), "escaper.sh")
		agentScript := escaperAgent
		if mode == "sandbox-stop-init" {
			agentScript = stopperAgent
		}
		require.NoError(t, os.WriteFile(script, []byte(agentScript), 0o755))
		o := Options{Suite: "default", Agent: "exec:" + script + " " + marker, Out: out, Traces: "none",
			Config: Config{Workers: 2, External: agent.External{NoSandbox: mode == "no-sandbox"}}}
		fmt.Println("scoring")
		_, err := Score(context.Background(), o, nil)
		require.NoError(t, err)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	for _, c := range []struct {
		mode      string
		survivors int
	}{{"sandbox", 0}, {"sandbox-stop-init", 0}, {"no-sandbox", 4}} {
		t.Run(c.mode, func(t *testing.T) {
			marker := proctest.Marker()
			t.Cleanup(func() { proctest.KillSleeps(marker) })
			cmd := exec.Command(os.Args[0], "-test.run=^TestScoreKilledLeavesNoAgents$", "-test.count=1")
			cmd.Env = append(os.Environ(), "LONGCRAFT_ESCAPE_CHILD="+filepath.Join(t.TempDir(), "run")+" "+marker+" "+c.mode)
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			line, err := bufio.NewReader(stdout).ReadString('\n')
			require.NoError(t, err)
			require.Equal(t, "scoring\n", line)
			require.Len(t, proctest.WaitSleeps(marker, proctest.AtLeast(4), 10*time.Second), 4, "both workers' agents and their children run")
			if c.mode == "sandbox-stop-init" {
				inits := childrenOf(t, cmd.Process.Pid)
				require.NotEmpty(t, inits, "the sandboxes' inits")
				for _, pid := range inits {
					assert.NotEqual(t, "T", processState(pid), "init %d stopped by its agent", pid)
				}
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()
			proctest.WaitSleeps(marker, proctest.AtMost(c.survivors), 3*time.Second)
			time.Sleep(100 * time.Millisecond)
			got := proctest.Sleeps(marker)
			assert.Len(t, got, c.survivors, "agents' processes alive after score's SIGKILL: %v", got)
		})
	}
}

// childrenOf lists pid's child processes (Linux: /proc/PID/task/*/children).
func childrenOf(t *testing.T, pid int) []int {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	require.NoError(t, err)
	var kids []int
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, w := range strings.Fields(string(data)) {
			var k int
			_, err := fmt.Sscan(w, &k)
			require.NoError(t, err)
			kids = append(kids, k)
		}
	}
	return kids
}

// processState is the state letter of /proc/PID/stat ("R", "S", "T"
// for stopped, ...); "" for a process gone.
func processState(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	_, after, ok := strings.Cut(string(data), ") ")
	if !ok || after == "" {
		return ""
	}
	return after[:1]
}
