package vec

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool is the goroutines that step batches: one per thread past the
// first (the caller's goroutine is thread 0). Batches made with one Pool
// share its goroutines, so a host stepping several batches in turn (a
// batch and its clone, a training and an evaluation batch) keeps one set
// of workers spinning instead of waking another set every step: with a
// pool each, and workers that spin after their batch's step, the next
// batch's workers waited for a P or a futex wake-up, about 100–200 µs a
// step on the 2-core VM. A pool runs one operation at a time.
//
// Between operations a worker spins on the generation counter before it
// parks (a host calling step after step, as a learner does, then never
// waits for a wake-up), and so does the caller waiting for the workers.
type Pool struct {
	threads int
	spin    int  // polls before parking: spinPolls, or 0 with more threads than GOMAXPROCS
	owned   bool // made by New for a batch: stopped when its last batch closes

	mu    sync.Mutex // one operation at a time; guards refs
	refs  int        // open batches on the pool
	batch *Batch     // the current operation's batch and op, published by gen
	op    int

	gen        atomic.Uint64 // advanced by each operation (and Close)
	pending    atomic.Int64  // workers yet to finish the current operation
	parked     []atomic.Bool // worker k is parked on wake[k]
	wake       []chan struct{}
	mainParked atomic.Bool // run is parked on finished
	finished   chan struct{}
	closed     atomic.Bool
	panicked   atomic.Pointer[panicValue] // a worker's panic, raised again by run
}

// spinPolls is how many times a waiting goroutine polls its atomic before
// it parks: about 110–130 µs on the 2-core AMD EPYC VM, longer than a host
// takes between two calls (Python's step wrapper, 10–40 µs), so that a
// host stepping call after call never waits for a futex wake-up, and
// short enough not to keep a core from a host that thinks between calls.
// It polls with plain loads and never calls runtime.Gosched: each Gosched
// ran the scheduler, which woke idle threads that took CPU time from the
// host's own thread. From Python, 64 worlds stepped at 0.45–0.51 M
// env-steps/s with a Gosched per poll, 0.47–0.51 M with one every 1,024
// polls, and 0.59–0.68 M with none (512 worlds: 0.68–0.74, 0.66–0.71 and
// 0.86–0.97 M). A pool with more threads than GOMAXPROCS does not spin
// at all, since a spinning goroutine would hold a P another needs.
const spinPolls = 100_000

// NewPool starts a pool of threads goroutines (0: GOMAXPROCS) for batches
// to share (Config.Pool). Close stops it, once its batches are closed.
func NewPool(threads int) (*Pool, error) {
	if threads < 0 || threads > 1024 {
		return nil, fmt.Errorf("vec: pool of %d threads: want 0 (every core) to 1024", threads)
	}
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	p := &Pool{threads: threads, spin: spinPolls}
	if threads > runtime.GOMAXPROCS(0) {
		p.spin = 0
	}
	p.wake, p.parked, p.finished = make([]chan struct{}, threads), make([]atomic.Bool, threads), make(chan struct{}, 1)
	for k := 1; k < threads; k++ {
		p.wake[k] = make(chan struct{}, 1)
		go p.worker(k)
	}
	return p, nil
}

// Threads returns the pool's thread count.
func (p *Pool) Threads() int { return p.threads }

// Close stops the pool's goroutines. Batches still open on it keep it
// running until they close; it is not used after.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.owned = true // stop when the last batch closes, or now
	if p.refs == 0 {
		p.stop()
	}
}

// attach and detach count the batches open on the pool.
func (p *Pool) attach() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		return fmt.Errorf("vec: pool closed")
	}
	p.refs++
	return nil
}

func (p *Pool) detach() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refs--
	if p.refs == 0 && p.owned {
		p.stop()
	}
}

// stop ends the workers; p.mu is held.
func (p *Pool) stop() {
	if p.closed.Swap(true) {
		return
	}
	p.gen.Add(1)
	p.signal()
}

// worker runs thread k's share of every operation until the pool stops.
func (p *Pool) worker(k int) {
	var seen uint64
	for {
		seen = p.await(k, seen)
		if p.closed.Load() {
			return
		}
		p.batch.runSpan(k, p.op)
		if p.pending.Add(-1) == 0 && p.mainParked.CompareAndSwap(true, false) {
			p.finished <- struct{}{}
		}
	}
}

// await returns the next generation after seen: it spins, then parks on
// wake[k]. A wake token is sent only by whoever clears parked[k], and
// each clearing is matched by exactly one receive here, so none is left
// over.
func (p *Pool) await(k int, seen uint64) uint64 {
	for polls := 0; ; polls++ {
		if g := p.gen.Load(); g != seen {
			return g
		}
		if polls < p.spin {
			continue
		}
		p.parked[k].Store(true)
		if g := p.gen.Load(); g != seen { // the operation came as we parked
			if !p.parked[k].CompareAndSwap(true, false) {
				<-p.wake[k] // run cleared the flag: take its token
			}
			return g
		}
		<-p.wake[k]
		polls = 0
	}
}

// signal wakes the parked workers.
func (p *Pool) signal() {
	for k := 1; k < p.threads; k++ {
		if p.parked[k].CompareAndSwap(true, false) {
			p.wake[k] <- struct{}{}
		}
	}
}

// run runs op on every world of b: thread 0 on this goroutine, the others
// on the pool's; nothing allocates. A worker's panic is raised again here.
func (p *Pool) run(b *Batch, op int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		panic("vec: pool used after Close")
	}
	p.batch, p.op = b, op
	p.pending.Store(int64(p.threads - 1))
	p.gen.Add(1) // publishes batch, op and the batch's actions to the workers
	p.signal()
	b.runSpan(0, op)
	p.wait()
	p.batch = nil
	if pv := p.panicked.Swap(nil); pv != nil {
		panic(pv.v)
	}
}

// panicValue carries a pool goroutine's panic to the caller.
type panicValue struct{ v any }

// wait returns once every worker has finished the current operation:
// it spins, then parks on finished, which the last worker signals.
func (p *Pool) wait() {
	for polls := 0; p.pending.Load() != 0; polls++ {
		if polls < p.spin {
			continue
		}
		p.mainParked.Store(true)
		if p.pending.Load() == 0 {
			if !p.mainParked.CompareAndSwap(true, false) {
				<-p.finished // the last worker cleared the flag: take its token
			}
			return
		}
		<-p.finished
		return
	}
}
