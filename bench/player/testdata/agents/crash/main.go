// Command crash is an exec agent that answers resets, replies to three
// observations, then exits with status 3.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 4<<20)
	replies := 0
	// Its process, as a token: a sandboxed agent's pid is the same in
	// every sandbox.
	process := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	for in.Scan() {
		var m struct {
			Type string `json:"type"`
		}
		json.Unmarshal(in.Bytes(), &m)
		if m.Type == "reset" {
			fmt.Println(`{"type":"ready"}`)
			continue
		}
		fmt.Printf("{\"action\":\"noop\",\"reason\":\"process %s\"}\n", process)
		if replies++; replies == 3 {
			fmt.Fprintln(os.Stderr, "crash agent: something went wrong, exiting with status 3")
			os.Exit(3)
		}
	}
}
