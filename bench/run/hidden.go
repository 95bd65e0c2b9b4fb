package run

import (
	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/suite"
)

// hiddenPaths are the files of the run an exec agent must neither read
// nor write, whatever it knows of them: the run directory (results,
// traces, run.json, a kept lock, --salt random's salt.secret), a suite
// file and the lock beside it, and the salt file of --salt-file. An
// embedded suite and its lock are in the binary, public.
func hiddenPaths(o Options) []string {
	paths := []string{o.Out}
	if !suite.IsEmbedded(o.Suite) && !agent.IsRecorded(o.Suite) {
		paths = append(paths, o.Suite, suite.LockPath(o.Suite))
	}
	if o.SaltFile != "" {
		paths = append(paths, o.SaltFile)
	}
	return paths // the sandbox makes them absolute and adds their symlinks' targets
}
