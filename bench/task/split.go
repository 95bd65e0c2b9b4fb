package task

import (
	"fmt"
	"hash/fnv"
)

// Split separates the seeds tasks are trained on from those they are
// evaluated on.
type Split string

// Splits.
const (
	Train Split = "train"
	Eval  Split = "eval"
)

// evalBit is set in every eval seed and clear in every train seed: the
// two seed spaces cannot overlap, by construction.
const evalBit = 1 << 63

// Valid reports whether s is a known split.
func (s Split) Valid() bool { return s == Train || s == Eval }

// SeedFor returns the world seed of the index-th task of a family and tier
// in split s: a hash of the three, with the top bit saying the split.
func SeedFor(s Split, family, tier string, index uint64) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d", family, tier, index)
	seed := mix(h.Sum64()) &^ evalBit
	if s == Eval {
		seed |= evalBit
	}
	return seed
}

// SplitOf returns the split a seed belongs to.
func SplitOf(seed uint64) Split {
	if seed&evalBit != 0 {
		return Eval
	}
	return Train
}

// mix is SplitMix64's finaliser.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
