// Command garbage is an exec agent that answers resets, then replies to
// observations with lines that are not JSON.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 4<<20)
	for in.Scan() {
		var m struct {
			Type string `json:"type"`
		}
		json.Unmarshal(in.Bytes(), &m)
		if m.Type == "reset" {
			fmt.Println(`{"type":"ready"}`)
			continue
		}
		fmt.Println("hello world")
	}
}
