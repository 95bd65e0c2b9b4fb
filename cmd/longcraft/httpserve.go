package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// serveUntilDone serves hs on ln until ctx ends (Ctrl-C), then shuts it
// down gracefully: requests in flight get 5 seconds to finish.
func serveUntilDone(ctx context.Context, hs *http.Server, ln net.Listener) error {
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		done <- hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-done
}
