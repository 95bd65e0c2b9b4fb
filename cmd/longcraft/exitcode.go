package main

import "errors"

// Exit codes of longcraft (docs/players.md lists them; score's --help
// too). A script or a job scheduler reads them to tell a run that holds a
// score from one that does not.
const (
	exitOK          = 0 // done
	exitError       = 1 // bad usage, or the command failed
	exitAgentErrors = 3 // score: episodes ended agent_error (without --allow-agent-errors), or the agent could not start
	exitUnverified  = 4 // the results do not match their traces
)

// exitCodeError is an error that ends the process with its code.
type exitCodeError struct {
	code int
	err  error
}

func (e *exitCodeError) Error() string { return e.err.Error() }
func (e *exitCodeError) Unwrap() error { return e.err }

// withExitCode gives err the exit code code.
func withExitCode(code int, err error) error { return &exitCodeError{code: code, err: err} }

// exitCode is the process's exit code for the error a command returned.
func exitCode(err error) int {
	var e *exitCodeError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &e):
		return e.code
	}
	return exitError
}
