// Command recorder is an exec agent that writes every line it receives to
// the file named by $LONGCRAFT_RECORD (appending), answers every reset with
// {"type":"ready"} and every observation with the next of its actions in
// turn, so that tests can check what an agent gets to read.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	rec, err := os.OpenFile(os.Getenv("LONGCRAFT_RECORD"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "recorder:", err)
		os.Exit(2)
	}
	defer rec.Close()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 4<<20)
	out := json.NewEncoder(os.Stdout)
	n := 0
	for in.Scan() {
		rec.Write(append(in.Bytes(), '\n'))
		var m struct {
			Type    string   `json:"type"`
			Actions []string `json:"actions"`
		}
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "recorder:", err)
			os.Exit(2)
		}
		if m.Type == "reset" {
			out.Encode(map[string]string{"type": "ready"})
			continue
		}
		n++
		out.Encode(map[string]string{"action": m.Actions[n%len(m.Actions)]})
	}
}
