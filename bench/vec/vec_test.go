package vec

import (
	"bytes"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/golden"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

func buffers(b *Batch, rgb bool) Buffers {
	n := b.cfg.N
	buf := Buffers{Symbolic: make([]uint8, n*81), Inventory: make([]uint8, n*b.Items()),
		Reward: make([]float32, n), Terminated: make([]uint8, n), Truncated: make([]uint8, n),
		EpisodeReturn: make([]float32, n), EpisodeLength: make([]int32, n), Achievements: make([]uint64, n), Success: make([]uint8, n)}
	if rgb {
		buf.RGB = make([]uint8, n*b.cfg.ImageSize*b.cfg.ImageSize*3)
	}
	return buf
}

// actionsAt is a fixed pseudo-random action sequence.
func actionsAt(step, n, actions int) []int32 {
	a := make([]int32, n)
	for i := range a {
		a[i] = int32(sim.Mix64(uint64(step*7919+i)) % uint64(actions))
	}
	return a
}

// play steps a batch of cfg for steps and returns its hashes and buffers.
func play(t testing.TB, cfg Config, steps int, rgb bool) ([]uint64, Buffers) {
	var atlas *render.Atlas
	if rgb {
		var err error
		atlas, err = render.LoadAtlas()
		require.NoError(t, err)
	}
	b, err := New(cfg, atlas)
	require.NoError(t, err)
	buf := buffers(b, rgb)
	require.NoError(t, b.SetBuffers(buf))
	require.NoError(t, b.Reset(nil))
	for s := 0; s < steps; s++ {
		require.NoError(t, b.Step(actionsAt(s, cfg.N, b.Actions())))
	}
	h := make([]uint64, cfg.N)
	require.NoError(t, b.Hashes(h))
	return h, buf
}

// TestThreadsChangeNothing: the same batch on 1, 2 and 3 threads gives
// the same worlds and the same buffers, autoresets included.
func TestThreadsChangeNothing(t *testing.T) {
	cfg := Config{N: 37, Size: 32, Budget: 40}
	cfg.Threads = 1
	want, wantBuf := play(t, cfg, 130, true)
	for _, threads := range []int{2, 3} {
		cfg.Threads = threads
		got, gotBuf := play(t, cfg, 130, true)
		assert.Equal(t, want, got, "%d threads", threads)
		assert.Equal(t, wantBuf, gotBuf, "%d threads", threads)
	}
}

// plainWorld plays world i of n as the plain loop does (its own world and
// scratch, one episode.Episode at a time, nothing of this package): seed
// stream stream, free play of budget on size×size, the actions actionsAt,
// steps steps, a new episode the step after one ends.
func plainWorld(t testing.TB, stream uint64, i, n, size, budget, steps int) *sim.World {
	r := sim.Classic()
	w, err := sim.New(sim.Config{Width: size, Height: size, Rules: r})
	require.NoError(t, err)
	var e *episode.Episode
	count := uint64(0)
	start := func() {
		seed := sim.Mix64(stream*0x9e3779b97f4a7c15 + count)
		count++
		w.Reset(seed)
		e = episode.New(task.FreePlay(r, seed, size, budget, task.FeedbackNone, task.Partial), w, episode.Options{Bare: true})
	}
	start()
	for s := 0; s < steps; s++ {
		if e.Over() {
			start()
			continue
		}
		e.Step(sim.Action(actionsAt(s, n, len(r.Actions))[i]))
	}
	return w
}

// TestBatchIsThePlainEpisode: each world of a batch is the free-play
// episode the plain loop plays (its own world, its own scratch, one
// episode.Episode), step by step, reset by reset.
func TestBatchIsThePlainEpisode(t *testing.T) {
	cfg := Config{N: 9, Size: 24, Budget: 25, Threads: 2}
	got, buf := play(t, cfg, 60, false)
	for i := 0; i < cfg.N; i++ {
		w := plainWorld(t, uint64(i), i, cfg.N, cfg.Size, cfg.Budget, 60)
		assert.Equal(t, w.Hash(), got[i], "world %d", i)
		var view [81]uint8
		w.LocalView(view[:])
		assert.Equal(t, view[:], buf.Symbolic[i*81:(i+1)*81])
	}
}

// TestNextStepAutoreset: the step that ends an episode reports it (flags,
// figures) with the final observation; the next step resets that world,
// ignoring its action, with reward 0 and both flags clear.
func TestNextStepAutoreset(t *testing.T) {
	b, err := New(Config{N: 2, Size: 16, Budget: 5, Threads: 1}, nil)
	require.NoError(t, err)
	buf := buffers(b, false)
	require.NoError(t, b.SetBuffers(buf))
	require.NoError(t, b.Reset([]uint64{10, 11}))
	noop := []int32{0, 0}
	for s := 1; s <= 5; s++ {
		require.NoError(t, b.Step(noop))
		if s < 5 {
			assert.Equal(t, []uint8{0, 0}, buf.Truncated, "step %d", s)
		}
	}
	assert.Equal(t, []uint8{1, 1}, buf.Truncated, "the budget")
	assert.Equal(t, []uint8{0, 0}, buf.Terminated)
	assert.Equal(t, []int32{5, 5}, buf.EpisodeLength)
	ended := b.worlds[0].Hash()
	require.NoError(t, b.Step([]int32{3, 3}))
	assert.Equal(t, []uint8{0, 0}, buf.Truncated, "reset: flags clear")
	assert.Equal(t, []float32{0, 0}, buf.Reward)
	assert.Zero(t, b.worlds[0].StepCount(), "the action was ignored: a fresh episode")
	assert.NotEqual(t, ended, b.worlds[0].Hash())

	assert.Error(t, b.Step([]int32{0}))
	assert.Error(t, b.Step([]int32{0, 99}))
	assert.Error(t, b.Reset([]uint64{1}))
	assert.Error(t, b.SetBuffers(Buffers{Reward: make([]float32, 3)}))
	_, err = New(Config{N: 0}, nil)
	assert.Error(t, err)
	_, err = New(Config{N: 2, Ruleset: "nope"}, nil)
	assert.Error(t, err)
}

// TestCloneRestore: a clone steps apart from its source; restoring the
// source from a clone taken earlier brings its worlds back.
func TestCloneRestore(t *testing.T) {
	b, err := New(Config{N: 4, Size: 16, Budget: 100, Threads: 2}, nil)
	require.NoError(t, err)
	buf := buffers(b, false)
	require.NoError(t, b.SetBuffers(buf))
	require.NoError(t, b.Reset(nil))
	for s := 0; s < 10; s++ {
		require.NoError(t, b.Step(actionsAt(s, 4, b.Actions())))
	}
	before := make([]uint64, 4)
	require.NoError(t, b.Hashes(before))
	snap := b.Clone()
	for s := 10; s < 20; s++ {
		require.NoError(t, b.Step(actionsAt(s, 4, b.Actions())))
	}
	after := make([]uint64, 4)
	require.NoError(t, b.Hashes(after))
	require.NoError(t, b.Restore(snap))
	restored := make([]uint64, 4)
	require.NoError(t, b.Hashes(restored))
	assert.Equal(t, before, restored)
	for s := 10; s < 20; s++ {
		require.NoError(t, b.Step(actionsAt(s, 4, b.Actions())))
	}
	again := make([]uint64, 4)
	require.NoError(t, b.Hashes(again))
	assert.Equal(t, after, again, "the branch replays the same")
}

// TestFirstStepsAllocateNothing: a new batch's first steps, and a clone's,
// whichever thread first resets a world there, do not make that thread's
// generation scratch (about 100 KiB): it is made with the batch. The
// bound is bytes, not allocations, since the runtime may allocate a
// 112-byte record the first time a goroutine parks (the pool's wait), and
// about 5.5 KiB when a loaded machine makes it start another OS thread
// (seen twice in make test, never alone): 16 KiB is far below the scratch.
func TestFirstStepsAllocateNothing(t *testing.T) {
	b, err := New(Config{N: 8, Size: 16, Budget: 3, Threads: 2}, nil)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, b.SetBuffers(buffers(b, false)))
	require.NoError(t, b.Reset(nil))
	steps := func(b *Batch) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for s := 0; s < 8; s++ { // budget 3: every world resets twice
			_ = b.Step(b.narrow) // the last actions again: no slice made here
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	assert.Less(t, steps(b), uint64(16<<10), "bytes allocated by a new batch's first steps")
	c := b.Clone()
	defer c.Close()
	require.NoError(t, c.SetBuffers(buffers(c, false)))
	assert.Less(t, steps(c), uint64(16<<10), "bytes allocated by a clone's first steps")
}

// TestStepAllocatesNothing: a batch step allocates nothing, on one
// thread or across the pool, and neither do the autoresets of episodes
// that end (a budget of 7 steps ends every world's episode every eighth
// call).
func TestStepAllocatesNothing(t *testing.T) {
	for _, budget := range []int{100_000, 7} {
		for _, threads := range []int{1, 2} {
			b, err := New(Config{N: 16, Size: 32, Budget: budget, Threads: threads}, nil)
			require.NoError(t, err)
			require.NoError(t, b.SetBuffers(buffers(b, false)))
			require.NoError(t, b.Reset(nil))
			acts := make([]int32, 16)
			for range 20 { // past the first reset, which may grow scratch
				require.NoError(t, b.Step(acts))
			}
			allocs := testing.AllocsPerRun(200, func() { _ = b.Step(acts) })
			assert.Zero(t, allocs, "budget %d, %d threads", budget, threads)
			b.Close()
		}
	}
}

// TestMemoryPerWorld: worlds share their thread's generation scratch, so
// 4,096 worlds of 64×64 cost at most 24 KiB each.
func TestMemoryPerWorld(t *testing.T) {
	var a, z runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	b, err := New(Config{N: 4096, Threads: 2}, nil)
	require.NoError(t, err)
	require.NoError(t, b.Reset(nil))
	runtime.GC()
	runtime.ReadMemStats(&z)
	perWorld := float64(z.HeapAlloc-a.HeapAlloc) / 4096 / 1024
	t.Logf("%.1f KiB per world (heap, N = 4096, 64×64)", perWorld)
	assert.LessOrEqual(t, perWorld, 24.0)
	runtime.KeepAlive(b)
}

func BenchmarkStep(b *testing.B) {
	const auto, on, off = 0, 1, 2 // prefetching: as New decides, forced on, forced off
	for _, c := range []struct {
		name     string
		n        int
		rgb      bool
		prefetch int
		direct   bool // RGB drawn straight into the buffer
	}{{"symbolic-N8", 8, false, auto, false}, {"symbolic-N64", 64, false, auto, false}, {"symbolic-N64-prefetch", 64, false, on, false},
		{"symbolic-N512", 512, false, auto, false}, {"symbolic-N512-noprefetch", 512, false, off, false},
		{"symbolic-N4096", 4096, false, auto, false}, {"symbolic-N4096-noprefetch", 4096, false, off, false},
		{"rgb64-N512", 512, true, auto, false}, {"rgb64-N512-direct", 512, true, auto, true}} {
		b.Run(c.name, func(b *testing.B) {
			var atlas *render.Atlas
			if c.rgb {
				atlas, _ = render.LoadAtlas()
			}
			batch, err := New(Config{N: c.n}, atlas)
			require.NoError(b, err)
			if c.prefetch != auto {
				batch.noPrefetch = c.prefetch == off
			}
			batch.directRGB = c.direct
			buf := buffers(batch, c.rgb)
			buf.Inventory = nil
			require.NoError(b, batch.SetBuffers(buf))
			require.NoError(b, batch.Reset(nil))
			var acts [16][]int32 // random actions, precomputed
			for k := range acts {
				acts[k] = actionsAt(k, c.n, batch.Actions())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = batch.Step(acts[i%16])
			}
			b.ReportMetric(float64(b.N*c.n)/b.Elapsed().Seconds(), "env-steps/s")
			// 1 where this build has the fast path the -noprefetch and
			// -direct twins turn off (longcraft bench reads them; that a
			// batch uses it is TestPrefetchBySize's).
			b.ReportMetric(b2f(sim.Prefetching()), "prefetch")
			b.ReportMetric(b2f(streamed), "streamed")
		})
	}
}

// TestPrefetchBySize: a batch asks for its next worlds' memory once its
// worlds outgrow the caches (the 4,096 worlds of the prefetch guard in
// longcraft bench), not while they fit (64); either way the same worlds.
func TestPrefetchBySize(t *testing.T) {
	small, err := New(Config{N: 64, Threads: 1}, nil)
	require.NoError(t, err)
	defer small.Close()
	large, err := New(Config{N: 4096, Threads: 1}, nil)
	require.NoError(t, err)
	defer large.Close()
	assert.True(t, small.noPrefetch, "64 worlds fit the caches")
	assert.False(t, large.noPrefetch, "4,096 worlds do not")
	hashes := func(prefetch bool) []uint64 {
		b, err := New(Config{N: 64, Size: 16, Budget: 50, Threads: 2}, nil)
		require.NoError(t, err)
		defer b.Close()
		b.noPrefetch = !prefetch
		require.NoError(t, b.SetBuffers(buffers(b, false)))
		require.NoError(t, b.Reset(nil))
		for k := range 120 {
			require.NoError(t, b.Step(actionsAt(k, 64, b.Actions())))
		}
		h := make([]uint64, 64)
		require.NoError(t, b.Hashes(h))
		return h
	}
	assert.Equal(t, hashes(false), hashes(true), "prefetching changes when memory arrives, never a world")
}

// TestPythonReference writes, and checks, the hashes the Python package's
// test compares its batch against (python/tests/testdata/reference.txt):
// worlds played by the plain loop (one sim.World and one episode each,
// nothing of this package), seed streams 5 to 8, 24×24, budget 25, the
// actions actionsAt, 40 steps. -rewrite regenerates it.
func TestPythonReference(t *testing.T) {
	const n, size, budget, steps = 4, 24, 25, 40
	var lines []string
	for i := 0; i < n; i++ {
		lines = append(lines, strconv.FormatUint(plainWorld(t, uint64(5+i), i, n, size, budget, steps).Hash(), 10))
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("..", "..", "python", "tests", "testdata", "reference.txt")
	golden.File(t, path, []byte(got), "the Python tests' reference hashes")

	// And the batch agrees, on any number of threads.
	for _, threads := range []int{1, 2} {
		b, err := New(Config{N: n, Size: size, Budget: budget, Threads: threads}, nil)
		require.NoError(t, err)
		require.NoError(t, b.SetBuffers(Buffers{Symbolic: make([]uint8, n*81)}))
		require.NoError(t, b.Reset([]uint64{5, 6, 7, 8}))
		for s := 0; s < steps; s++ {
			require.NoError(t, b.Step(actionsAt(s, n, b.Actions())))
		}
		h := make([]uint64, n)
		require.NoError(t, b.Hashes(h))
		for i := range h {
			assert.Equal(t, lines[i], strconv.FormatUint(h[i], 10))
		}
		b.Close()
	}
}

// BenchmarkMemory reports the heap a batch of 4,096 worlds of 64×64 takes
// per world, reset and ready (what `longcraft bench` prints).
func BenchmarkMemory(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var a, z runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		batch, err := New(Config{N: 4096}, nil)
		require.NoError(b, err)
		require.NoError(b, batch.Reset(nil))
		runtime.GC()
		runtime.ReadMemStats(&z)
		b.ReportMetric(float64(z.HeapAlloc-a.HeapAlloc)/4096/1024, "KiB/world")
		batch.Close()
		runtime.KeepAlive(batch)
	}
}

// TestSuiteTasks: a batch plays a suite's tasks of its ruleset and size
// in turn; a goal reached ends the episode as terminated, with success.
func TestSuiteTasks(t *testing.T) {
	tasks, err := SuiteTasks("default", "classic", 64, true)
	require.NoError(t, err)
	require.NotEmpty(t, tasks)
	for _, tk := range tasks {
		assert.Equal(t, "medium", tk.Spec.Tier, "the default suite's 64×64 tasks are its medium ones")
	}
	_, err = SuiteTasks("default", "classic", 32, true)
	assert.ErrorContains(t, err, "no classic task on a 32×32 map")
	b, err := New(Config{N: 3, Tasks: tasks, Threads: 1}, nil)
	require.NoError(t, err)
	buf := buffers(b, false)
	require.NoError(t, b.SetBuffers(buf))
	require.NoError(t, b.Reset(nil))
	assert.Equal(t, tasks[0].ID, b.tasks[0].ID)
	assert.Equal(t, tasks[1].ID, b.tasks[1].ID)
	_, err = New(Config{N: 1, Size: 48, Tasks: tasks}, nil)
	assert.Error(t, err, "a task of another size")
}

// TestRestoreAndResetEdgeCases: restoring into a batch never reset works
// (a pool goroutine must not crash the process); a reset without seeds
// goes on along the streams; a restore clears the flags and refuses a
// batch of other settings; eval tasks are refused by default.
func TestRestoreAndResetEdgeCases(t *testing.T) {
	a, err := New(Config{N: 4, Size: 16, Budget: 5, Threads: 2}, nil)
	require.NoError(t, err)
	bufA := buffers(a, false)
	require.NoError(t, a.SetBuffers(bufA))
	require.NoError(t, a.Reset(nil))
	fresh, err := New(Config{N: 4, Size: 16, Budget: 5, Threads: 2}, nil)
	require.NoError(t, err)
	bufF := buffers(fresh, false)
	require.NoError(t, fresh.SetBuffers(bufF))
	require.NoError(t, fresh.Restore(a))
	require.NoError(t, fresh.Step(make([]int32, 4)))
	for s := 0; s < 5; s++ {
		require.NoError(t, a.Step(make([]int32, 4)))
	}
	assert.Equal(t, []uint8{1, 1, 1, 1}, bufA.Truncated)
	snap := a.Clone()
	require.NoError(t, a.Restore(snap))
	assert.Equal(t, []uint8{0, 0, 0, 0}, bufA.Truncated, "a restore clears the flags")
	other, err := New(Config{N: 4, Size: 16, Budget: 100, Threads: 2}, nil)
	require.NoError(t, err)
	assert.Error(t, other.Restore(a), "another budget")

	first := make([]uint64, 4)
	require.NoError(t, a.Reset(nil))
	require.NoError(t, a.Hashes(first))
	require.NoError(t, a.Reset(nil))
	second := make([]uint64, 4)
	require.NoError(t, a.Hashes(second))
	assert.NotEqual(t, first, second, "reset() goes on along the streams")
	require.NoError(t, a.Reset([]uint64{0, 1, 2, 3}))
	again := make([]uint64, 4)
	require.NoError(t, a.Hashes(again))
	assert.NotEqual(t, second, again)

	_, err = SuiteTasks("default", "classic", 64, false)
	assert.ErrorContains(t, err, "eval split")
}

// TestStepInt64AndEnded: 64-bit actions play as the same 32-bit ones, are
// range-checked, and Ended counts the worlds whose episode ended on the
// step (a budget of 5 ends all of them every sixth step, with NEXT_STEP's
// reset in between).
func TestStepInt64AndEnded(t *testing.T) {
	cfg := Config{N: 6, Size: 16, Budget: 5}
	a, err := New(cfg, nil)
	require.NoError(t, err)
	defer a.Close()
	b, err := New(cfg, nil)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Reset(nil))
	require.NoError(t, b.Reset(nil))
	assert.Zero(t, a.Ended())
	wide := make([]int64, cfg.N)
	for s := 0; s < 24; s++ {
		acts := actionsAt(s, cfg.N, a.Actions())
		for i, x := range acts {
			wide[i] = int64(x)
		}
		require.NoError(t, a.Step(acts))
		require.NoError(t, b.StepInt64(wide))
		want := 0
		if s%6 == 4 {
			want = cfg.N
		}
		assert.Equal(t, want, a.Ended(), "step %d", s)
		assert.Equal(t, a.Ended(), b.Ended(), "step %d", s)
	}
	ha, hb := make([]uint64, cfg.N), make([]uint64, cfg.N)
	require.NoError(t, a.Hashes(ha))
	require.NoError(t, b.Hashes(hb))
	assert.Equal(t, ha, hb)
	wide[3] = 1 << 32 // would be 0 if narrowed unchecked
	assert.ErrorContains(t, b.StepInt64(wide), "world 3: action 4294967296 outside")
	wide[3] = -1
	assert.ErrorContains(t, b.StepInt64(wide), "world 3: action -1 outside")
	assert.Error(t, b.StepInt64(wide[:2]))
}

// BenchmarkStepInTurn steps a batch and its clone in turn (a host with a
// training and an evaluation batch, or a planner's branch): they share
// one pool, whose workers stay spinning from one batch's step to the
// other's, so a step costs about what it does alone (BenchmarkStepAlone).
func BenchmarkStepInTurn(b *testing.B) { benchTurns(b, 2) }

// BenchmarkStepAlone is BenchmarkStepInTurn's batch stepped alone.
func BenchmarkStepAlone(b *testing.B) { benchTurns(b, 1) }

func benchTurns(b *testing.B, n int) {
	first, err := New(Config{N: 64, Size: 16, Budget: 1000}, nil)
	require.NoError(b, err)
	require.NoError(b, first.Reset(nil))
	batches := []*Batch{first}
	for len(batches) < n {
		batches = append(batches, first.Clone())
	}
	acts := make([]int32, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = batches[i%n].Step(acts)
	}
	for _, c := range batches {
		c.Close()
	}
}

// TestSharedPool: batches on one pool play as they do on pools of their
// own, stepped in turn or from two goroutines at once (the pool takes
// their operations one at a time), a clone shares its source's pool, and
// the goroutines stop once the pool and its batches are closed.
func TestSharedPool(t *testing.T) {
	before := runtime.NumGoroutine()
	pool, err := NewPool(2)
	require.NoError(t, err)
	cfg := Config{N: 5, Size: 16, Budget: 9}
	alone := func(seed uint64) []uint64 {
		b, err := New(cfg, nil)
		require.NoError(t, err)
		defer b.Close()
		require.NoError(t, b.Reset([]uint64{seed, seed + 1, seed + 2, seed + 3, seed + 4}))
		for s := 0; s < 30; s++ {
			require.NoError(t, b.Step(actionsAt(s, cfg.N, b.Actions())))
		}
		h := make([]uint64, cfg.N)
		require.NoError(t, b.Hashes(h))
		return h
	}
	want := [][]uint64{alone(10), alone(20)}
	shared := cfg
	shared.Pool = pool
	var batches []*Batch
	for _, seed := range []uint64{10, 20} {
		b, err := New(shared, nil)
		require.NoError(t, err)
		require.NoError(t, b.Reset([]uint64{seed, seed + 1, seed + 2, seed + 3, seed + 4}))
		batches = append(batches, b)
	}
	for s := 0; s < 15; s++ { // in turn
		for _, b := range batches {
			require.NoError(t, b.Step(actionsAt(s, cfg.N, b.Actions())))
		}
	}
	clone := batches[0].Clone() // on the same pool
	var wg sync.WaitGroup
	for _, b := range batches { // at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := 15; s < 30; s++ {
				assert.NoError(t, b.Step(actionsAt(s, cfg.N, b.Actions())))
			}
		}()
	}
	wg.Wait()
	for k, b := range batches {
		h := make([]uint64, cfg.N)
		require.NoError(t, b.Hashes(h))
		assert.Equal(t, want[k], h, "batch %d", k)
	}
	require.NoError(t, clone.Step(actionsAt(15, cfg.N, clone.Actions())))
	_, err = New(Config{N: 5, Size: 16, Threads: 3, Pool: pool}, nil)
	assert.ErrorContains(t, err, "3 threads on a pool of 2")
	_, err = NewPool(-1)
	assert.Error(t, err)

	pool.Close() // batches still open keep it running
	require.NoError(t, clone.Step(actionsAt(16, cfg.N, clone.Actions())))
	clone.Close()
	for _, b := range batches {
		b.Close()
	}
	_, err = New(shared, nil)
	assert.ErrorContains(t, err, "pool closed")
	deadline := time.Now().Add(5 * time.Second) // polled here: Eventually runs its own goroutine
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "the pools' goroutines stop")
}

// TestThreadsTakeFromSlowerSpans: a thread that finishes its own span
// plays what is left of a slower thread's, and worlds played by another
// thread than usual (RGB views and resets included) come out the same.
// Thread 0 stalls on the first world it takes until thread 1 has played
// every other world: without taking from thread 0's span, thread 1 stops
// at its own and the wait times out. Thread 0 may also come to a step
// after thread 1 has taken its whole span (on a busy machine it did):
// then thread 1 plays all the worlds and thread 0 none.
func TestThreadsTakeFromSlowerSpans(t *testing.T) {
	atlas, err := render.LoadAtlas()
	require.NoError(t, err)
	cfg := Config{N: 16, Size: 16, Budget: 7, Threads: 2, ImageSize: 16}
	played := func(stall bool) ([]uint64, []uint8, int, int) {
		b, err := New(cfg, atlas)
		require.NoError(t, err)
		defer b.Close()
		rgb := make([]uint8, cfg.N*16*16*3)
		require.NoError(t, b.SetBuffers(Buffers{RGB: rgb, Symbolic: make([]uint8, cfg.N*81)}))
		require.NoError(t, b.Reset(nil))
		var byOne, byZero atomic.Int64
		stolen, wantStolen := 0, 0
		for s := 0; s < 20; s++ { // budget 7: resets on the way
			if stall {
				byOne.Store(0)
				byZero.Store(0)
				b.beforeWorld = func(k, i int) {
					if k == 1 {
						if i < cfg.N/2 {
							stolen++ // only thread 1 writes it
						}
						byOne.Add(1)
						return
					}
					if byZero.Add(1) > 1 {
						return
					}
					deadline := time.Now().Add(20 * time.Second)
					for byOne.Load() < int64(cfg.N-1) && time.Now().Before(deadline) {
						time.Sleep(50 * time.Microsecond)
					}
				}
			}
			require.NoError(t, b.Step(actionsAt(s, cfg.N, b.Actions())))
			if stall {
				zero := int(byZero.Load())
				require.LessOrEqual(t, zero, 1, "step %d: thread 0 played %d worlds: thread 1 did not take the rest of its span", s, zero)
				require.Equal(t, int64(cfg.N-zero), byOne.Load(), "step %d: thread 1 played %d worlds, not the %d thread 0 left", s, byOne.Load(), cfg.N-zero)
				wantStolen += cfg.N/2 - zero
			}
		}
		b.beforeWorld = nil
		h := make([]uint64, cfg.N)
		require.NoError(t, b.Hashes(h))
		return h, rgb, stolen, wantStolen
	}
	want, wantRGB, _, _ := played(false)
	got, gotRGB, stolen, wantStolen := played(true)
	assert.Equal(t, want, got)
	assert.Equal(t, wantRGB, gotRGB)
	assert.Equal(t, wantStolen, stolen, "worlds of thread 0's span played by thread 1")
}

// TestStreamedFrames: RGB frames drawn in the thread's frame and streamed
// out are the frames drawn straight into the buffer, step after step
// (resets, night and every thread count's split included), into a buffer
// that starts off any alignment; and streamFrame is copy, for every
// length around its 32-byte blocks and every offset.
func TestStreamedFrames(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 64, 95, 12288, 12289} {
		for off := 0; off < 4; off++ {
			src, dst := make([]byte, n), make([]byte, n+off+8)
			for i := range src {
				src[i] = byte(i*7 + 1)
			}
			want := append([]byte(nil), dst...)
			copy(want[off:], src)
			streamFrame(dst[off:], src)
			require.Equal(t, want, dst, "%d bytes at offset %d", n, off)
		}
	}
	atlas, err := render.LoadAtlas()
	require.NoError(t, err)
	// Budget 300 and 260 steps: the worlds that live long enough reach
	// the night (daylight below a half), when the noise draws over the
	// tiles; the others reset on the way.
	cfg := Config{N: 9, Size: 24, Budget: 300, Threads: 2, ImageSize: 40}
	px := cfg.ImageSize * cfg.ImageSize * 3
	nights := 0
	frames := func(direct bool) []byte {
		b, err := New(cfg, atlas)
		require.NoError(t, err)
		defer b.Close()
		b.directRGB = direct
		raw := make([]byte, cfg.N*px+3)
		rgb := raw[3:] // off alignment
		require.NoError(t, b.SetBuffers(Buffers{RGB: rgb}))
		require.NoError(t, b.Reset(nil))
		var all []byte
		for s := 0; s < 260; s++ {
			require.NoError(t, b.Step(actionsAt(s, cfg.N, b.Actions())))
			all = append(all, rgb...)
			for _, w := range b.worlds {
				if w.Daylight() < 1<<15 {
					nights++
				}
			}
		}
		return all
	}
	want, got := frames(true), frames(false)
	require.Positive(t, nights, "no frame was drawn at night")
	require.Equal(t, len(want), len(got))
	assert.True(t, bytes.Equal(want, got), "streamed frames differ from the frames drawn in place")
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}
