package sim

// RNG is the world's random source: SplitMix64, a 64-bit state advanced by
// a constant and mixed on output. It is held by value, so cloning a world
// clones its future, and hashing its one word hashes its state. We use it
// rather than math/rand/v2's PCG because the world must expose its state to
// Hash without allocating, and one add and two multiplies per draw keep the
// creature updates cheap.
type RNG struct {
	State uint64
}

// Uint64 returns the next 64 random bits.
func (r *RNG) Uint64() uint64 {
	r.State += splitMixGamma
	return mix64(r.State)
}

// splitMixGamma is SplitMix64's step between consecutive states. World
// generation steps by it too: the hash of tile i is mix64(key +
// (i+1)·splitMixGamma), SplitMix64 at position i+1 (see drawRow and fill).
const splitMixGamma = 0x9e3779b97f4a7c15

// Mix64 is SplitMix64's finaliser, for the layers above that hash with
// the world's function (task seeds, render noise): one definition.
func Mix64(z uint64) uint64 { return mix64(z) }

// Chance reports true with probability p/65536.
func (r *RNG) Chance(p uint32) bool {
	return uint32(r.Uint64()>>48) < p
}

// Intn returns a number in [0, n) for 0 < n < 2^32, by multiply-shift
// (bias below 2^-32 for the small n used here).
func (r *RNG) Intn(n int) int {
	return int(((r.Uint64() >> 32) * uint64(n)) >> 32)
}

// mix64 is SplitMix64's finaliser: a bijection that spreads every input bit
// over the output. Worldgen uses it as a hash of coordinates.
// The multipliers of mix64 (the vector kernels read them through
// go_asm.h).
const (
	mix64Mul1 = 0xbf58476d1ce4e5b9
	mix64Mul2 = 0x94d049bb133111eb
)

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * mix64Mul1
	z = (z ^ (z >> 27)) * mix64Mul2
	return z ^ (z >> 31)
}
