// Command good is a well-behaved exec agent: it answers every reset with
// {"type":"ready"} and every observation with a valid reply, alternating
// move_left and do. Its reason names its pid, the episode's task and seed,
// and the step, so that tests can check which process answered what.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

type message struct {
	Type    string   `json:"type"`
	Task    string   `json:"task"`
	Seed    uint64   `json:"seed"`
	Step    int      `json:"step"`
	Actions []string `json:"actions"`
}

type reply struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
}

func main() {
	fmt.Fprintf(os.Stderr, "good agent: started, pid %d\n", os.Getpid())
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 4<<20)
	out := json.NewEncoder(os.Stdout)
	var (
		task string
		seed uint64
		n    int
	)
	for in.Scan() {
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "good agent:", err)
			os.Exit(2)
		}
		switch m.Type {
		case "reset":
			task, seed, n = m.Task, m.Seed, 0
			out.Encode(map[string]string{"type": "ready"})
		case "observation":
			action := "move_left"
			if n%2 == 1 {
				action = "do"
			}
			n++
			out.Encode(reply{action, fmt.Sprintf("pid %d task %s seed %d step %d", os.Getpid(), task, seed, m.Step)})
		default:
			fmt.Fprintf(os.Stderr, "good agent: unexpected message type %q\n", m.Type)
			os.Exit(2)
		}
	}
	fmt.Fprintln(os.Stderr, "good agent: stdin closed, exiting")
}
