// Command good is a well-behaved exec agent: it answers every reset with
// {"type":"ready"} and every observation with a valid reply, alternating
// move_left and do. Its reason names its process (a token drawn at its
// start: a sandboxed agent's pid is the same in every sandbox), the episode's task, the
// fields the reset message carried, and the step, so that tests can check
// which process answered what and that a reset holds nothing but the task.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

type message struct {
	Type    string   `json:"type"`
	Task    string   `json:"task"`
	Step    int      `json:"step"`
	Actions []string `json:"actions"`
}

type reply struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
}

func main() {
	process := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	fmt.Fprintf(os.Stderr, "good agent: started, process %s\n", process)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 4<<20)
	out := json.NewEncoder(os.Stdout)
	var (
		task   string
		fields string
		n      int
	)
	for in.Scan() {
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "good agent:", err)
			os.Exit(2)
		}
		switch m.Type {
		case "reset":
			var all map[string]any
			_ = json.Unmarshal(in.Bytes(), &all)
			var keys []string
			for k := range all {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			task, fields, n = m.Task, strings.Join(keys, ","), 0
			out.Encode(map[string]string{"type": "ready"})
		case "observation":
			action := "move_left"
			if n%2 == 1 {
				action = "do"
			}
			n++
			out.Encode(reply{action, fmt.Sprintf("process %s task %s reset %s step %d", process, task, fields, m.Step)})
		default:
			fmt.Fprintf(os.Stderr, "good agent: unexpected message type %q\n", m.Type)
			os.Exit(2)
		}
	}
	fmt.Fprintln(os.Stderr, "good agent: stdin closed, exiting")
}
