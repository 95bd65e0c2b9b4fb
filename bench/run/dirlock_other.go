//go:build !unix

package run

import "os"

// tryLock cannot lock here (no flock): the directory is taken without a
// check, as docs/players.md says.
func tryLock(*os.File, bool) (bool, error) { return true, nil }
