//go:build cgo

// Command liblongcraft is the C ABI over bench/vec, built as a shared
// library (go build -buildmode=c-shared; make python puts it in
// python/longcraft/): a batch of worlds made, reset and stepped in one
// call each, writing into the caller's buffers. Python's longcraft
// package (ctypes and NumPy) is its client; docs/python.md is the guide.
//
// Every function returns 0, or -1 with a message written into the
// caller's err buffer (cut to errlen bytes, NUL-terminated); a batch is an
// opaque handle (runtime/cgo.Handle). Nothing here panics into the
// caller: a Go panic becomes an error.
//
// Nothing about the buffers is positional: lc_descriptor gives the
// descriptor's format version and the sizes of its structs, lc_buffers
// the batch's table of buffers (name, dtype, shape, flags: bench/vec's
// BufferSpecs, marshalled), lc_scalars its settings by name, and lc_bind
// takes one pointer per row of the table, in its order (NULL: not
// written). The caller keeps the buffers it binds alive and unmoved until
// the next lc_bind or lc_close. descriptor.go holds the descriptor's C
// types and functions.
package main

/*
#include <stdint.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/cgo"
	"sync"
	"unsafe"

	"github.com/longcraft/longcraft/bench/vec"
	"github.com/longcraft/longcraft/render"
)

func main() {}

// pools are the goroutine pools of the process's batches, one per thread
// count: the library serves one host, whose batches (an env, its clones,
// an evaluation env) share their workers, so that stepping them in turn
// keeps one set spinning (vec.Pool). They last as long as the process;
// idle, their workers park.
var pools struct {
	mu sync.Mutex
	by map[int]*vec.Pool
}

// poolOf returns the process's pool of threads goroutines (0: every core).
func poolOf(threads int) (*vec.Pool, error) {
	pools.mu.Lock()
	defer pools.mu.Unlock()
	if p := pools.by[threads]; p != nil {
		return p, nil
	}
	p, err := vec.NewPool(threads)
	if err != nil {
		return nil, err
	}
	if pools.by == nil {
		pools.by = map[int]*vec.Pool{}
	}
	pools.by[threads] = p
	return p, nil
}

// fail writes msg into err and returns -1.
func fail(err *C.char, errlen C.int, msg string) C.int {
	if err != nil && errlen > 0 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(err)), int(errlen))
		n := copy(b[:len(b)-1], msg)
		b[n] = 0
	}
	return -1
}

// guard turns a panic into an error return.
func guard(err *C.char, errlen C.int, rc *C.int) {
	if p := recover(); p != nil {
		*rc = fail(err, errlen, fmt.Sprintf("liblongcraft: internal error: %v", p))
	}
}

// handle is what a C handle holds: the batch, and a lock that makes the
// calls on one batch take turns (ctypes releases Python's GIL, so two
// Python threads may call at once; a batch is not safe for that).
type handle struct {
	mu sync.Mutex
	b  *vec.Batch
}

// batch returns h's batch, locked: the caller defers the returned unlock.
func batch(h C.uintptr_t) (b *vec.Batch, unlock func(), ok bool) {
	defer func() {
		if recover() != nil { // a handle that was never made, or was closed
			b, unlock, ok = nil, nil, false
		}
	}()
	hd, ok := cgo.Handle(h).Value().(*handle)
	if !ok {
		return nil, nil, false
	}
	hd.mu.Lock()
	return hd.b, hd.mu.Unlock, true
}

//export lc_new
func lc_new(n C.int, ruleset, suiteName *C.char, size, budget, threads, imageSize, allowEval C.int, out *C.uintptr_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	var atlas *render.Atlas
	if imageSize > 0 {
		a, e := render.LoadAtlas()
		if e != nil {
			return fail(err, errlen, e.Error())
		}
		atlas = a
	}
	rs := ""
	if ruleset != nil {
		rs = C.GoString(ruleset)
	}
	cfg := vec.Config{N: int(n), Ruleset: rs, Size: int(size), Budget: int(budget), Threads: int(threads), ImageSize: int(imageSize)}
	if suiteName != nil && C.GoString(suiteName) != "" {
		tasks, e := vec.SuiteTasks(C.GoString(suiteName), rs, int(size), allowEval != 0)
		if e != nil {
			return fail(err, errlen, e.Error())
		}
		cfg.Tasks = tasks
	}
	pool, e := poolOf(int(threads))
	if e != nil {
		return fail(err, errlen, e.Error())
	}
	cfg.Pool, cfg.Threads = pool, 0
	b, e := vec.New(cfg, atlas)
	if e != nil {
		return fail(err, errlen, e.Error())
	}
	*out = C.uintptr_t(cgo.NewHandle(&handle{b: b}))
	return 0
}

// withBatch runs do on h's batch, locked, and turns what goes wrong into
// the error return: every call on a batch goes through it.
func withBatch(h C.uintptr_t, name string, err *C.char, errlen C.int, do func(*vec.Batch) error) C.int {
	b, unlock, ok := batch(h)
	if !ok {
		return fail(err, errlen, name+": not a batch (closed?)")
	}
	defer unlock()
	if e := do(b); e != nil {
		return fail(err, errlen, e.Error())
	}
	return 0
}

// slice views n elements at p (nil: none).
func slice[T any](p unsafe.Pointer, n int) []T {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*T)(p), n)
}

//export lc_bind
func lc_bind(h C.uintptr_t, ptrs *unsafe.Pointer, n C.int, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_bind", err, errlen, func(b *vec.Batch) error {
		specs := b.BufferSpecs()
		if int(n) != len(specs) {
			return fmt.Errorf("lc_bind: %d pointers for the descriptor's %d buffers", n, len(specs))
		}
		var buf vec.Buffers
		for i, p := range slice[unsafe.Pointer](unsafe.Pointer(ptrs), int(n)) {
			bindBuffer(specs[i], &buf, p)
		}
		return b.SetBuffers(buf)
	})
}

// bindBuffer points s's field of buf at the caller's p (nil: unbound).
func bindBuffer(s vec.BufferSpec, buf *vec.Buffers, p unsafe.Pointer) {
	switch f := s.Field(buf).(type) {
	case *[]uint8:
		*f = slice[uint8](p, s.Elems())
	case *[]int32:
		*f = slice[int32](p, s.Elems())
	case *[]uint64:
		*f = slice[uint64](p, s.Elems())
	case *[]float32:
		*f = slice[float32](p, s.Elems())
	default:
		panic(fmt.Sprintf("buffer %s: field of type %T", s.Name, f))
	}
}

//export lc_reset
func lc_reset(h C.uintptr_t, seeds *C.uint64_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_reset", err, errlen, func(b *vec.Batch) error {
		return b.Reset(slice[uint64](unsafe.Pointer(seeds), b.Config().N))
	})
}

//export lc_step
func lc_step(h C.uintptr_t, actions *C.int32_t, ended *C.int32_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_step", err, errlen, func(b *vec.Batch) error {
		if actions == nil {
			return errors.New("lc_step: no actions")
		}
		return stepped(b, b.Step(slice[int32](unsafe.Pointer(actions), b.Config().N)), ended)
	})
}

// lc_step64 is lc_step with 64-bit actions (NumPy's default integers),
// range-checked here, so that the caller converts nothing.
//
//export lc_step64
func lc_step64(h C.uintptr_t, actions *C.int64_t, ended *C.int32_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_step64", err, errlen, func(b *vec.Batch) error {
		if actions == nil {
			return errors.New("lc_step64: no actions")
		}
		return stepped(b, b.StepInt64(slice[int64](unsafe.Pointer(actions), b.Config().N)), ended)
	})
}

// stepped finishes a step that returned e: on success it sets *ended,
// when given, to the number of worlds whose episode ended on the step (a
// host checks one number, not N flags).
func stepped(b *vec.Batch, e error, ended *C.int32_t) error {
	if e == nil && ended != nil {
		*ended = C.int32_t(b.Ended())
	}
	return e
}

//export lc_hashes
func lc_hashes(h C.uintptr_t, out *C.uint64_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_hashes", err, errlen, func(b *vec.Batch) error {
		if out == nil {
			return errors.New("lc_hashes: no buffer")
		}
		return b.Hashes(slice[uint64](unsafe.Pointer(out), b.Config().N))
	})
}

//export lc_clone
func lc_clone(h C.uintptr_t, out *C.uintptr_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_clone", err, errlen, func(b *vec.Batch) error {
		*out = C.uintptr_t(cgo.NewHandle(&handle{b: b.Clone()}))
		return nil
	})
}

//export lc_restore
func lc_restore(h, src C.uintptr_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	if h == src {
		return 0 // a batch restored from itself is itself
	}
	// Both batches are locked, in the order of their handles, so that two
	// restores the other way round cannot deadlock.
	first, second := h, src
	if second < first {
		first, second = second, first
	}
	x, unlockFirst, ok := batch(first)
	if !ok {
		return fail(err, errlen, "lc_restore: not a batch (closed?)")
	}
	defer unlockFirst()
	y, unlockSecond, ok := batch(second)
	if !ok {
		return fail(err, errlen, "lc_restore: not a batch (closed?)")
	}
	defer unlockSecond()
	b, s := x, y
	if first != h {
		b, s = y, x
	}
	if e := b.Restore(s); e != nil {
		return fail(err, errlen, e.Error())
	}
	return 0
}

//export lc_close
func lc_close(h C.uintptr_t) {
	defer func() { recover() }() // a handle closed twice is no crash
	hd := cgo.Handle(h)
	if b, ok := hd.Value().(*handle); ok {
		b.mu.Lock()
		b.b.Close()
		b.mu.Unlock()
	}
	hd.Delete()
}
