package main

import "errors"

// exitCode is the process's exit code for the error a command returned:
// the code the error carries (an ExitCode method, as run.VerifyError's 4:
// results that do not match their traces), else 1.
func exitCode(err error) int {
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		return coded.ExitCode()
	}
	return 1
}
