//go:build !unix

package player

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no Unix process groups.
func ownGroup(*exec.Cmd) {}

// killGroup kills p alone where there are no Unix process groups.
func killGroup(p *os.Process) { _ = p.Kill() }
