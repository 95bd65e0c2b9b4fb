//go:build unix

package player

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that stopping the
// agent stops whatever it started too (a shell's children, a model
// server's workers): none outlives the run.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills every process of the group p leads, p included. The
// group outlives its leader, so this is done after p exits too.
func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
