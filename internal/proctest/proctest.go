// Package proctest is a test helper: it finds the processes a test's
// agents leave behind, by a marker in their command line, so that tests
// of the sandbox and of the exec transport can count what survives an
// agent, its episode or a SIGKILLed evaluator. The processes it counts are
// sleeps whose one argument is the marker, a duration no other process
// uses (Marker).
//
// It reads /proc (Linux) and must not import anything of Longcraft's.
package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Marker returns a sleep duration unique to this process and call (over
// 1,000 s, so that a marked sleep outlives any test).
func Marker() string {
	return fmt.Sprintf("1000.%d%09d", os.Getpid(), time.Now().UnixNano()%1e9)
}

// Sleeps lists the live processes `sleep MARKER` (zombies and dead
// processes are not counted).
func Sleeps(marker string) []int {
	var pids []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		args := strings.Split(string(cmd), "\x00")
		if err == nil && filepath.Base(args[0]) == "sleep" && len(args) > 1 && args[1] == marker && Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// WaitSleeps waits up to d for ok(the number of marked sleeps), and
// returns them.
func WaitSleeps(marker string, ok func(n int) bool, d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		got := Sleeps(marker)
		if ok(len(got)) || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// AtLeast and AtMost are WaitSleeps' conditions.
func AtLeast(n int) func(int) bool { return func(k int) bool { return k >= n } }
func AtMost(n int) func(int) bool  { return func(k int) bool { return k <= n } }

// KillSleeps kills the marked sleeps (a test's cleanup).
func KillSleeps(marker string) {
	for _, pid := range Sleeps(marker) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// Alive reports whether pid is a running process (a zombie waiting for
// its reaper is not).
func Alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}
