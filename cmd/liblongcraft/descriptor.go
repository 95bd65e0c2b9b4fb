//go:build cgo

package main

/*
#include <stdint.h>

// The descriptor's format: a host checks it (lc_descriptor) before it
// reads a table, and refuses a library whose format it does not know.
#define LC_DESCRIPTOR_VERSION 1
#define LC_NAME_LEN 32

// Element types of lc_buffer.dtype.
enum { LC_UINT8 = 1, LC_INT32 = 2, LC_UINT64 = 3, LC_FLOAT32 = 4 };

// Bits of lc_buffer.flags: an observation's key (bound only when asked
// for), one byte 0 or 1 per element, written only where an episode ended.
enum { LC_OBSERVATION = 1, LC_BOOLEAN = 2, LC_EPISODE_INFO = 4 };

// One buffer a batch writes: the caller allocates ndim dimensions of
// shape (worlds first) of dtype and binds it with lc_bind.
typedef struct {
	char name[LC_NAME_LEN];
	int32_t dtype;
	int32_t flags;
	int32_t ndim;
	int32_t shape[4];
} lc_buffer;

// One of a batch's settings, by name (num_envs, items, num_actions,
// size, image_size, threads, budget).
typedef struct {
	char name[LC_NAME_LEN];
	int64_t value;
} lc_scalar;
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/longcraft/longcraft/bench/vec"
)

// The C codes of bench/vec's element types and flags: the ABI's own
// numbers, so that vec may renumber its constants without a host noticing.
var (
	dtypeCodes = map[vec.Dtype]C.int32_t{vec.Uint8: C.LC_UINT8, vec.Int32: C.LC_INT32, vec.Uint64: C.LC_UINT64, vec.Float32: C.LC_FLOAT32}
	flagCodes  = map[vec.BufferFlags]C.int32_t{vec.Observation: C.LC_OBSERVATION, vec.Boolean: C.LC_BOOLEAN, vec.EpisodeInfo: C.LC_EPISODE_INFO}
)

// lc_descriptor reports the descriptor's format version and the sizes of
// lc_buffer and lc_scalar, which a host checks against its own before it
// makes a batch.
//
//export lc_descriptor
func lc_descriptor(version, bufferSize, scalarSize *C.int32_t) {
	*version = C.LC_DESCRIPTOR_VERSION
	*bufferSize = C.int32_t(unsafe.Sizeof(C.lc_buffer{}))
	*scalarSize = C.int32_t(unsafe.Sizeof(C.lc_scalar{}))
}

// lc_buffers writes h's table of buffers into out (room for cap rows) and
// their count into *n; with out NULL it writes the count alone. Handle 0
// describes the buffers of no batch: names, types and flags, shapes of 0
// worlds of side 0.
//
//export lc_buffers
func lc_buffers(h C.uintptr_t, out *C.lc_buffer, capacity C.int, n *C.int, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	if h == 0 {
		return writeBuffers(vec.DescribeBuffers(vec.Config{}, 0), out, capacity, n, err, errlen)
	}
	var specs []vec.BufferSpec
	if rc := withBatch(h, "lc_buffers", err, errlen, func(b *vec.Batch) error {
		specs = b.BufferSpecs()
		return nil
	}); rc != 0 {
		return rc
	}
	return writeBuffers(specs, out, capacity, n, err, errlen)
}

func writeBuffers(specs []vec.BufferSpec, out *C.lc_buffer, capacity C.int, n *C.int, err *C.char, errlen C.int) C.int {
	if n == nil {
		return fail(err, errlen, "lc_buffers: no count")
	}
	*n = C.int(len(specs))
	if out == nil {
		return 0
	}
	if int(capacity) < len(specs) {
		return fail(err, errlen, fmt.Sprintf("lc_buffers: room for %d of %d buffers", capacity, len(specs)))
	}
	rows := unsafe.Slice(out, len(specs))
	for i, s := range specs {
		if e := marshalBuffer(s, &rows[i]); e != nil {
			return fail(err, errlen, "lc_buffers: "+e.Error())
		}
	}
	return 0
}

// marshalBuffer writes s as the C row r.
func marshalBuffer(s vec.BufferSpec, r *C.lc_buffer) error {
	*r = C.lc_buffer{}
	if e := putName(r.name[:], s.Name); e != nil {
		return e
	}
	code, ok := dtypeCodes[s.Dtype]
	if !ok {
		return fmt.Errorf("buffer %s: no C code for dtype %s", s.Name, s.Dtype)
	}
	r.dtype = code
	left := s.Flags
	for f, c := range flagCodes {
		if s.Flags&f != 0 {
			r.flags |= c
			left &^= f
		}
	}
	if left != 0 {
		return fmt.Errorf("buffer %s: no C code for flags %#x", s.Name, uint32(left))
	}
	if len(s.Shape) > len(r.shape) {
		return fmt.Errorf("buffer %s: %d dimensions, the descriptor holds %d", s.Name, len(s.Shape), len(r.shape))
	}
	r.ndim = C.int32_t(len(s.Shape))
	for k, d := range s.Shape {
		r.shape[k] = C.int32_t(d)
	}
	return nil
}

// lc_scalars writes h's settings by name into out (room for cap rows) and
// their count into *n; with out NULL it writes the count alone.
//
//export lc_scalars
func lc_scalars(h C.uintptr_t, out *C.lc_scalar, capacity C.int, n *C.int, err *C.char, errlen C.int) (rc C.int) {
	defer guard(err, errlen, &rc)
	return withBatch(h, "lc_scalars", err, errlen, func(b *vec.Batch) error {
		c := b.Config()
		scalars := []struct {
			name  string
			value int
		}{
			{"num_envs", c.N}, {"items", b.Items()}, {"num_actions", b.Actions()}, {"size", c.Size},
			{"image_size", c.ImageSize}, {"threads", b.Threads()}, {"budget", c.Budget},
		}
		if n == nil {
			return errors.New("lc_scalars: no count")
		}
		*n = C.int(len(scalars))
		if out == nil {
			return nil
		}
		if int(capacity) < len(scalars) {
			return fmt.Errorf("lc_scalars: room for %d of %d settings", capacity, len(scalars))
		}
		rows := unsafe.Slice(out, len(scalars))
		for i, s := range scalars {
			rows[i] = C.lc_scalar{value: C.int64_t(s.value)}
			if e := putName(rows[i].name[:], s.name); e != nil {
				return fmt.Errorf("lc_scalars: %w", e)
			}
		}
		return nil
	})
}

// putName copies name into a fixed C array, NUL-terminated.
func putName(dst []C.char, name string) error {
	if len(name) >= len(dst) {
		return fmt.Errorf("name %q is longer than %d bytes", name, len(dst)-1)
	}
	for i := range len(name) {
		dst[i] = C.char(name[i])
	}
	dst[len(name)] = 0
	return nil
}
