// Package vec steps a batch of seeded worlds in one call, for learned
// policies, world models and vision datasets: N episodes of free play (or
// of a ruleset's open-ended mode) advanced together across a fixed pool of
// goroutines, their observations, rewards and terminated and truncated
// flags written straight into buffers the caller owns (the C ABI of
// cmd/liblongcraft hands it NumPy arrays), with Gymnasium's NEXT_STEP
// autoreset. Each episode goes through bench/episode, the one episode
// rule; results do not depend on the number of threads.
//
// Worlds keep no generation scratch of their own: each thread keeps one,
// which a world takes when that thread resets it (sim.World.ShareScratch),
// so a world costs its state alone (about 18 KiB at 64×64). Each thread
// plays its own span of worlds first, then takes what is left of the
// others' (runSpan), asking the caches for the next worlds' memory as it
// goes (prefetch).
//
// It sits on sim, render, the task and episode layers; it must not
// import the runner, hosts or players, and does no I/O.
package vec

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// Config says what a batch plays.
type Config struct {
	N         int    // worlds
	Ruleset   string // classic (default) or extended
	Size      int    // map side (default 64)
	Budget    int    // steps per episode (default: the ruleset's episode length)
	Threads   int    // goroutines stepping the batch (0: GOMAXPROCS)
	ImageSize int    // side of the RGB agent views when Buffers.RGB is set (default 64)
	// Feedback and Observability are the episodes' (they change what an
	// episode's metrics count, not what is written: none and partial by
	// default, as in Crafter).
	Feedback      task.Feedback
	Observability task.Observability
	// Tasks, when given, are what the worlds play instead of free play:
	// world i's k-th episode is Tasks[(s + k·N) mod len(Tasks)], s its
	// seed stream (i unless Reset says otherwise), with its
	// goal, budget, feedback and observability (SuiteTasks picks a
	// suite's). They must all be of the batch's ruleset and size.
	Tasks []*task.Task
	// Pool, when given, is the goroutine pool the batch steps on, shared
	// with the host's other batches (see Pool); Threads must then be 0 or
	// the pool's. Without one the batch starts its own, which its clones
	// share and the last of them to close stops.
	Pool *Pool
}

// Buffers are the caller's arrays the batch writes into, row-major by
// world; nil ones are not written. Lengths: Symbolic N·81 (the 9×9 view),
// Inventory N·Items() (counts by item, vitals first), Semantic N·Size²,
// RGB N·ImageSize²·3; Reward, Terminated, Truncated N each. At an
// episode's end (Terminated or Truncated set) EpisodeReturn,
// EpisodeLength, Achievements (a bit set in ruleset order) and Success
// hold its figures; otherwise they are left as they were. Each field has
// one row in bufferTable (buffers.go), which BufferSpecs reports to hosts
// that allocate and bind buffers from it (cmd/liblongcraft, Python).
type Buffers struct {
	Symbolic, Inventory, Semantic, RGB []uint8
	Reward                             []float32
	Terminated, Truncated              []uint8
	EpisodeReturn                      []float32
	EpisodeLength                      []int32
	Achievements                       []uint64
	Success                            []uint8
}

// Batch is N worlds played together. It is not safe for concurrent use.
type Batch struct {
	cfg    Config
	rules  *sim.Rules
	worlds []*sim.World
	eps    []episode.Episode // one array, in world order: stepped in turn, it streams through the caches
	tasks  []*task.Task
	// free is the free-play task every world plays when no tasks are
	// given, made once: the batch seeds each world itself (begin), and
	// nothing reads a task's seed during an episode, so an episode's
	// reset allocates nothing.
	free   *task.Task
	seeds  []uint64 // each world's seed stream, set by Reset
	count  []uint64 // episodes begun per world
	reset  []bool   // NEXT_STEP: the episode ended on the last step; the next step resets it
	narrow []int32  // the actions of the step, as checked (Step, StepInt64), which the workers read
	buf    Buffers
	// started: Reset has run (Step before it is an error).
	started bool

	threads int
	owners  []*sim.World        // one generation scratch per thread
	views   []*render.AgentView // one renderer per thread (RGB)
	// frames is one frame per thread that the renderer draws into, in the
	// thread's own cache, before streamFrame copies it out (RGB; see
	// observe). directRGB draws into the caller's buffer instead (the
	// plain path, for the benchmark and test that compare both).
	frames    [][]byte
	directRGB bool
	atlas     *render.Atlas
	// cursors[k] is the next world of span k not yet taken, during an
	// operation (see runSpan); grain is how many worlds a take claims.
	cursors []cursor
	grain   int
	// noPrefetch turns off asking for the next worlds' memory ahead: set
	// by New for batches the caches hold, and by the benchmarks that
	// compare both (see prefetch).
	noPrefetch bool
	// beforeWorld, when set (tests), runs on thread k before it plays world i.
	beforeWorld func(k, i int)

	pool   *Pool
	closed atomic.Bool
}

// The operations the pool runs on every world.
const (
	opReset = iota
	opStep
	opObserve
)

// New makes a batch; Reset starts its episodes.
func New(cfg Config, atlas *render.Atlas) (*Batch, error) {
	if cfg.N < 1 || cfg.N > 1<<20 {
		return nil, fmt.Errorf("vec: %d worlds: want 1 to %d", cfg.N, 1<<20)
	}
	if cfg.Ruleset == "" {
		cfg.Ruleset = "classic"
	}
	r, err := sim.RulesByName(cfg.Ruleset)
	if err != nil {
		return nil, fmt.Errorf("vec: %w", err)
	}
	if cfg.Size == 0 {
		cfg.Size = sim.DefaultSize
	}
	if cfg.Budget == 0 {
		cfg.Budget = int(r.Vitals.EpisodeLength)
	}
	if cfg.Budget < 1 {
		return nil, fmt.Errorf("vec: budget %d", cfg.Budget)
	}
	if cfg.ImageSize == 0 {
		cfg.ImageSize = 64
	}
	if cfg.Feedback == "" {
		cfg.Feedback = task.FeedbackNone
	}
	if cfg.Observability == "" {
		cfg.Observability = task.Partial
	}
	if !cfg.Feedback.Valid() || !cfg.Observability.Valid() {
		return nil, fmt.Errorf("vec: feedback %q, observability %q", cfg.Feedback, cfg.Observability)
	}
	for _, t := range cfg.Tasks {
		if t.Rules().Name != r.Name && !strings.HasPrefix(t.Rules().Name, r.Name+"+") || t.MapSize != cfg.Size || t.Actions == task.ActionsSkills {
			return nil, fmt.Errorf("vec: task %s is %s on %d×%d at the %s level; the batch plays %s on %d×%d with primitive actions", t.ID, t.Rules().Name, t.MapSize, t.MapSize, t.Actions, r.Name, cfg.Size, cfg.Size)
		}
	}
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = min(threads, cfg.N) // a batch's own pool needs no idle threads
	if cfg.Pool != nil {
		if cfg.Threads != 0 && cfg.Threads != cfg.Pool.threads {
			return nil, fmt.Errorf("vec: %d threads on a pool of %d", cfg.Threads, cfg.Pool.threads)
		}
		threads = cfg.Pool.threads // spans past N are empty
	}
	tpl, err := sim.New(sim.Config{Width: cfg.Size, Height: cfg.Size, Rules: r})
	if err != nil {
		return nil, fmt.Errorf("vec: %w", err)
	}
	b := &Batch{cfg: cfg, rules: r, threads: threads, atlas: atlas,
		worlds: make([]*sim.World, cfg.N), eps: make([]episode.Episode, cfg.N), tasks: make([]*task.Task, cfg.N),
		seeds: make([]uint64, cfg.N), count: make([]uint64, cfg.N), reset: make([]bool, cfg.N), narrow: make([]int32, cfg.N)}
	b.free = task.FreePlay(r, 0, cfg.Size, cfg.Budget, cfg.Feedback, cfg.Observability)
	b.owners = make([]*sim.World, threads)
	for k := range b.owners {
		b.owners[k] = tpl.Clone()
	}
	b.owners[0] = tpl
	for _, o := range b.owners { // each thread's generator now, not at its first reset, in a Step
		_ = o.ShareScratch(o)
	}
	b.cursors, b.grain = make([]cursor, threads), grainFor(cfg.N, threads)
	for i := range b.worlds {
		b.worlds[i] = tpl.Clone() // no scratch: each reset takes its thread's (begin)
	}
	// Prefetching pays where the worlds outgrow the caches: 2.5× at
	// 4,096 worlds (about 80 MB) on the 2-core AMD EPYC VM, nothing at
	// 512 (10 MB), and it cost 7 % at 64 and 3 % at 256, whose worlds
	// the caches hold anyway (bench/README.md). Below prefetchAbove tiles
	// the batch does without; the threshold is low, since prefetching
	// where it was not needed costs a few per cent and going without
	// where it was cost more than half.
	b.noPrefetch = cfg.N*cfg.Size*cfg.Size < prefetchAbove
	if b.pool = cfg.Pool; b.pool == nil {
		if b.pool, err = NewPool(threads); err != nil {
			return nil, err
		}
		b.pool.owned = true
	}
	if err := b.pool.attach(); err != nil {
		return nil, err
	}
	return b, nil
}

// prefetchAbove is the tiles of the smallest batch that asks the caches
// for its next worlds' memory (see New): 256 worlds of 64×64, about 4 MiB
// of state with their episodes (a world's state is about 4 bytes a tile).
const prefetchAbove = 1 << 20

// span is the range of worlds thread k takes first: contiguous, so that
// from operation to operation a thread mostly plays the same worlds, in
// its own core's cache.
func (b *Batch) span(k int) (lo, hi int) {
	return k * b.cfg.N / b.threads, (k + 1) * b.cfg.N / b.threads
}

// cursor is a span's next untaken world, alone on its cache line so that
// threads taking from different spans do not contend.
type cursor struct {
	next atomic.Int64
	_    [56]byte
}

// grainFor is how many worlds a thread takes at a time: about an eighth
// of a span, at most 32, so that a thread whose worlds reset (a reset
// costs about 200 steps) leaves the rest of its span to the others
// while taking costs one atomic add per several worlds.
func grainFor(n, threads int) int {
	return max(1, min(32, n/(threads*8)))
}

// Close releases the batch's hold on its pool (the pool stops when no
// batch holds it, if the batch made it); the batch is not used after.
func (b *Batch) Close() {
	if b.closed.Swap(true) {
		return
	}
	b.pool.detach()
}

// Items is the number of inventory entries per world.
func (b *Batch) Items() int { return len(b.rules.Items) }

// Actions is the number of actions.
func (b *Batch) Actions() int { return len(b.rules.Actions) }

// Rules is the batch's ruleset.
func (b *Batch) Rules() *sim.Rules { return b.rules }

// Config returns the batch's settings, defaults filled in.
func (b *Batch) Config() Config { return b.cfg }

// Threads is the number of goroutines that step the batch.
func (b *Batch) Threads() int { return b.threads }

// SetBuffers sets the arrays observations and the rest are written into;
// it checks their lengths.
func (b *Batch) SetBuffers(buf Buffers) error {
	for _, s := range b.BufferSpecs() {
		if got, want := lenOf(s.Field(&buf)), s.Elems(); got != 0 && got != want {
			return fmt.Errorf("vec: %s buffer of %d, want %d (%d worlds × %d)", s.Name, got, want, b.cfg.N, want/max(b.cfg.N, 1))
		}
	}
	if len(buf.RGB) > 0 && b.views == nil {
		if b.atlas == nil {
			return fmt.Errorf("vec: RGB views need the sprite atlas")
		}
		b.views, b.frames = make([]*render.AgentView, b.threads), make([][]byte, b.threads)
		for k := range b.views {
			v, err := render.NewAgentView(b.atlas, b.cfg.ImageSize, render.RGB)
			if err != nil {
				return fmt.Errorf("vec: %w", err)
			}
			b.views[k], b.frames[k] = v, make([]byte, v.FrameBytes())
		}
	}
	b.buf = buf
	return nil
}

// Reset starts every world's episode: world i plays the episodes of seed
// stream seeds[i] (nil: i), its first now. It writes the first
// observations; rewards and flags are zero.
func (b *Batch) Reset(seeds []uint64) error {
	if seeds != nil && len(seeds) != b.cfg.N {
		return fmt.Errorf("vec: %d seeds for %d worlds", len(seeds), b.cfg.N)
	}
	// Without seeds, a first reset takes stream i for world i, and a later
	// one goes on along each stream (new worlds, as Gymnasium's reset()
	// draws on from its generator); with seeds, the streams start over.
	if seeds != nil || !b.started {
		for i := range b.seeds {
			b.seeds[i], b.count[i] = uint64(i), 0
			if seeds != nil {
				b.seeds[i] = seeds[i]
			}
		}
	}
	b.run(opReset)
	b.started = true
	return nil
}

// Step plays actions[i] in world i (an action out of range is an error
// before anything is played). A world whose episode ended on the previous
// step instead resets and ignores its action (NEXT_STEP autoreset), with
// reward 0 and both flags clear.
func (b *Batch) Step(actions []int32) error {
	if len(actions) != b.cfg.N {
		return fmt.Errorf("vec: %d actions for %d worlds", len(actions), b.cfg.N)
	}
	// The actions are copied as they are checked: the workers read the
	// copy, so a caller's thread changing its array during the call (a
	// host's other thread) cannot slip an unchecked action in.
	for i, a := range actions {
		if a < 0 || int(a) >= len(b.rules.Actions) {
			return fmt.Errorf("vec: world %d: action %d outside 0 to %d", i, a, len(b.rules.Actions)-1)
		}
		b.narrow[i] = a
	}
	return b.stepChecked()
}

// StepInt64 is Step with 64-bit actions (NumPy's default integers),
// checked and narrowed into the batch's own buffer, so that a host need
// not convert them first.
func (b *Batch) StepInt64(actions []int64) error {
	if len(actions) != b.cfg.N {
		return fmt.Errorf("vec: %d actions for %d worlds", len(actions), b.cfg.N)
	}
	for i, a := range actions {
		if a < 0 || a >= int64(len(b.rules.Actions)) {
			return fmt.Errorf("vec: world %d: action %d outside 0 to %d", i, a, len(b.rules.Actions)-1)
		}
		b.narrow[i] = int32(a)
	}
	return b.stepChecked()
}

// stepChecked steps every world with the checked actions in b.narrow.
func (b *Batch) stepChecked() error {
	if !b.started {
		return fmt.Errorf("vec: step before reset")
	}
	b.run(opStep) // the workers read b.narrow
	return nil
}

// Ended returns how many worlds' episodes ended on the last Step (the
// ones the next Step resets): 0 after Reset, the source's after Restore.
func (b *Batch) Ended() int {
	n := 0
	for _, r := range b.reset {
		if r {
			n++
		}
	}
	return n
}

// run runs op on every world of the batch, across its pool.
func (b *Batch) run(op int) {
	if b.closed.Load() {
		panic("vec: batch used after Close")
	}
	for k := range b.cursors {
		lo, _ := b.span(k)
		b.cursors[k].next.Store(int64(lo))
	}
	b.pool.run(b, op) // publishes the cursors to the workers
}

// runSpan runs the current operation on the worlds thread k takes. A panic there
// (a bug) is kept and raised again by run on the caller's goroutine,
// where a host can recover it: on a pool goroutine it would end the
// process.
func (b *Batch) runSpan(k, op int) {
	defer func() {
		if p := recover(); p != nil {
			b.pool.panicked.CompareAndSwap(nil, &panicValue{p})
		}
	}()
	// Thread k takes worlds from its own span first, then from the
	// others', grain worlds at a time: a thread that finishes early (its
	// span had fewer resets, or the host's thread came late to the call)
	// plays what is left of the slower ones' spans instead of waiting.
	// Which thread plays a world changes nothing in it: every world keeps
	// its own state, and a thread's scratch is overwritten before it is read.
	g := int64(b.grain)
	for j := 0; j < b.threads; j++ {
		s := (k + j) % b.threads
		_, hi := b.span(s)
		c := &b.cursors[s].next
		for {
			lo := c.Add(g) - g
			if lo >= int64(hi) {
				break
			}
			end := min(int(lo+g), hi)
			for i := int(lo); i < end; i++ {
				if !b.noPrefetch {
					b.prefetch(i, end) // only worlds this thread has taken: another may be stepping the rest
				}
				if b.beforeWorld != nil {
					b.beforeWorld(k, i)
				}
				switch op {
				case opReset:
					b.begin(i, k)
					b.clearStep(i)
					b.observe(i, k)
				case opStep:
					b.stepWorld(i, k)
				case opObserve:
					b.clearStep(i)
					b.observe(i, k)
				}
			}
		}
	}
}

// prefetch asks the caches for the memory of the worlds after world i
// that this thread has taken (up to hi), in the three phases of sim's
// prefetching, one world apart: the third world's fields, the second's
// objects, the next one's rows around the player. With more worlds than the caches hold,
// each world's step otherwise waits on a miss for each of them in turn.
func (b *Batch) prefetch(i, hi int) {
	if i+3 < hi {
		b.worlds[i+3].PrefetchWorld()
	}
	if i+2 < hi {
		b.worlds[i+2].PrefetchObjects()
	}
	if i+1 < hi {
		b.worlds[i+1].PrefetchView()
	}
}

// stepWorld plays world i's action on thread k, or resets it (NEXT_STEP).
func (b *Batch) stepWorld(i, k int) {
	b.clearStep(i)
	if b.reset[i] {
		b.begin(i, k)
		b.observe(i, k)
		return
	}
	e := &b.eps[i]
	before := e.RewardTenths()
	e.Step(sim.Action(b.narrow[i]))
	if len(b.buf.Reward) > 0 {
		b.buf.Reward[i] = float32(e.RewardTenths()-before) / 10
	}
	if e.Over() {
		b.reset[i] = true
		b.finish(i, e)
	}
	b.observe(i, k)
}

// begin starts world i's next episode on thread k: free play on its seed
// stream's next seed, or its next task, generated in thread k's scratch.
func (b *Batch) begin(i, k int) {
	w := b.worlds[i]
	_ = w.ShareScratch(b.owners[k]) // same shape: cannot fail
	var t *task.Task
	if ts := b.cfg.Tasks; len(ts) > 0 {
		t = ts[(b.seeds[i]+b.count[i]*uint64(b.cfg.N))%uint64(len(ts))]
		_ = t.ResetWorld(w) // checked by New: same size and chunk size
	} else {
		t = b.free
		w.Reset(sim.Mix64(b.seeds[i]*0x9e3779b97f4a7c15 + b.count[i]))
	}
	b.count[i]++
	b.tasks[i], b.reset[i] = t, false
	b.eps[i].Begin(t, w, episode.Options{Bare: true}) // bare: no flood fill, so no episode scratch
}

// clearStep zeroes world i's reward and flags.
func (b *Batch) clearStep(i int) {
	if len(b.buf.Reward) > 0 {
		b.buf.Reward[i] = 0
	}
	if len(b.buf.Terminated) > 0 {
		b.buf.Terminated[i], b.buf.Truncated[i] = 0, 0
	}
}

// finish writes world i's ended episode: its flags and figures.
func (b *Batch) finish(i int, e *episode.Episode) {
	if len(b.buf.Terminated) > 0 {
		if e.Terminated() {
			b.buf.Terminated[i] = 1
		} else {
			b.buf.Truncated[i] = 1
		}
	}
	if len(b.buf.EpisodeReturn) > 0 {
		b.buf.EpisodeReturn[i] = float32(e.RewardTenths()) / 10
	}
	if len(b.buf.EpisodeLength) > 0 {
		b.buf.EpisodeLength[i] = int32(e.Steps())
	}
	if len(b.buf.Achievements) > 0 {
		b.buf.Achievements[i] = uint64(e.World().Achievements())
	}
	if len(b.buf.Success) > 0 {
		b.buf.Success[i] = 0
		if e.Success() {
			b.buf.Success[i] = 1
		}
	}
}

// observe writes world i's observations, with thread k's renderer.
func (b *Batch) observe(i, k int) {
	w := b.worlds[i]
	const view = sim.ViewSize * sim.ViewSize
	if len(b.buf.Symbolic) > 0 {
		w.LocalView(b.buf.Symbolic[i*view : (i+1)*view])
	}
	if n := b.Items(); len(b.buf.Inventory) > 0 {
		inv := b.buf.Inventory[i*n : (i+1)*n]
		for it := range inv {
			inv[it] = uint8(w.Inventory(sim.Item(it)))
		}
	}
	if area := b.cfg.Size * b.cfg.Size; len(b.buf.Semantic) > 0 {
		w.SemanticMap(b.buf.Semantic[i*area : (i+1)*area])
	}
	if px := b.cfg.ImageSize * b.cfg.ImageSize * 3; len(b.buf.RGB) > 0 {
		dst := b.buf.RGB[i*px : (i+1)*px]
		if b.directRGB {
			b.views[k].Render(w, dst)
		} else {
			// The renderer writes each pixel several times (ground,
			// object, night), so it draws in the thread's frame, in cache;
			// the frame then goes out with stores that bypass the caches.
			// Drawn straight into the buffer (12 KiB a world, 6 MiB at
			// 512 worlds), each frame's lines came in from memory first
			// and pushed the next worlds' state out of the caches.
			// The thread's frame keeps its black border from frame to
			// frame (zeroed when made, and RenderOver leaves it), so
			// only the grid is drawn.
			b.views[k].RenderOver(w, b.frames[k])
			streamFrame(dst, b.frames[k])
		}
	}
}

// Hashes writes every world's state hash into dst (N long): what a test
// compares across thread counts and against the plain runner.
func (b *Batch) Hashes(dst []uint64) error {
	if len(dst) != b.cfg.N {
		return fmt.Errorf("vec: %d hashes for %d worlds", len(dst), b.cfg.N)
	}
	for i, w := range b.worlds {
		dst[i] = w.Hash()
	}
	return nil
}

// Clone returns an independent copy of the batch, its worlds and episodes
// where they are: a branch for planners and counterfactual probes. The
// copy writes into no buffers until SetBuffers.
func (b *Batch) Clone() *Batch {
	c := &Batch{cfg: b.cfg, rules: b.rules, free: b.free, threads: b.threads, atlas: b.atlas, started: b.started,
		cursors: make([]cursor, b.threads), grain: b.grain,
		worlds: make([]*sim.World, len(b.worlds)), eps: make([]episode.Episode, len(b.eps)), tasks: append([]*task.Task(nil), b.tasks...),
		seeds: append([]uint64(nil), b.seeds...), count: append([]uint64(nil), b.count...), reset: append([]bool(nil), b.reset...),
		narrow: make([]int32, len(b.narrow))}
	c.owners = make([]*sim.World, b.threads)
	for k := range c.owners {
		c.owners[k] = b.owners[k].Clone()
		_ = c.owners[k].ShareScratch(c.owners[k]) // its generator now, as in New
	}
	for i, w := range b.worlds {
		c.worlds[i] = w.Clone() // no scratch: each reset takes its thread's (begin)
		if b.started {
			c.eps[i].Begin(b.tasks[i], c.worlds[i], episode.Options{Bare: true})
			c.eps[i].CopyFrom(&b.eps[i])
		}
	}
	c.pool = b.pool
	if err := c.pool.attach(); err != nil {
		panic(err) // b is open, so its pool is too
	}
	return c
}

// Restore makes b what src (a Clone of it, or b's source) is: worlds,
// episodes and seed streams. Both must have the same shape.
func (b *Batch) Restore(src *Batch) error {
	if src.cfg.N != b.cfg.N || src.cfg.Size != b.cfg.Size || src.rules.Name != b.rules.Name {
		return fmt.Errorf("vec: restore a batch of %d %d×%d %s worlds into one of %d %d×%d %s", src.cfg.N, src.cfg.Size, src.cfg.Size, src.rules.Name, b.cfg.N, b.cfg.Size, b.cfg.Size, b.rules.Name)
	}
	if src.cfg.Budget != b.cfg.Budget || src.cfg.Feedback != b.cfg.Feedback || src.cfg.Observability != b.cfg.Observability || len(src.cfg.Tasks) != len(b.cfg.Tasks) {
		return fmt.Errorf("vec: restore a batch of other settings (budget, feedback, observability or tasks): only a clone of this batch restores into it")
	}
	for i := range src.cfg.Tasks {
		if src.cfg.Tasks[i] != b.cfg.Tasks[i] {
			return fmt.Errorf("vec: restore a batch of other tasks: only a clone of this batch restores into it")
		}
	}
	copy(b.seeds, src.seeds)
	copy(b.count, src.count)
	copy(b.reset, src.reset)
	copy(b.tasks, src.tasks)
	for i, w := range b.worlds {
		w.CopyFrom(src.worlds[i])
		if src.started {
			if !b.started { // an episode that never began has no world yet
				b.eps[i].Begin(src.tasks[i], w, episode.Options{Bare: true})
			}
			b.eps[i].CopyFrom(&src.eps[i])
		}
	}
	b.started = src.started
	b.run(opObserve) // observations as the source's; reward and flags read zero
	return nil
}

// SuiteTasks returns the tasks of a suite (embedded, or a file with its
// lock beside it) that a batch of ruleset and size can play: those of
// that ruleset and map size at the primitive level, rebuilt from the
// suite's lock as score plays them. A suite without a lock is refused:
// lock it first (longcraft suite lock). Tasks of the eval split are
// refused unless allowEval: a policy trained on them would be scored on
// what it learned from (docs/tasks.md, splits).
func SuiteTasks(name, ruleset string, size int, allowEval bool) ([]*task.Task, error) {
	s, err := suite.Load(name)
	if err != nil {
		return nil, err
	}
	l, err := suite.LoadLock(name)
	if errors.Is(err, suite.ErrNoLock) {
		return nil, fmt.Errorf("vec: suite %s has no lock: make one with `longcraft suite lock --suite %s`", name, name)
	}
	if err != nil {
		return nil, err
	}
	if ruleset == "" {
		ruleset = "classic"
	}
	if size == 0 {
		size = sim.DefaultSize
	}
	var out []*task.Task
	evalRefused := false
	sizes := map[int]bool{}
	for i, sp := range s.Expand() {
		t, err := l.Rebuild(i, sp)
		if err != nil {
			return nil, err
		}
		sizes[t.MapSize] = true
		base, _, _ := strings.Cut(t.Rules().Name, "+")
		if base == ruleset && t.MapSize == size && t.Actions != task.ActionsSkills && (allowEval || sp.Split != task.Eval) {
			out = append(out, t)
		}
		if sp.Split == task.Eval && !allowEval && base == ruleset && t.MapSize == size {
			evalRefused = true
		}
	}
	if len(out) == 0 && evalRefused {
		return nil, fmt.Errorf("vec: suite %s's %s tasks on %d×%d are of the eval split: train on a train-split suite, or pass allow_eval to evaluate on them", name, ruleset, size, size)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("vec: suite %s has no %s task on a %d×%d map at the primitive level (its sizes: %v)", name, ruleset, size, size, sizes)
	}
	return out, nil
}
