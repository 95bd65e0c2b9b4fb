// The exec transport: a player is a program, in any language, that speaks
// JSON lines on its standard input and output. This comment is the contract
// such a program must follow.
//
// Framing. Each message is one JSON object on one line, terminated by "\n",
// in both directions. Lines are UTF-8 and at most 1 MiB long. Blank lines
// from the agent are ignored. The agent must flush its output after every
// line (Python: print(..., flush=True)), must write exactly one line per
// message it receives, and must write nothing else on stdout: logs and
// debugging output go to stderr, which the evaluator forwards or discards
// and quotes (its last 4 KiB) when the agent fails.
//
// Episodes. One process plays every episode of a run: it is started on the
// first reset and reused until the evaluator closes its stdin, at which point
// it should exit (it is killed if it has not exited after a short grace
// period). An episode starts with a reset:
//
//	evaluator → agent  {"type":"reset","task":"Your task: obtain 1 wood. You have 1000 steps."}
//	agent → evaluator  {"type":"ready"}
//
// The reset carries the task statement and nothing that identifies the
// world: no seed (it would regenerate the map) and no task id. Any answer
// other than an object whose "type" is "ready" ends the episode with an
// agent error. Then, each step:
//
//	evaluator → agent  {"type":"observation","task":"…","text":"…","step":0,"budget_left":500,"actions":["noop","move_left",…],…}
//	agent → evaluator  {"action":"move_left","reason":"a tree to the west","belief":{…},"expect":{…}}
//
// The observation is the JSON form of Observation (optional fields are
// omitted when empty). The reply is the JSON form of Reply: only "action" is
// required, and it must be one of the observation's "actions". A reply that
// is valid JSON but not a usable reply (unknown action, missing field) is not
// a transport error: the evaluator counts it as invalid, plays noop, and
// says why in the next observation's "invalid" field.
//
// Failures. The episode ends with an agent error, and the process is killed
// (a new one is started by the next reset), when the agent exits or closes
// its stdout, writes a line that is not JSON at all, writes a line longer
// than 1 MiB, writes a line it was not asked for, answers a reset with
// anything but {"type":"ready"}, or does not answer a message within the
// timeout (30 s by default).
//
// Sandbox. Unless NoSandbox is set, the program runs in internal/sandbox's
// sandbox: its own empty working directory (also $HOME) in a private
// /tmp, the file tree read-only, the Hidden paths covered, a private /proc,
// no capability, and only the environment it is given (Env). Relative
// paths in the command are resolved against Dir first. docs/players.md
// says what this enforces.

package player

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/internal/sandbox"
)

// ExecOptions configure a subprocess player speaking JSON lines on stdin
// and stdout.
type ExecOptions struct {
	Command []string // program and arguments; see SplitCommand
	// Dir is the directory relative paths of Command are relative to (""
	// = current). Unsandboxed it is the agent's working directory too;
	// sandboxed, the agent works in an empty directory of its own.
	Dir     string
	Timeout time.Duration // per message (0: 30s)
	Stderr  io.Writer     // where the agent's stderr goes (nil: discarded); the last 4 KiB are quoted in errors
	// Env passes environment variables to the agent: NAME (its value in
	// this process's environment, which must have it) or NAME=VALUE.
	// Sandboxed, the agent gets these and sandbox.MinimalEnv only;
	// unsandboxed, it inherits this process's whole environment as well.
	Env []string
	// Hidden are paths the agent must neither read nor write (the run's
	// directory, its suite and lock files, the salt).
	Hidden []string
	// NoSandbox runs the program as this process's plain child, in its
	// own process group: it can read and write whatever this process can.
	NoSandbox bool
}

const (
	defaultExecTimeout = 30 * time.Second
	execMaxLine        = 1 << 20 // longest line accepted from an agent
	execStderrTail     = 4 << 10 // how much of the agent's stderr errors quote
)

// Tunables, variables so that tests can shorten them.
var (
	execCloseGrace = time.Second // Close: how long the agent has to exit after its stdin is closed
	execExitWait   = time.Second // after the agent's stdout ends: how long to wait for its exit status
	execWaitDelay  = time.Second // exec.Cmd.WaitDelay: bounds waiting for stderr held open by grandchildren
)

// Errors the exec transport wraps, so that tests can tell them apart.
var (
	errExecClosed   = errors.New("exec player closed")
	errAgentExited  = errors.New("agent exited")
	errAgentTimeout = errors.New("timeout")
	errAgentBroke   = errors.New("agent broke the protocol")
	errLineTooLong  = fmt.Errorf("line longer than %d bytes", execMaxLine)
)

// Exec is a Player that runs a program and talks to it over stdin and
// stdout with the JSON-lines protocol described at the top of exec.go. The
// process starts on the first Reset and is reused across episodes; an
// error ends the episode and kills the process, and the next Reset starts a
// new one. Reset and Act may be called from one goroutine at a time (calls
// are serialized); Close may be called from any goroutine at any time, and
// interrupts a call in progress.
type Exec struct {
	opts ExecOptions

	mu sync.Mutex // serializes Reset and Act

	smu    sync.Mutex // guards proc and closed
	proc   *execProc  // the running agent, nil if none
	closed bool
}

var _ Player = (*Exec)(nil)

// NewExec returns an exec player. It starts nothing: the process starts on
// the first Reset.
func NewExec(o ExecOptions) (*Exec, error) {
	if len(o.Command) == 0 || o.Command[0] == "" {
		return nil, errors.New("exec player: empty command")
	}
	if o.Timeout < 0 {
		return nil, fmt.Errorf("exec player: negative timeout %v", o.Timeout)
	}
	if o.Timeout == 0 {
		o.Timeout = defaultExecTimeout
	}
	o.Command = append([]string(nil), o.Command...)
	env, err := agentEnv(o.Env)
	if err != nil {
		return nil, fmt.Errorf("exec player: %w", err)
	}
	o.Env = env
	o.Hidden = append([]string(nil), o.Hidden...)
	return &Exec{opts: o}, nil
}

// Reset starts an episode: it starts the agent if none is running, sends
// it the reset message and waits for {"type":"ready"}.
func (p *Exec) Reset(ctx context.Context, task string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("exec player: reset: %w", err)
	}
	p.smu.Lock()
	if p.closed {
		p.smu.Unlock()
		return errExecClosed
	}
	pr := p.proc
	p.smu.Unlock()
	if pr != nil {
		select {
		case <-pr.exited: // it died between episodes: start afresh
			p.discard(pr)
			pr = nil
		default:
		}
	}
	if pr == nil {
		var err error
		if pr, err = p.start(); err != nil {
			return err
		}
	}
	msg, err := encodeLine(struct {
		Type string `json:"type"`
		Task string `json:"task"`
	}{"reset", task})
	if err != nil {
		return fmt.Errorf("exec player: reset: %w", err)
	}
	line, err := p.exchange(ctx, pr, msg, "the reset")
	if err != nil {
		return err
	}
	var ready struct {
		Type string `json:"type"`
	}
	if !json.Valid(line) {
		p.discard(pr)
		return execErr(errAgentBroke, "exec player: %s answered the reset with invalid JSON: %s%s", pr.name, quoteLine(line), pr.stderrNote())
	}
	if json.Unmarshal(line, &ready) != nil || ready.Type != "ready" {
		p.discard(pr)
		return execErr(errAgentBroke, `exec player: %s answered the reset with %s, want {"type":"ready"}`, pr.name, quoteLine(line))
	}
	return nil
}

// Act sends obs to the agent and returns its reply line, unparsed: the
// caller parses it with ParseReply. u counts one call and its latency.
// Cancelling ctx while waiting kills the agent (the conversation would be
// out of step); the next Reset starts a new one.
func (p *Exec) Act(ctx context.Context, obs *protocol.Observation) (raw string, u Usage, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if obs == nil {
		return "", u, errors.New("exec player: nil observation")
	}
	if err := ctx.Err(); err != nil {
		return "", u, fmt.Errorf("exec player: act: %w", err)
	}
	p.smu.Lock()
	closed, pr := p.closed, p.proc
	p.smu.Unlock()
	if closed {
		return "", u, errExecClosed
	}
	if pr == nil {
		return "", u, errors.New("exec player: no agent running: Reset starts an episode (and restarts the agent after an error)")
	}
	o := *obs
	if o.Type == "" {
		o.Type = "observation"
	}
	msg, err := encodeLine(&o)
	if err != nil {
		return "", u, fmt.Errorf("exec player: observation: %w", err)
	}
	what := fmt.Sprintf("the observation of step %d", obs.Step)
	start := time.Now()
	line, err := p.exchange(ctx, pr, msg, what)
	u = Usage{Calls: 1, LatencyMs: int(time.Since(start).Milliseconds())}
	if err != nil {
		return "", u, err
	}
	if !json.Valid(line) {
		p.discard(pr)
		return "", u, execErr(errAgentBroke, "exec player: %s answered %s with invalid JSON: %s%s", pr.name, what, quoteLine(line), pr.stderrNote())
	}
	return string(line), u, nil
}

// Close ends the player: it closes the agent's stdin, gives it a moment to
// exit, kills it if it has not, and reaps it. It interrupts a Reset or Act
// in progress. How the agent exits is not the evaluator's concern: Close
// returns nil. Later calls to Reset and Act fail; Close may be called
// again.
func (p *Exec) Close() error {
	p.smu.Lock()
	pr := p.proc
	p.proc, p.closed = nil, true
	p.smu.Unlock()
	if pr != nil {
		pr.stop(execCloseGrace)
	}
	return nil
}

// start starts the agent and makes it the current one.
func (p *Exec) start() (*execProc, error) {
	p.smu.Lock()
	defer p.smu.Unlock()
	if p.closed {
		return nil, errExecClosed
	}
	var cmd *exec.Cmd
	var sb *sandbox.Process
	if p.opts.NoSandbox {
		cmd = exec.Command(p.opts.Command[0], p.opts.Command[1:]...)
		cmd.Dir = p.opts.Dir
		if len(p.opts.Env) > 0 {
			cmd.Env = append(os.Environ(), p.opts.Env...)
		}
		ownGroup(cmd)
	} else {
		var err error
		if sb, err = sandbox.New(sandbox.Options{Command: p.opts.Command, Dir: p.opts.Dir, Env: p.opts.Env, Hidden: p.opts.Hidden}); err != nil {
			return nil, fmt.Errorf("exec player: %w", err)
		}
		cmd = sb.Cmd
	}
	cmd.WaitDelay = execWaitDelay
	tail := &tailWriter{w: p.opts.Stderr}
	cmd.Stderr = tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("exec player: %w", err)
	}
	// Our own pipe rather than StdoutPipe: Wait must not close stdout
	// before the last lines are read.
	r, w, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, fmt.Errorf("exec player: %w", err)
	}
	cmd.Stdout = w
	if sb != nil {
		err = sb.Start()
	} else {
		err = cmd.Start()
	}
	w.Close()
	if err != nil {
		stdin.Close()
		r.Close()
		if sb != nil {
			return nil, fmt.Errorf("exec player: %w%s", err, quoteStderr(tail))
		}
		return nil, fmt.Errorf("exec player: starting %q: %w", strings.Join(p.opts.Command, " "), err)
	}
	pr := &execProc{
		name:   fmt.Sprintf("agent %s (pid %d)", filepath.Base(p.opts.Command[0]), cmd.Process.Pid),
		cmd:    cmd,
		sb:     sb,
		stdin:  stdin,
		stdout: r,
		stderr: tail,
		lines:  make(chan execLine),
		quit:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	pr.wg.Add(2)
	go pr.wait()
	go pr.read()
	p.proc = pr
	return pr, nil
}

// discard kills pr, reaps it, and forgets it if it is the current agent.
func (p *Exec) discard(pr *execProc) {
	pr.stop(0)
	p.smu.Lock()
	if p.proc == pr {
		p.proc = nil
	}
	p.smu.Unlock()
}

// exchange sends msg (one line) to pr and returns its one-line answer.
// Any error discards pr. what names the message in errors.
func (p *Exec) exchange(ctx context.Context, pr *execProc, msg []byte, what string) ([]byte, error) {
	// A line waiting already was not asked for, or is the end of the stream.
	select {
	case l := <-pr.lines:
		if l.err != nil {
			return nil, p.ended(pr, l.err, "before "+what)
		}
		p.discard(pr)
		return nil, execErr(errAgentBroke, "exec player: %s wrote a line nobody asked for, before %s: %s", pr.name, what, quoteLine(l.line))
	default:
	}
	written, ok := pr.write(msg)
	if !ok {
		return nil, errExecClosed
	}
	timer := time.NewTimer(p.opts.Timeout)
	defer timer.Stop()
	lines := pr.lines
	var line []byte
	for written != nil || lines != nil {
		select {
		case err := <-written:
			written = nil
			if err != nil {
				return nil, p.ended(pr, fmt.Errorf("writing %s: %w", what, err), "while sending "+what)
			}
		case l := <-lines:
			if l.err == errLineTooLong {
				p.discard(pr)
				return nil, execErr(errAgentBroke, "exec player: %s answered %s with a %v%s", pr.name, what, l.err, pr.stderrNote())
			}
			if l.err != nil {
				return nil, p.ended(pr, l.err, "while waiting for the answer to "+what)
			}
			line, lines = l.line, nil
		case <-timer.C:
			p.discard(pr)
			return nil, execErr(errAgentTimeout, "exec player: timeout: %s did not answer %s within %v; killed it%s", pr.name, what, p.opts.Timeout, pr.stderrNote())
		case <-ctx.Done():
			p.discard(pr)
			return nil, fmt.Errorf("exec player: waiting for %s to answer %s: %w; killed it", pr.name, what, ctx.Err())
		case <-pr.quit:
			p.discard(pr)
			return nil, errExecClosed
		}
	}
	return line, nil
}

// ended reports the end of pr's output (cause), with its exit status if it
// exits soon, and discards it.
func (p *Exec) ended(pr *execProc, cause error, when string) error {
	t := time.NewTimer(execExitWait)
	defer t.Stop()
	select {
	case <-pr.exited:
		p.discard(pr)
		return execErr(errAgentExited, "exec player: %s exited with %s %s%s", pr.name, pr.status(), when, pr.stderrNote())
	case <-pr.quit:
		p.discard(pr)
		return errExecClosed
	case <-t.C:
	}
	p.discard(pr)
	if cause == io.EOF {
		cause = errors.New("closed its stdout")
	}
	return execErr(errAgentBroke, "exec player: %s %v %s; killed it%s", pr.name, cause, when, pr.stderrNote())
}

// execError is an error of the agent, of a kind (errAgentExited, …) that
// it unwraps to without repeating it.
type execError struct {
	kind error
	msg  string
}

func (e *execError) Error() string { return e.msg }
func (e *execError) Unwrap() error { return e.kind }

func execErr(kind error, format string, args ...any) error {
	return &execError{kind, fmt.Sprintf(format, args...)}
}

// execProc is one run of the agent.
type execProc struct {
	name   string
	cmd    *exec.Cmd
	sb     *sandbox.Process // its sandbox (nil: NoSandbox): cmd is the sandbox's init
	stdin  io.WriteCloser
	stdout *os.File
	stderr *tailWriter

	lines  chan execLine // the reader's lines, then one error (io.EOF at the end)
	quit   chan struct{} // closed by stop: goroutines stop sending
	exited chan struct{} // closed when Wait has returned

	mu       sync.Mutex // guards stopping and wg.Add
	stopping bool
	wg       sync.WaitGroup // the waiter, the reader and writes in progress
	once     sync.Once
}

type execLine struct {
	line []byte
	err  error
}

func (pr *execProc) wait() {
	defer pr.wg.Done()
	_ = pr.cmd.Wait() // the status is in cmd.ProcessState
	if pr.sb != nil {
		pr.sb.Close()
	}
	close(pr.exited)
}

// kill kills the agent and everything it started: its sandbox (the
// kernel kills every process of a PID namespace with its init), or
// unsandboxed its process group.
func (pr *execProc) kill() {
	if pr.sb != nil {
		pr.sb.Kill()
		return
	}
	killGroup(pr.cmd.Process)
}

func (pr *execProc) read() {
	defer pr.wg.Done()
	br := bufio.NewReaderSize(pr.stdout, 64<<10)
	for {
		line, err := readLine(br, execMaxLine)
		if len(bytes.TrimSpace(line)) > 0 && !pr.send(execLine{line: line}) {
			return
		}
		if err != nil {
			pr.send(execLine{err: err})
			return
		}
	}
}

func (pr *execProc) send(l execLine) bool {
	select {
	case pr.lines <- l:
		return true
	case <-pr.quit:
		return false
	}
}

// write writes msg to the agent's stdin in the background; false if pr is
// being stopped.
func (pr *execProc) write(msg []byte) (<-chan error, bool) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.stopping {
		return nil, false
	}
	done := make(chan error, 1)
	pr.wg.Add(1)
	go func() {
		defer pr.wg.Done()
		_, err := pr.stdin.Write(msg)
		done <- err
	}()
	return done, true
}

// stop closes the agent's stdin, waits up to grace for it to exit, kills it
// if needed, reaps it and waits for every goroutine of pr. Concurrent and
// repeated calls wait for the first one to finish.
func (pr *execProc) stop(grace time.Duration) {
	pr.once.Do(func() {
		pr.mu.Lock()
		pr.stopping = true
		pr.mu.Unlock()
		close(pr.quit)
		_ = pr.stdin.Close()
		if grace > 0 {
			t := time.NewTimer(grace)
			select {
			case <-pr.exited:
			case <-t.C:
			}
			t.Stop()
		}
		select {
		case <-pr.exited:
		default:
			pr.kill()
		}
		<-pr.exited
		pr.kill()             // what the agent started, still running without it
		_ = pr.stdout.Close() // unblocks the reader if a grandchild holds the pipe
		pr.wg.Wait()
	})
}

// status describes how the agent exited: "exit status 3", "signal: killed".
// Only after exited is closed.
func (pr *execProc) status() string {
	if pr.sb != nil {
		return pr.sb.Status()
	}
	if ps := pr.cmd.ProcessState; ps != nil {
		return ps.String()
	}
	return "an unknown status"
}

// stderrNote quotes the tail of the agent's stderr, if any, for an error.
func (pr *execProc) stderrNote() string { return quoteStderr(pr.stderr) }

// quoteStderr quotes the tail of an agent's stderr, if any, for an error.
func quoteStderr(t *tailWriter) string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	return fmt.Sprintf("; stderr: %q", s)
}

// readLine reads one line, without its "\n" or "\r\n". At the end of the
// input it returns the last, unterminated line, if any, with io.EOF.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > max+2 { // room for "\r\n"
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) > max {
			return nil, errLineTooLong
		}
		return line, err
	}
}

// encodeLine encodes v as one line of JSON, newline included.
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// quoteLine quotes the start of a line for an error.
func quoteLine(b []byte) string {
	const max = 200
	if len(b) > max {
		return fmt.Sprintf("%q… (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// tailWriter forwards writes to w, if any, ignoring its errors (the agent
// must never block on stderr), and keeps the last execStderrTail bytes.
type tailWriter struct {
	w   io.Writer
	mu  sync.Mutex
	buf []byte
}

func (t *tailWriter) Write(b []byte) (int, error) {
	if t.w != nil {
		_, _ = t.w.Write(b)
	}
	n := len(b)
	if len(b) > execStderrTail {
		b = b[len(b)-execStderrTail:]
	}
	t.mu.Lock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - execStderrTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.mu.Unlock()
	return n, nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// SplitCommand splits a command line into a program and its arguments, as
// a POSIX shell would for simple cases: words are separated by blanks;
// '…' quotes literally; "…" quotes with \" and \\ as escapes; outside
// quotes, a backslash escapes the next character. A leading "exec:" (the
// player specification's prefix) is dropped. There is no expansion of
// variables, globs or ~.
func SplitCommand(s string) ([]string, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "exec:")
	var (
		args   []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("command %q: unterminated '", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case '"':
			inWord = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, fmt.Errorf("command %q: unterminated \"", s)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
		case '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("command %q: trailing backslash", s)
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, errors.New("empty command")
	}
	return args, nil
}

// agentEnv resolves environment entries for an agent: NAME=VALUE as
// given, NAME from this process's environment.
func agentEnv(entries []string) ([]string, error) {
	var env []string
	for _, e := range entries {
		name, _, hasValue := strings.Cut(e, "=")
		if name == "" || strings.ContainsAny(name, " \t\n\x00") {
			return nil, fmt.Errorf("agent environment %q: want NAME or NAME=VALUE", e)
		}
		if !hasValue {
			v, ok := os.LookupEnv(name)
			if !ok {
				return nil, fmt.Errorf("agent environment %s: not set in longcraft's environment (NAME=VALUE sets a value)", name)
			}
			e = name + "=" + v
		}
		env = append(env, e)
	}
	return env, nil
}
