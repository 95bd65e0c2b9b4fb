package player

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol"
)

var actions = []string{"noop", "move_left", "do", "make_wood_pickaxe"}

// execAgentBins maps each test agent under testdata/agents to its binary,
// built once by TestMain.
var execAgentBins = map[string]string{}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "longcraft-exec-agents-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	names := []string{"good", "crash", "hang", "garbage", "misbehave"}
	args := []string{"build", "-o", dir + string(os.PathSeparator)}
	for _, n := range names {
		args = append(args, "./testdata/agents/"+n)
		exe := n
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		execAgentBins[n] = filepath.Join(dir, exe)
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the test agents: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newExecAgent returns an exec player running the named test agent, closed at
// the end of the test.
func newExecAgent(t *testing.T, name string, timeout time.Duration, args ...string) *Exec {
	t.Helper()
	p, err := NewExec(ExecOptions{Command: append([]string{execAgentBins[name]}, args...), Timeout: timeout})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

// shortCloseGrace makes Close wait less for agents, like hang, that do
// not exit when their stdin closes.
func shortCloseGrace(t *testing.T) {
	g := execCloseGrace
	execCloseGrace = 100 * time.Millisecond
	t.Cleanup(func() { execCloseGrace = g })
}

func execObs(step int) *protocol.Observation {
	return &protocol.Observation{Task: "collect wood", Text: "a tree to the west <&>", Step: step, BudgetLeft: 100 - step, Actions: actions}
}

// execPID returns the pid of p's running agent, 0 if none.
func execPID(p *Exec) int {
	p.smu.Lock()
	defer p.smu.Unlock()
	if p.proc == nil {
		return 0
	}
	return p.proc.cmd.Process.Pid
}

// execSyncBuffer is a bytes.Buffer safe for the agent's stderr copier and the
// test to share.
type execSyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *execSyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *execSyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		"python3 agent.py":                       {"python3", "agent.py"},
		"exec:python3 agent.py --k 3":            {"python3", "agent.py", "--k", "3"},
		"  ./agent\t-v  ":                        {"./agent", "-v"},
		`python3 'my agent.py' "a \"b\" \\c" ''`: {"python3", "my agent.py", `a "b" \c`, ""},
		`a\ b c'd'"e"`:                           {"a b", "cde"},
		`"C:\Program Files\x"`:                   {`C:\Program Files\x`},
	} {
		got, err := SplitCommand(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "   ", "exec:", "a 'b", `a "b`, `a\`} {
		_, err := SplitCommand(bad)
		assert.Error(t, err, bad)
	}
}

func TestNewExec(t *testing.T) {
	_, err := NewExec(ExecOptions{})
	assert.Error(t, err)
	_, err = NewExec(ExecOptions{Command: []string{"x"}, Timeout: -time.Second})
	assert.Error(t, err)
	p, err := NewExec(ExecOptions{Command: []string{"x"}})
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, p.opts.Timeout)
	assert.Zero(t, execPID(p), "NewExec starts nothing")
	assert.NoError(t, p.Close())
}

// The good agent plays 20 observations over 2 episodes with one process.
func TestExecGood(t *testing.T) {
	ctx := context.Background()
	var stderr execSyncBuffer
	p, err := NewExec(ExecOptions{Command: []string{execAgentBins["good"]}, Timeout: 5 * time.Second, Stderr: &stderr})
	require.NoError(t, err)
	defer p.Close()
	first, process := 0, ""
	for ep := range 2 {
		require.NoError(t, p.Reset(ctx, fmt.Sprintf("task%d", ep)))
		if ep == 0 {
			first = execPID(p)
			require.NotZero(t, first)
		}
		for step := range 10 {
			raw, u, err := p.Act(ctx, execObs(step))
			require.NoError(t, err)
			assert.Equal(t, 1, u.Calls)
			assert.GreaterOrEqual(t, u.LatencyMs, 0)
			r, err := protocol.ParseReply(raw, actions)
			require.NoError(t, err, raw)
			assert.Equal(t, []string{"move_left", "do"}[step%2], r.Action)
			if process == "" {
				process = replyProcess(t, raw)
			}
			assert.Equal(t, fmt.Sprintf("process %s task task%d reset task,type step %d", process, ep, step), r.Reason,
				"one process serves every episode and sees the task and the step; a reset carries the task alone (no world seed)")
		}
	}
	assert.Equal(t, first, execPID(p))
	require.NoError(t, p.Close())
	assert.Contains(t, stderr.String(), fmt.Sprintf("good agent: started, process %s\n", process))
	assert.Contains(t, stderr.String(), "good agent: stdin closed, exiting", "Close closes stdin and lets the agent exit")
	assert.Equal(t, 1, strings.Count(stderr.String(), "started"), "the agent started once")
}

// replyProcess is the process token a good or crash agent's reply names.
func replyProcess(t *testing.T, raw string) string {
	t.Helper()
	r, err := protocol.ParseReply(raw, actions)
	require.NoError(t, err, raw)
	f := strings.Fields(r.Reason)
	require.True(t, len(f) >= 2 && f[0] == "process", raw)
	return f[1]
}

func TestExecCrash(t *testing.T) {
	ctx := context.Background()
	p := newExecAgent(t, "crash", 2*time.Second)
	require.NoError(t, p.Reset(ctx, "t"))
	first := ""
	for step := range 3 {
		raw, _, err := p.Act(ctx, execObs(step))
		require.NoError(t, err)
		if first == "" {
			first = replyProcess(t, raw)
		}
		assert.Equal(t, first, replyProcess(t, raw))
	}
	_, u, err := p.Act(ctx, execObs(3))
	require.Error(t, err)
	assert.ErrorIs(t, err, errAgentExited)
	assert.Contains(t, err.Error(), "exit status 3")
	assert.Contains(t, err.Error(), "something went wrong", "the error quotes stderr")
	assert.Equal(t, 1, u.Calls)
	assert.Zero(t, execPID(p), "the crashed process is gone")
	_, _, err = p.Act(ctx, execObs(4))
	assert.ErrorContains(t, err, "Reset", "no Act without a Reset after an error")

	require.NoError(t, p.Reset(ctx, "t"), "Reset restarts the agent")
	raw, _, err := p.Act(ctx, execObs(0))
	require.NoError(t, err)
	assert.NotEqual(t, first, replyProcess(t, raw), "a new process")
}

func TestExecHang(t *testing.T) {
	shortCloseGrace(t)
	ctx := context.Background()
	p := newExecAgent(t, "hang", 200*time.Millisecond)
	require.NoError(t, p.Reset(ctx, "t"))
	first := execPID(p)
	p.smu.Lock()
	cmd := p.proc.cmd
	p.smu.Unlock()
	start := time.Now()
	_, _, err := p.Act(ctx, execObs(0))
	require.Error(t, err)
	assert.ErrorIs(t, err, errAgentTimeout)
	assert.Contains(t, err.Error(), "timeout")
	assert.Contains(t, err.Error(), "200ms")
	assert.Less(t, time.Since(start), time.Second)
	require.NotNil(t, cmd.ProcessState, "the hung agent is killed and reaped")
	assert.False(t, cmd.ProcessState.Success())

	require.NoError(t, p.Reset(ctx, "t"), "Reset recovers")
	assert.NotEqual(t, first, execPID(p))
}

func TestExecGarbage(t *testing.T) {
	ctx := context.Background()
	p := newExecAgent(t, "garbage", 2*time.Second)
	require.NoError(t, p.Reset(ctx, "t"))
	_, _, err := p.Act(ctx, execObs(0))
	require.Error(t, err)
	assert.ErrorIs(t, err, errAgentBroke)
	assert.Contains(t, err.Error(), "invalid JSON")
	assert.Contains(t, err.Error(), `"hello world"`)
	require.NoError(t, p.Reset(ctx, "t"), "Reset recovers")
}

func TestExecNotReady(t *testing.T) {
	p := newExecAgent(t, "misbehave", 2*time.Second, "notready")
	err := p.Reset(context.Background(), "t")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `want {"type":"ready"}`)
	assert.Contains(t, err.Error(), `hello`)
	assert.Zero(t, execPID(p))
}

func TestExecLongLine(t *testing.T) {
	ctx := context.Background()
	p := newExecAgent(t, "misbehave", 2*time.Second, "long")
	require.NoError(t, p.Reset(ctx, "t"))
	_, _, err := p.Act(ctx, execObs(0))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line longer than 1048576 bytes")
}

func TestExecUnsolicitedLine(t *testing.T) {
	ctx := context.Background()
	p := newExecAgent(t, "misbehave", 2*time.Second, "twice")
	require.NoError(t, p.Reset(ctx, "t"))
	raw, _, err := p.Act(ctx, execObs(0))
	require.NoError(t, err)
	assert.JSONEq(t, `{"action":"noop"}`, raw)
	time.Sleep(50 * time.Millisecond) // let the second line arrive
	_, _, err = p.Act(ctx, execObs(1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nobody asked for")
}

// Unsandboxed, the agent works in Dir; sandboxed, in an empty directory
// of its own, with Dir only resolving the command's relative paths.
func TestExecDir(t *testing.T) {
	dir := t.TempDir()
	want, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	for _, c := range []struct {
		name      string
		noSandbox bool
		want      string
	}{{"sandbox", false, "/tmp/agent-home"}, {"no-sandbox", true, want}} {
		t.Run(c.name, func(t *testing.T) {
			// A relative program path, resolved against Dir.
			rel, err := filepath.Rel(dir, execAgentBins["misbehave"])
			require.NoError(t, err)
			p, err := NewExec(ExecOptions{Command: []string{rel, "cwd"}, Dir: dir, NoSandbox: c.noSandbox})
			require.NoError(t, err)
			defer p.Close()
			ctx := context.Background()
			require.NoError(t, p.Reset(ctx, "t"))
			raw, _, err := p.Act(ctx, execObs(0))
			require.NoError(t, err)
			r, err := protocol.ParseReply(raw, actions)
			require.NoError(t, err)
			assert.Equal(t, c.want, r.Reason)
		})
	}
}

func TestExecStartFailure(t *testing.T) {
	p := newExecAgent(t, "good", time.Second)
	p.opts.Command = []string{filepath.Join(t.TempDir(), "no-such-agent")}
	err := p.Reset(context.Background(), "t")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-agent")
	p.opts.Command = []string{execAgentBins["good"]}
	require.NoError(t, p.Reset(context.Background(), "t"), "a failed start leaves the player usable")
}

func TestExecActBeforeReset(t *testing.T) {
	p := newExecAgent(t, "good", time.Second)
	_, _, err := p.Act(context.Background(), execObs(0))
	assert.ErrorContains(t, err, "Reset")
}

func TestExecContextCancel(t *testing.T) {
	shortCloseGrace(t)
	p := newExecAgent(t, "hang", 10*time.Second)
	require.NoError(t, p.Reset(context.Background(), "t"))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := p.Act(ctx, execObs(0))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Zero(t, execPID(p), "the agent is killed: the conversation is out of step")

	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	assert.ErrorIs(t, p.Reset(done, "t"), context.Canceled)
	require.NoError(t, p.Reset(context.Background(), "t"), "Reset recovers")
}

// Close reaps the process: no zombie. The grace is long here because the
// good agent's exit is what is tested: a sandboxed agent under -race on a
// loaded 2-core machine took over the default second to exit, and was
// (rightly) killed.
func TestExecCloseReaps(t *testing.T) {
	g := execCloseGrace
	execCloseGrace = 20 * time.Second
	t.Cleanup(func() { execCloseGrace = g })
	p := newExecAgent(t, "good", 2*time.Second)
	ctx := context.Background()
	require.NoError(t, p.Reset(ctx, "t"))
	_, _, err := p.Act(ctx, execObs(0))
	require.NoError(t, err)
	cmd := p.proc.cmd
	require.NoError(t, p.Close())
	require.NotNil(t, cmd.ProcessState, "Close waits for the process")
	assert.True(t, cmd.ProcessState.Success(), "the good agent exits by itself when its stdin closes")
	assert.NoError(t, p.Close(), "Close twice")
	assert.ErrorIs(t, p.Reset(ctx, "t"), errExecClosed)
	_, _, err = p.Act(ctx, execObs(1))
	assert.ErrorIs(t, err, errExecClosed)
}

// Close kills an agent that does not exit when its stdin closes.
func TestExecCloseKillsHungAgent(t *testing.T) {
	shortCloseGrace(t)
	p := newExecAgent(t, "hang", 2*time.Second)
	require.NoError(t, p.Reset(context.Background(), "t"))
	cmd := p.proc.cmd
	start := time.Now()
	require.NoError(t, p.Close())
	assert.Less(t, time.Since(start), time.Second)
	require.NotNil(t, cmd.ProcessState)
	assert.False(t, cmd.ProcessState.Exited(), "killed by a signal")
}

// Close interrupts an Act in progress.
func TestExecCloseDuringAct(t *testing.T) {
	shortCloseGrace(t)
	p := newExecAgent(t, "hang", 10*time.Second)
	require.NoError(t, p.Reset(context.Background(), "t"))
	errc := make(chan error, 1)
	go func() {
		_, _, err := p.Act(context.Background(), execObs(0))
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, p.Close())
	select {
	case err := <-errc:
		assert.ErrorIs(t, err, errExecClosed)
	case <-time.After(2 * time.Second):
		t.Fatal("Act still running after Close")
	}
}

// Every failure and Close leave no goroutine behind.
func TestExecNoGoroutineLeak(t *testing.T) {
	shortCloseGrace(t)
	before := runtime.NumGoroutine()
	ctx := context.Background()
	for _, name := range []string{"good", "crash", "hang", "garbage"} {
		p, err := NewExec(ExecOptions{Command: []string{execAgentBins[name]}, Timeout: 200 * time.Millisecond})
		require.NoError(t, err)
		require.NoError(t, p.Reset(ctx, "t"))
		for step := range 5 {
			if _, _, err := p.Act(ctx, execObs(step)); err != nil {
				break
			}
		}
		require.NoError(t, p.Reset(ctx, "t"))
		require.NoError(t, p.Close())
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
}
