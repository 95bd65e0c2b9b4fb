package task

import (
	"fmt"
	"hash/fnv"

	"github.com/longcraft/longcraft/sim"
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
	seed := sim.Mix64(h.Sum64()) &^ evalBit
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

// regenerated is the world seed tried after seed when a world cannot hold
// its task or is not certified: derived, and in the same split.
func regenerated(seed uint64) uint64 {
	return sim.Mix64(seed+0x9e3779b97f4a7c15)&^evalBit | seed&evalBit
}
