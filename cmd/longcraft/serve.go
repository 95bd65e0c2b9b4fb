package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/serve"
)

func newServeCmd() *cobra.Command {
	var addr string
	var maxEpisodes int
	var idle time.Duration
	var maxBody int64
	var allowHosts []string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve tasks and seeded worlds over HTTP, a Gymnasium-shaped JSON API for agents in any language",
		Long: `serve runs an HTTP environment server: agents create an episode (a task by
family, tier, split and index, or a plain seeded world), step it by action name
and read observations, rewards and terminated/truncated flags, as in
Gymnasium. Routes and examples: docs/serve.md; a plain-Python client:
docs/serve_client.py.

The server listens on 127.0.0.1 by default: only this machine can connect. It
has no authentication: binding 0.0.0.0 (or any other non-loopback address)
lets every host that can reach the port create and play episodes.

Requests must name this server in their Host header: on a loopback address,
localhost, 127.0.0.1 or ::1; on another address, that address; add names
with --allow-host (bound to 0.0.0.0, :: or :PORT, the machine's own name and
addresses are accepted too). POST bodies must be sent as
Content-Type: application/json, and the server sends no CORS headers, so a web
page from another origin cannot drive it (DNS rebinding, cross-origin forms).

Limits: at most --max-episodes open episodes (more are refused with 503),
episodes idle for longer than --idle are deleted, request bodies over
--max-body bytes are refused with 413.`,
		Example: `  longcraft serve
  python3 docs/serve_client.py http://127.0.0.1:8642
  curl -s -X POST localhost:8642/v1/episodes -H 'Content-Type: application/json' -d '{"family":"obtain","tier":"easy","split":"train","index":0}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case maxEpisodes < 1:
				return fmt.Errorf("--max-episodes %d: at least 1", maxEpisodes)
			case idle < time.Second:
				return fmt.Errorf("--idle %s: at least 1s", idle)
			case maxBody < 1024:
				return fmt.Errorf("--max-body %d: at least 1024 bytes", maxBody)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			srv := serve.New(serve.Config{MaxEpisodes: maxEpisodes, Idle: idle, MaxBody: maxBody,
				Hosts: allowedHosts(ln.Addr(), allowHosts, machineNames)})
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
				WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
			bound := ln.Addr().String()
			if host, _, err := net.SplitHostPort(bound); err == nil {
				if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
					fmt.Fprintf(cmd.ErrOrStderr(), "warning: listening on %s, not a loopback address: the server has no authentication and any host that can reach it can play\n", bound)
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "serving Longcraft episodes on http://%s (at most %d open, idle expiry %s; routes in docs/serve.md)\n",
				bound, maxEpisodes, idle)

			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			// The janitor: requests expire idle episodes lazily; this frees
			// their memory when no request comes.
			go func() {
				tick := time.NewTicker(min(idle/2, time.Minute))
				defer tick.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-tick.C:
						srv.Sweep()
					}
				}
			}()
			return serveUntilDone(ctx, hs, ln)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&allowHosts, "allow-host", nil, "also answer requests whose Host header names this host (repeatable)")
	f.StringVar(&addr, "addr", "127.0.0.1:8642", "address to listen on (loopback by default; 0.0.0.0 exposes the server, which has no authentication, to the network)")
	f.IntVar(&maxEpisodes, "max-episodes", serve.DefaultMaxEpisodes, "open episodes at most (more are refused with 503)")
	f.DurationVar(&idle, "idle", serve.DefaultIdle, "delete episodes idle for longer than this")
	f.Int64Var(&maxBody, "max-body", serve.DefaultMaxBody, "refuse request bodies over this many bytes (64 KiB by default) with 413")
	return cmd
}

// allowedHosts are the host names a server bound at addr answers to: the
// loopback names on a loopback address, the address itself on another,
// and on an unspecified address (0.0.0.0, ::, ":PORT") the loopback names,
// the machine's name and every address of its interfaces (machine), so
// that a page the user visits cannot rebind a name of its own to it; plus
// extra in every case.
func allowedHosts(addr net.Addr, extra []string, machine func() []string) []string {
	var hosts []string
	for _, h := range extra {
		hosts = append(hosts, strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")))
	}
	host, _, err := net.SplitHostPort(addr.String())
	ip := net.ParseIP(host)
	switch {
	case err != nil || ip == nil:
	case ip.IsLoopback():
		hosts = append(hosts, "localhost", "127.0.0.1", "::1", host)
	case ip.IsUnspecified():
		hosts = append(hosts, "localhost", "127.0.0.1", "::1")
		hosts = append(hosts, machine()...)
	default:
		hosts = append(hosts, host)
	}
	slices.Sort(hosts)
	return slices.Compact(hosts)
}

// machineNames are this machine's host name and its interfaces' addresses,
// lower-case.
func machineNames() []string {
	var names []string
	if h, err := os.Hostname(); err == nil && h != "" {
		names = append(names, strings.ToLower(h))
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				names = append(names, ipn.IP.String())
			}
		}
	}
	return names
}
