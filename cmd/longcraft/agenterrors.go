package main

import (
	"fmt"

	"github.com/longcraft/longcraft/bench/results"
)

// Exit codes of longcraft score (docs/players.md lists them, and score's
// --help): a script or a job scheduler reads them to tell a run that holds
// a score from one that does not. 4, results that do not match their
// traces, is the verifier's.
const (
	exitError       = 1 // bad usage, or the command failed
	exitAgentErrors = 3 // episodes ended agent_error (without --allow-agent-errors), or the agent could not start
)

// codedError is an error that ends the process with its code (exitCode
// reads it).
type codedError struct {
	code int
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }
func (e *codedError) ExitCode() int { return e.code }

// withExitCode gives err the exit code code.
func withExitCode(code int, err error) error { return &codedError{code: code, err: err} }

// agentErrorsExit is the error a finished run returns: err, or when
// episodes ended agent_error and they are not allowed, exit code 3 saying
// so (the files are written: the run is whole, its agent failed).
func agentErrorsExit(s results.Summary, allow bool, err error) error {
	if err != nil || s.AgentErrors == 0 || allow {
		return err
	}
	return withExitCode(exitAgentErrors, fmt.Errorf("%d of %d episodes ended agent_error (the agent failed, see \"agent_error\" in results.jsonl): the figures are not the agent's play; exit code 3 (--allow-agent-errors accepts them)", s.AgentErrors, s.Episodes))
}
