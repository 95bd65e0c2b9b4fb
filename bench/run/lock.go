package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/longcraft/longcraft/bench/results"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/planner"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/workers"
)

// LockFile is where a run keeps the lock of a suite file that had none
// beside it.
const LockFile = "suite.lock.json"

// LockSuite generates and certifies every episode of s across nWorkers
// goroutines (0: GOMAXPROCS) and returns the suite's lock; the lock does
// not depend on workers. progress, if not nil, is called after each task.
func LockSuite(ctx context.Context, s *suite.Suite, nWorkers int, progress func(done, total int)) (*suite.Lock, error) {
	specs := s.Expand()
	tasks := make([]*task.Task, len(specs))
	errs := make([]error, len(specs))
	var done atomic.Int64
	// One planner.Solver per worker: its scratch grids are reused.
	pool := workers.Pool[*planner.Solver]{Jobs: len(specs), Workers: nWorkers,
		New: func(int) (*planner.Solver, error) { return &planner.Solver{}, nil }}
	err := pool.Run(ctx, func(solver *planner.Solver, i int) error {
		tasks[i], errs[i] = task.GenerateWith(specs[i], certifiers(solver.Solve))
		if progress != nil {
			progress(int(done.Add(1)), len(specs))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Name the first few failures and count the rest: a sweep that makes
	// a scenario unsolvable fails every one of its episodes alike.
	var failed []error
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		shown := failed[:min(len(failed), 3)]
		more := ""
		if len(failed) > len(shown) {
			more = fmt.Sprintf("\n(and %d more)", len(failed)-len(shown))
		}
		return nil, fmt.Errorf("lock suite %s: %d of %d episodes cannot be made:\n%w%s", s.Name, len(failed), len(specs), errors.Join(shown...), more)
	}
	return suite.NewLock(s, tasks)
}

// relockCommand is what rewrites the lock of suite name.
func relockCommand(name string) string {
	if suite.IsEmbedded(name) {
		return "longcraft suite lock --suite " + name + " --out bench/suite/suites/" + name + ".lock.json"
	}
	return "longcraft suite lock --suite " + name
}

// runLock returns the lock a run plays o.Suite, loaded as s (nil for
// recorded play), from: the embedded suite's,
// the one beside a suite file, the one the run directory kept, or, for a
// suite file without one, a new one (certifying every episode once) that
// the run directory is to keep: save writes it, and the caller calls it
// only once the run is accepted (a refused resume leaves no lock behind).
// Without certification and without a lock it returns nil: tasks are
// generated uncertified. A lock made under other rules versions, or for
// other episodes, is refused.
func runLock(ctx context.Context, o Options, s *suite.Suite, progress func(done, total int)) (l *suite.Lock, save func() error, err error) {
	none := func() error { return nil }
	if agent.IsRecorded(o.Suite) {
		return nil, none, nil
	}
	relock := relockCommand(o.Suite)
	// A suite changed by --set or --sweep is not the suite its lock froze:
	// it is locked in the run directory like a suite file without a lock.
	if len(o.Set) == 0 && len(o.Sweep) == 0 {
		l, err = suite.LoadLock(o.Suite)
		switch {
		case err == nil:
			return l, none, l.Check(s, relock)
		case !errors.Is(err, suite.ErrNoLock):
			return nil, none, err
		case suite.IsEmbedded(o.Suite):
			return nil, none, fmt.Errorf("embedded suite %s has no lock: %w", o.Suite, err)
		}
	}
	kept := filepath.Join(o.Out, LockFile)
	if data, err := os.ReadFile(kept); err == nil {
		l, err := suite.ParseLock(kept, data)
		if err != nil {
			return nil, none, err
		}
		return l, none, l.Check(s, relock)
	}
	if !o.Certify || len(o.Salt) > 0 {
		// Held-out seeds are certified at run time (salt.go): a public
		// lock of this suite would certify every episode for nothing.
		return nil, none, nil
	}
	if l, err = LockSuite(ctx, s, o.Workers, progress); err != nil {
		return nil, none, err
	}
	save = func() error {
		data, err := l.Marshal()
		if err != nil {
			return err
		}
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return err
		}
		return results.WriteAtomic(kept, data)
	}
	return l, save, nil
}
