//go:build !linux

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

// Process is an agent started in a sandbox; there is none on this system.
type Process struct{ Cmd *exec.Cmd }

func unsupported() error {
	return unavailable(fmt.Sprintf("it needs Linux namespaces, and this is %s", runtime.GOOS))
}

// New fails: the sandbox needs Linux.
func New(Options) (*Process, error) { return nil, unsupported() }

// Start fails: the sandbox needs Linux.
func (p *Process) Start() error { return unsupported() }

// Kill does nothing.
func (p *Process) Kill() {}

// Status is the init's.
func (p *Process) Status() string { return "an unknown status" }

// Close does nothing.
func (p *Process) Close() {}

// Check says why there is no sandbox here.
func Check() error { return unsupported() }
