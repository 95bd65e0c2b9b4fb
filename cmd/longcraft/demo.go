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

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/wasm/web"
)

func newDemoCmd() *cobra.Command {
	var addr, app, traces string
	var heldOut bool
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
			if traces != "" {
				if st, err := os.Stat(traces); err != nil || !st.IsDir() {
					return fmt.Errorf("--traces %s: not a directory", traces)
				}
				if err := refuseHeldOut(traces, heldOut); err != nil {
					return err
				}
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
	f.BoolVar(&heldOut, "held-out", false, "serve the traces of a run on held-out seeds (--salt) anyway: once its salt is revealed, or where no agent under test can reach this address")
	return cmd
}

// refuseHeldOut refuses to serve dir's traces when it holds a run on
// held-out seeds, unless allowed: its traces are the held-out worlds and
// plays that win them, and whatever can reach the server (a sandboxed
// exec agent shares the host's network) could fetch them while other
// agents are scored on the same salt (docs/tasks.md's protocol).
func refuseHeldOut(dir string, allowed bool) error {
	if allowed {
		return nil
	}
	def, err := results.ReadDefinition(dir)
	if err != nil || def.SaltCommitment == "" {
		return nil // not a run directory, or public seeds: nothing held out
	}
	return fmt.Errorf("--traces %s: a run on held-out seeds (salt commitment %.12s…): its traces give away the held-out worlds and winning plays to anything that can reach this server, an agent under test included; serve them once the salt is revealed, with --held-out", dir, def.SaltCommitment)
}
