package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// moduleRoot finds the Longcraft checkout holding dir (or one of its
// parents): demo compiles the app there and bench runs its benchmarks.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil &&
			bytes.HasPrefix(b, []byte("module github.com/longcraft/longcraft\n")) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%s is not inside a Longcraft checkout: run from one (demo: or pass a built app with --app, from make wasm)", dir)
		}
		d = parent
	}
}
