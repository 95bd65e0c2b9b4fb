package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// startTimeout bounds the init's setup, from its start to the agent's.
const startTimeout = 20 * time.Second

// Process is an agent started in a sandbox: Cmd is its init (pid 1 of the
// namespace, a re-execution of this binary), whose stdin, stdout and
// stderr the agent inherits. Set them on Cmd, call Start instead of
// Cmd.Start, Cmd.Wait as usual, and Close once it has returned.
type Process struct {
	Cmd *exec.Cmd

	cfg      []byte
	status   *os.File // the init's reports: "ok", then "exit STATUS", or "error: WHY"
	lifeline *os.File // its write end: when it closes (the evaluator ends), the init ends the sandbox
	exit     chan string
}

// New prepares the sandbox of o.Command; nothing starts yet. An error says
// why the command cannot be run (a program that does not exist, …).
func New(o Options) (*Process, error) {
	argv, files, err := Resolve(o.Command, o.Dir)
	if err != nil {
		return nil, fmt.Errorf("starting %q: %w", strings.Join(o.Command, " "), err)
	}
	return newProcess(config{Argv: argv, Env: append(MinimalEnv(), o.Env...), Hidden: hidden(o.Hidden), Expose: exposed(files)})
}

func newProcess(c config) (*Process, error) {
	cfg, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	cmd := &exec.Cmd{Path: "/proc/self/exe", Args: []string{initArg0}, Env: []string{initEnv + "=1"}}
	// Inside, the caller's user and group are root, with every capability
	// over the new namespaces only (the init mounts with them, then drops
	// them all before the agent starts). Its own session (and so process
	// group) keeps the terminal's Ctrl-C for the evaluator, and leaves the
	// sandbox without a controlling terminal: in the evaluator's session
	// the agent could open /dev/tty, print on the user's terminal and push
	// keystrokes into its input (TIOCSTI) for the user's shell to run.
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		Setsid:      true,
	}
	return &Process{Cmd: cmd, cfg: cfg, exit: make(chan string, 1)}, nil
}

// Start starts the init and waits until it has started the agent. On an
// error nothing is left running (the init is killed and reaped).
func (p *Process) Start() error {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return err
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		return err
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		stR.Close()
		stW.Close()
		return err
	}
	p.Cmd.ExtraFiles = []*os.File{cfgR, stW, lifeR} // fds 3, 4, 5
	err = p.Cmd.Start()
	cfgR.Close()
	stW.Close()
	lifeR.Close()
	if err != nil {
		cfgW.Close()
		stR.Close()
		lifeW.Close()
		return unavailable("starting its init in new user, PID and mount namespaces: " + explain(err))
	}
	p.status, p.lifeline = stR, lifeW
	go func() {
		_, _ = cfgW.Write(p.cfg)
		cfgW.Close()
	}()
	br := bufio.NewReader(stR)
	first := make(chan string, 1)
	go func() {
		line, _ := br.ReadString('\n')
		first <- strings.TrimSpace(line)
		rest, _ := io.ReadAll(br)
		p.exit <- strings.TrimPrefix(strings.TrimSpace(string(rest)), "exit ")
	}()
	t := time.NewTimer(startTimeout)
	defer t.Stop()
	var line string
	select {
	case line = <-first:
	case <-t.C:
		line = fmt.Sprintf("error: the sandbox did not start the agent within %v", startTimeout)
	}
	if line == "ok" {
		return nil
	}
	p.Kill()
	_ = p.Cmd.Wait()
	p.Close()
	if line == "" {
		return unavailable(fmt.Sprintf("its init exited (%v) before starting the agent", p.Cmd.ProcessState))
	}
	msg := strings.TrimPrefix(line, "error: ")
	if strings.HasPrefix(msg, "setup: ") {
		return unavailable(strings.TrimPrefix(msg, "setup: "))
	}
	return errors.New(msg)
}

// Kill kills the init, and with it every process of the sandbox.
func (p *Process) Kill() {
	if p.Cmd.Process != nil {
		_ = p.Cmd.Process.Signal(syscall.SIGKILL)
	}
}

// Status says how the agent exited ("exit status 3", "signal: killed"),
// once Cmd.Wait has returned: as the init saw it, or the init's own
// status if it reported none (it was killed).
func (p *Process) Status() string {
	select {
	case s := <-p.exit:
		p.exit <- s
		if s != "" {
			return s
		}
	case <-time.After(time.Second):
	}
	if ps := p.Cmd.ProcessState; ps != nil {
		return ps.String()
	}
	return "an unknown status"
}

// Close releases the pipes; a sandbox still running ends.
func (p *Process) Close() {
	if p.lifeline != nil {
		p.lifeline.Close()
	}
	if p.status != nil {
		p.status.Close()
	}
}

// Check sets a sandbox up and tears it down, starting no agent: nil when
// exec agents can be sandboxed here, else an error saying why (wrapping
// ErrUnavailable).
func Check() error {
	p, err := newProcess(config{Env: MinimalEnv()})
	if err != nil {
		return err
	}
	if err := p.Start(); err != nil {
		if !errors.Is(err, ErrUnavailable) {
			err = unavailable(err.Error())
		}
		return err
	}
	err = p.Cmd.Wait()
	p.Close()
	if err != nil {
		return unavailable(fmt.Sprintf("the probe sandbox exited with %v", err))
	}
	return nil
}

// explain adds what the usual causes of a failure to create namespaces
// mean.
func explain(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return err.Error() + ": the limit of user namespaces is reached or zero (sysctl user.max_user_namespaces)"
	case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EACCES):
		return err.Error() + ": unprivileged user namespaces are not allowed here (sysctl kernel.unprivileged_userns_clone, kernel.apparmor_restrict_unprivileged_userns, or a container's seccomp profile)"
	case errors.Is(err, syscall.EINVAL):
		return err.Error() + ": this kernel lacks user or PID namespaces"
	}
	return err.Error()
}
