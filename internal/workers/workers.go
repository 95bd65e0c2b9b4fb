// Package workers is the one worker pool: indexed jobs spread over a
// fixed number of goroutines, each holding its own state (a world, an
// agent's connection, a planner's scratch), as the runner, the lock
// maker and the rollouts use it. Results must not depend on which worker
// runs a job; only the order in which jobs finish does.
//
// It owns concurrency only, and must not import the benchmark packages.
package workers

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool describes a run: how many jobs, over how many goroutines (0: one
// per core, never more than there are jobs), and each worker's state.
type Pool[S any] struct {
	Jobs    int
	Workers int
	// New makes worker k's state; an error stops the run and is returned.
	New func(k int) (S, error)
	// Release frees a worker's state when it stops (nil: nothing to free).
	Release func(S)
}

// Run runs job(s, i) for every i < Jobs, each on one worker with its
// state. The first error a job or New returns stops the start of further
// jobs and is returned once running ones end; so does ctx's cancellation
// (its error is returned).
func (p Pool[S]) Run(ctx context.Context, job func(s S, i int) error) error {
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, p.Jobs))
	var next atomic.Int64
	var stopped atomic.Bool
	var mu sync.Mutex
	var first error
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		stopped.Store(true)
	}
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := p.New(k)
			if err != nil {
				fail(err)
				return
			}
			if p.Release != nil {
				defer p.Release(s)
			}
			for ctx.Err() == nil && !stopped.Load() {
				i := int(next.Add(1) - 1)
				if i >= p.Jobs {
					return
				}
				if err := job(s, i); err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}
