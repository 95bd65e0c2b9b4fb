package run

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
)

// snoopAgent is an exec agent that tries, at every step, what a forger
// would (its arguments: the run directory, the suite file, which it
// could have read from its parent's command line, and a file of the
// user's given to --agent-hide), and says in its reason what worked.
const snoopAgent = `#!/bin/sh
out="$1"; suite="$2"; extra="$3"
while read -r line; do
	case "$line" in
	*reset*) echo '{"type":"ready"}'; continue;;
	esac
	r=""
	[ -s "$out/run.json" ] && r="$r read_run"
	[ -s "$out/results.jsonl" ] && r="$r read_results"
	ls "$out" 2>/dev/null | grep -q run.json && r="$r list_out"
	echo '{"forged": true}' 2>/dev/null >> "$out/results.jsonl" && r="$r write_results"
	grep -q families "$suite" 2>/dev/null && r="$r read_suite"
	[ -s "$suite.lock.json" ] && r="$r read_lock"
	[ -s "$extra" ] && r="$r read_extra"
	tr '\0' ' ' < /proc/$PPID/cmdline 2>/dev/null | grep -q -- '-test\.' && r="$r parent_cmdline"
	cat /proc/*/cmdline 2>/dev/null | tr '\0' ' ' | grep -q -- '-test\.' && r="$r some_cmdline"
	cat /proc/*/environ 2>/dev/null | tr '\0' '\n' | grep -q LONGCRAFT_TEST_SECRET && r="$r environ"
	echo "{\"action\":\"noop\",\"reason\":\"$r\"}"
done
`

// TestExecAgentCannotTouchTheRun: an exec agent that knows where the run
// writes tries to read and forge its results, read the suite and its
// lock, and read the evaluator's command line and environment. Sandboxed,
// every attempt fails and results.jsonl holds only the runner's lines;
// with --no-sandbox every one succeeds (as all did before the sandbox),
// which shows the test can tell.
func TestExecAgentCannotTouchTheRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	t.Setenv("LONGCRAFT_TEST_SECRET", "the evaluator's")
	all := []string{"read_run", "read_results", "list_out", "write_results", "read_suite", "read_lock", "read_extra", "parent_cmdline", "some_cmdline", "environ"}
	for _, c := range []struct {
		name      string
		noSandbox bool
		want      []string
	}{{"sandbox", false, nil}, {"no-sandbox", true, all}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "mine.yaml")
			require.NoError(t, os.WriteFile(file, []byte("name: mine\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    split: eval\n    budget: 5\n    seeds: {from: 0, count: 2}\n"), 0o644))
			s, err := suite.Load(file)
			require.NoError(t, err)
			l, err := LockSuite(context.Background(), s, 1, nil)
			require.NoError(t, err)
			data, err := l.Marshal()
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(suite.LockPath(file), data, 0o644))
			script := filepath.Join(dir, "snoop.sh")
			require.NoError(t, os.WriteFile(script, []byte(snoopAgent), 0o755))
			out := filepath.Join(dir, "run")
			extra := filepath.Join(dir, "credentials") // --agent-hide's: the runner adds its own paths to it
			require.NoError(t, os.WriteFile(extra, []byte("secret\n"), 0o600))
			o := Options{Suite: file, Agent: "exec:" + script + " " + out + " " + file + " " + extra, Out: out, Traces: "all",
				Config: Config{Workers: 1, External: agent.External{NoSandbox: c.noSandbox, Hidden: []string{extra}}}}
			_, err = Score(context.Background(), o, nil)
			require.NoError(t, err)
			rows, err := results.Read(filepath.Join(out, results.ResultsFile))
			require.NoError(t, err)
			for _, r := range rows {
				require.Empty(t, r.AgentError)
			}
			got, notes := traceReasons(t, out)
			require.Equal(t, 10, notes, "the agent played every step of both episodes")
			for _, a := range all {
				assert.Equal(t, slices.Contains(c.want, a), got[a], "attack %s succeeded: %v", a, got[a])
			}
			b, err := os.ReadFile(filepath.Join(out, results.ResultsFile))
			require.NoError(t, err)
			if !c.noSandbox {
				assert.NotContains(t, string(b), "forged")
			} // unsandboxed, the runner's final rewrite of results.jsonl drops the line the agent appended

		})
	}
}

// traceReasons returns the words of the reasons the agent of run out gave
// in its traces (where the snooping agents report what they could do),
// and how many notes there were.
func traceReasons(t *testing.T, out string) (words map[string]bool, notes int) {
	t.Helper()
	tf, err := trace.Open(filepath.Join(out, results.TraceFile))
	require.NoError(t, err)
	defer tf.Close()
	words = map[string]bool{}
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		require.NoError(t, err)
		for _, n := range ep.Notes {
			notes++
			for _, w := range strings.Fields(n.Reasoning) {
				words[w] = true
			}
		}
	}
	return words, notes
}

// TestTimeoutStopsAHungAgent: --timeout ends an episode whose agent hangs
// at its deadline, as a timeout and not an agent error. Before, the
// episode waited for the per-message timeout (30 s by default) and ended
// as agent_error: --timeout 1s with a hung agent took 91 s for 6
// episodes. The per-message timeout is an hour here and the run is
// abandoned after 30 s: a deadline that does not reach the hung
// call leaves no result, and the test fails on the count.
func TestTimeoutStopsAHungAgent(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("no subprocesses under js/wasm")
	}
	hang := buildAgent(t, "hang")
	specs := []task.Spec{{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 0, Budget: 30},
		{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1, Budget: 30}}
	var rows []results.Result
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := Suite(ctx, specs, []int{0, 1}, Config{Agent: "exec:" + hang, Workers: 1, Timeout: 300 * time.Millisecond,
		External: agent.External{StepTimeout: time.Hour}}, func(d Done) error {
		rows = append(rows, d.Result)
		return nil
	})
	require.NoError(t, err, "the run ended before the hung calls did")
	require.Len(t, rows, 2)
	for _, r := range rows {
		assert.Equal(t, "timeout", r.End, r.AgentError)
		assert.Empty(t, r.AgentError, "the deadline is not the agent's error")
	}
	t.Logf("2 episodes of a hung agent under a 300ms timeout: %v", time.Since(start))
}
