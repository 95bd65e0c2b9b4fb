// Command hang is an exec agent that answers resets, then never replies to
// an observation, and does not exit when its stdin is closed either.
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
	for in.Scan() {
		var m struct {
			Type string `json:"type"`
		}
		json.Unmarshal(in.Bytes(), &m)
		if m.Type == "reset" {
			fmt.Println(`{"type":"ready"}`)
		}
	}
	for {
		time.Sleep(time.Hour)
	}
}
