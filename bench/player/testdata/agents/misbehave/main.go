// Command misbehave is an exec agent that breaks the protocol in the way
// its argument names:
//
//	notready  answers a reset with {"type":"hello"}
//	long      answers observations with a 2 MiB line
//	twice     answers observations with two lines
//	cwd       behaves, with its working directory as the reason
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: misbehave notready|long|twice|cwd")
		os.Exit(2)
	}
	mode := os.Args[1]
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 4<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var m struct {
			Type string `json:"type"`
		}
		json.Unmarshal(in.Bytes(), &m)
		switch {
		case m.Type == "reset" && mode == "notready":
			fmt.Fprintln(out, `{"type":"hello"}`)
		case m.Type == "reset":
			fmt.Fprintln(out, `{"type":"ready"}`)
		case mode == "long":
			fmt.Fprintf(out, "{\"action\":\"noop\",\"reason\":%q}\n", strings.Repeat("x", 2<<20))
		case mode == "twice":
			fmt.Fprint(out, "{\"action\":\"noop\"}\n{\"action\":\"do\"}\n")
		case mode == "cwd":
			wd, _ := os.Getwd()
			b, _ := json.Marshal(map[string]string{"action": "noop", "reason": wd})
			fmt.Fprintf(out, "%s\n", b)
		}
		out.Flush()
	}
}
