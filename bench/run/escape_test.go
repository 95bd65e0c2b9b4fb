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
const escaperAgent = `#!/bin/sh
sleep "$1" & setsid sleep "$1" </dev/null >/dev/null 2>&1 &
while read -r line; do case "$line" in *reset*) echo '{"type":"ready"}';; *) sleep 0.02; echo '{"action":"noop"}';; esac; done
`

// TestScoreKilledLeavesNoAgents SIGKILLs `score` (this test binary
// re-executed, running Score with two workers of an agent that starts a
// plain and a setsid child) while its agents play: sandboxed, none of
// their processes survives; with --no-sandbox all four do, as they did
// before the sandbox.
func TestScoreKilledLeavesNoAgents(t *testing.T) {
	if spec := os.Getenv("LONGCRAFT_ESCAPE_CHILD"); spec != "" {
		out, rest, _ := strings.Cut(spec, " ")
		marker, mode, _ := strings.Cut(rest, " ")
		script := filepath.Join(filepath.Dir(out), "escaper.sh")
		require.NoError(t, os.WriteFile(script, []byte(escaperAgent), 0o755))
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
	}{{"sandbox", 0}, {"no-sandbox", 4}} {
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
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()
			proctest.WaitSleeps(marker, proctest.AtMost(c.survivors), 3*time.Second)
			time.Sleep(100 * time.Millisecond)
			got := proctest.Sleeps(marker)
			assert.Len(t, got, c.survivors, "agents' processes alive after score's SIGKILL: %v", got)
		})
	}
}
