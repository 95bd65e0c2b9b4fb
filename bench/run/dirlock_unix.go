//go:build unix

package run

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes a flock on f (exclusive, or shared with other readers)
// without waiting; held is false when another open file holds it in a
// mode that excludes this one.
func tryLock(f *os.File, exclusive bool) (held bool, err error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
