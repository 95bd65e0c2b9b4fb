package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/wasm/web"
)

func newDemoCmd() *cobra.Command {
	var addr, app, traces string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Build the WebAssembly app and serve the browser demo: play, watch, replay, record",
		Long: `demo compiles the browser app (GOOS=js GOARCH=wasm go build ./wasm, cached by
Go, so a rebuild without changes is quick) and serves it with its pages on
http://127.0.0.1:8080. Everything is served from this machine: the page works
offline.

In the page: Play a task with the keyboard (the legend lists the keys), Watch
a built-in agent (pause, step, speed), open a .lctrace to Replay it (file
picker, drag and drop, or /?trace=traces/FILE for the files of --traces),
scrub its timeline and step back and forth, and Download trace to save your
own play as a human baseline that 'longcraft replay' verifies.

With --app DIR the app already built there (make wasm writes build/web) is
served and nothing is compiled, so a Go toolchain is not needed.`,
		Example: `  longcraft demo
  longcraft demo --traces runs/explorer     # then open /?trace=traces/traces.lctrace
  make wasm && longcraft demo --app build/web --addr 127.0.0.1:9000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if app == "" {
				wd, err := os.Getwd()
				if err != nil {
					return err
				}
				root, err := moduleRoot(wd)
				if err != nil {
					return err
				}
				app = filepath.Join(root, "build", "web")
				fmt.Fprintf(cmd.ErrOrStderr(), "building the WebAssembly app into %s...\n", app)
				if err := web.Build(ctx, root, app); err != nil {
					return err
				}
			} else if _, err := os.Stat(filepath.Join(app, "longcraft.wasm")); err != nil {
				return fmt.Errorf("--app %s: no longcraft.wasm there (make wasm builds build/web): %w", app, err)
			}
			if traces != "" {
				if st, err := os.Stat(traces); err != nil || !st.IsDir() {
					return fmt.Errorf("--traces %s: not a directory", traces)
				}
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			hs := &http.Server{Handler: web.Handler(app, traces), ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(cmd.OutOrStdout(), "Longcraft demo on http://%s/ (Ctrl-C stops)\n", ln.Addr())
			return serveUntilDone(ctx, hs, ln)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.StringVar(&app, "app", "", "serve the app built in this directory (longcraft.wasm, wasm_exec.js) instead of building it")
	f.StringVar(&traces, "traces", "", "serve this directory's files under /traces/, for /?trace=traces/FILE links")
	return cmd
}
