//go:build cgo

package main

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/longcraft/longcraft/bench/vec"
	"github.com/longcraft/longcraft/render"
)

// lc_names writes the batch's names of kind ("actions", "achievements",
// "inventory" or "symbolic": vec.NameKinds) into out, one per line,
// NUL-terminated, and into *n the bytes they take without the NUL; with
// out NULL (or too small a cap) it writes *n alone, so that the caller
// sizes its buffer with a first call.
//
//export lc_names
func lc_names(h C.uintptr_t, kind *C.char, out *C.char, capacity C.int, n *C.int, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_names", err, errlen, func(b *vec.Batch) error {
		if kind == nil || n == nil {
			return fmt.Errorf("lc_names: no kind or no count")
		}
		names, e := b.Names(C.GoString(kind))
		if e != nil {
			return fmt.Errorf("lc_names: %w", e)
		}
		s := strings.Join(names, "\n")
		*n = C.int(len(s))
		if out == nil || int(capacity) < len(s)+1 {
			return nil
		}
		dst := unsafe.Slice((*byte)(unsafe.Pointer(out)), len(s)+1)
		copy(dst, s)
		dst[len(s)] = 0
		return nil
	})
}

// views are the agent views lc_render draws with, one per frame size,
// made on first use and kept for the process (a view holds its tiles
// scaled to its size); the mutex also makes two renders take turns, since
// a view is not safe for concurrent use.
var views struct {
	mu     sync.Mutex
	atlas  *render.Atlas
	bySize map[int]*render.AgentView
}

// lc_render draws the agent views of count worlds from first, as they
// are now, into out: count frames of size×size×3 bytes (RGB), one after
// another.
//
//export lc_render
func lc_render(h C.uintptr_t, first, count, size C.int, out *C.uint8_t, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_render", err, errlen, func(b *vec.Batch) error {
		if out == nil {
			return fmt.Errorf("lc_render: no buffer")
		}
		if count < 1 {
			return fmt.Errorf("lc_render: %d worlds: want at least 1", count)
		}
		views.mu.Lock()
		defer views.mu.Unlock()
		v, e := viewOf(int(size))
		if e != nil {
			return fmt.Errorf("lc_render: %w", e)
		}
		dst := unsafe.Slice((*byte)(unsafe.Pointer(out)), int(count)*v.FrameBytes())
		return b.RenderWorlds(v, int(first), dst)
	})
}

// viewOf returns the RGB agent view of size (views.mu held).
func viewOf(size int) (*render.AgentView, error) {
	if v := views.bySize[size]; v != nil {
		return v, nil
	}
	if views.atlas == nil {
		a, e := render.LoadAtlas()
		if e != nil {
			return nil, fmt.Errorf("loading the sprites: %w", e)
		}
		views.atlas = a
	}
	v, e := render.NewAgentView(views.atlas, size, render.RGB)
	if e != nil {
		return nil, e
	}
	if views.bySize == nil {
		views.bySize = map[int]*render.AgentView{}
	}
	views.bySize[size] = v
	return v, nil
}
