package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Build compiles the browser app (package ./wasm of the module at root)
// into dir/longcraft.wasm and copies Go's wasm_exec.js beside it, from the
// Go toolchain that builds it, so the loader always matches the binary.
// Go's build cache makes a rebuild without changes take about a second.
func Build(ctx context.Context, root, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("build wasm: %w", err)
	}
	out, err := filepath.Abs(filepath.Join(dir, "longcraft.wasm"))
	if err != nil {
		return fmt.Errorf("build wasm: %w", err)
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, "./wasm")
	cmd.Dir, cmd.Stderr = root, &stderr
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("build wasm (GOOS=js GOARCH=wasm go build ./wasm in %s): %w\n%s", root, err, stderr.String())
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("build wasm: go env GOROOT: %w", err)
	}
	js, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("build wasm: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644); err != nil {
		return fmt.Errorf("build wasm: %w", err)
	}
	return nil
}

// Handler serves the demo: the embedded pages, longcraft.wasm and
// wasm_exec.js from appDir, and, under /traces/, the .lctrace files of
// traceDir (when not empty) for links like /?trace=traces/run.lctrace.
// Everything is served from this machine: the page needs no network.
func Handler(appDir, traceDir string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServerFS(Pages))
	for _, name := range []string{"longcraft.wasm", "wasm_exec.js"} {
		path := filepath.Join(appDir, name)
		mux.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFile(w, r, path)
		})
	}
	if traceDir != "" {
		mux.Handle("/traces/", http.StripPrefix("/traces/", onlyTraces(http.Dir(traceDir))))
	}
	return mux
}

// onlyTraces serves the .lctrace files of dir and nothing else (no other
// file, no listing): dir is often a run directory, whose salt.secret,
// results and run.json must not reach whatever can talk to this server,
// a sandboxed exec agent included (it shares the host's network).
func onlyTraces(dir http.Dir) http.Handler {
	files := http.FileServer(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if path.Ext(r.URL.Path) != ".lctrace" {
			http.NotFound(w, r)
			return
		}
		f, err := dir.Open(r.URL.Path)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		st, err := f.Stat()
		f.Close()
		if err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}
