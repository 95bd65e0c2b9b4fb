package vec

import (
	"fmt"

	"github.com/longcraft/longcraft/sim"
)

// Dtype is the element type of a buffer, read from its field in Buffers.
type Dtype uint8

// The element types of Buffers' fields.
const (
	Uint8 Dtype = iota + 1
	Int32
	Uint64
	Float32
)

func (d Dtype) String() string {
	switch d {
	case Uint8:
		return "uint8"
	case Int32:
		return "int32"
	case Uint64:
		return "uint64"
	case Float32:
		return "float32"
	}
	return fmt.Sprintf("Dtype(%d)", uint8(d))
}

// BufferFlags say what a buffer is for, so that a host (Python's VecEnv)
// can allocate, bind and return it from its descriptor alone.
type BufferFlags uint32

const (
	// Observation: a key of the observation, bound only when the host
	// asks for it (unbound, it is not written and costs nothing).
	Observation BufferFlags = 1 << iota
	// Boolean: one byte per element, 0 or 1 (a host may view it as bool).
	Boolean
	// EpisodeInfo: written only for the worlds whose episode ended on the
	// step (Gymnasium's infos, masked by terminated or truncated).
	EpisodeInfo
)

// BufferSpec describes one field of Buffers: its name, element type,
// shape in a given batch (worlds first) and flags.
type BufferSpec struct {
	Name  string
	Dtype Dtype
	Shape []int
	Flags BufferFlags
	field func(*Buffers) any
}

// Elems is the number of elements the buffer holds.
func (s BufferSpec) Elems() int {
	n := 1
	for _, d := range s.Shape {
		n *= d
	}
	return n
}

// Field returns a pointer to the buffer's field in buf (a *[]uint8,
// *[]int32, *[]uint64 or *[]float32, as Dtype says), for a host that
// binds buffers by their descriptor (cmd/liblongcraft).
func (s BufferSpec) Field(buf *Buffers) any { return s.field(buf) }

// bufferRow is one row of the buffer table: a buffer's name, flags, shape
// for one world and its field. Adding a buffer is a field of Buffers, its
// row here and the code that writes it.
type bufferRow struct {
	name  string
	flags BufferFlags
	shape func(c Config, items int) []int
	field func(*Buffers) any
}

// perWorld is the shape of a buffer of one element per world.
func perWorld(Config, int) []int { return nil }

// bufferTable is every field of Buffers, in the order hosts bind them.
var bufferTable = [...]bufferRow{
	{"symbolic", Observation, func(Config, int) []int { return []int{sim.ViewSize, sim.ViewSize} }, func(b *Buffers) any { return &b.Symbolic }},
	{"inventory", Observation, func(_ Config, items int) []int { return []int{items} }, func(b *Buffers) any { return &b.Inventory }},
	{"semantic", Observation, func(c Config, _ int) []int { return []int{c.Size, c.Size} }, func(b *Buffers) any { return &b.Semantic }},
	{"rgb", Observation, func(c Config, _ int) []int { return []int{c.ImageSize, c.ImageSize, 3} }, func(b *Buffers) any { return &b.RGB }},
	{"reward", 0, perWorld, func(b *Buffers) any { return &b.Reward }},
	{"terminated", Boolean, perWorld, func(b *Buffers) any { return &b.Terminated }},
	{"truncated", Boolean, perWorld, func(b *Buffers) any { return &b.Truncated }},
	{"episode_return", EpisodeInfo, perWorld, func(b *Buffers) any { return &b.EpisodeReturn }},
	{"episode_length", EpisodeInfo, perWorld, func(b *Buffers) any { return &b.EpisodeLength }},
	{"achievements", EpisodeInfo, perWorld, func(b *Buffers) any { return &b.Achievements }},
	{"success", EpisodeInfo | Boolean, perWorld, func(b *Buffers) any { return &b.Success }},
}

// DescribeBuffers returns the buffers of a batch of config c whose
// ruleset has items items, in binding order. Shapes are c.N worlds first;
// with a zero Config they give names, types and flags alone.
func DescribeBuffers(c Config, items int) []BufferSpec {
	specs := make([]BufferSpec, len(bufferTable))
	var probe Buffers
	for i, r := range bufferTable {
		specs[i] = BufferSpec{Name: r.name, Dtype: dtypeOf(r.field(&probe)), Shape: append([]int{c.N}, r.shape(c, items)...), Flags: r.flags, field: r.field}
	}
	return specs
}

// BufferSpecs returns the batch's buffers, in binding order.
func (b *Batch) BufferSpecs() []BufferSpec { return DescribeBuffers(b.cfg, b.Items()) }

func dtypeOf(field any) Dtype {
	switch field.(type) {
	case *[]uint8:
		return Uint8
	case *[]int32:
		return Int32
	case *[]uint64:
		return Uint64
	case *[]float32:
		return Float32
	}
	panic(fmt.Sprintf("vec: buffer field of type %T", field))
}

// lenOf is the length of the slice field points to.
func lenOf(field any) int {
	switch f := field.(type) {
	case *[]uint8:
		return len(*f)
	case *[]int32:
		return len(*f)
	case *[]uint64:
		return len(*f)
	case *[]float32:
		return len(*f)
	}
	panic(fmt.Sprintf("vec: buffer field of type %T", field))
}
