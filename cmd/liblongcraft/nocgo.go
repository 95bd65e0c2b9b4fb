//go:build !cgo

// Command liblongcraft is the C ABI over bench/vec (see main.go); it
// needs cgo, so without it this stub says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "liblongcraft needs cgo: build it with CGO_ENABLED=1 go build -buildmode=c-shared (make python)")
	os.Exit(2)
}
