package sim

import "math/bits"

// Hash returns a 64-bit hash of the whole state: seed, step, RNG, player,
// inventory, counters, achievements, tiles, the chunks that have held an
// object, and objects. Two worlds with the same Hash are, for replay
// checks, the same world. It allocates nothing;
// call it between steps.
func (w *World) Hash() uint64 {
	s := &w.s
	h := hasher{v: 0x4c6f6e6763726166 ^ uint64(len(w.tiles))}
	h.add(s.Seed)
	h.add(s.RNG.State)
	h.add(uint64(uint32(s.Step)) | uint64(uint32(s.NumObjects))<<32)
	for i := 0; i < MaxItems; i += 8 {
		var v uint64
		for k := 0; k < 8; k++ {
			v |= uint64(uint8(s.Inventory[i+k])) << (8 * k)
		}
		h.add(v)
	}
	h.add(uint64(s.Achievements))
	var flags uint64
	if s.Sleeping {
		flags |= 1
	}
	if s.Dead {
		flags |= 2
	}
	h.add(flags | uint64(s.Facing)<<8 | uint64(uint8(s.LastHealth))<<16 | uint64(uint8(s.RewardHealth))<<24)
	h.add(uint64(uint16(s.Hunger)) | uint64(uint16(s.Thirst))<<16 | uint64(uint16(s.Fatigue))<<32 | uint64(uint16(s.Recover))<<48)
	t := w.tiles
	for len(t) >= 8 {
		h.add(materials8((*[8]Material)(t)))
		t = t[8:]
	}
	for _, m := range t {
		h.add(uint64(m))
	}
	// Which chunks have held an object: history that decides balancing.
	var held uint64
	for c := range w.chunks {
		if w.chunks[c].held {
			held |= 1 << (c & 63)
		}
		if c&63 == 63 || c == len(w.chunks)-1 {
			h.add(held)
			held = 0
		}
	}
	for _, o := range w.objects[:s.NumObjects] {
		h.add(uint64(uint16(o.X)) | uint64(uint16(o.Y))<<16 | uint64(o.Kind)<<32 |
			uint64(uint8(o.Health))<<40 | uint64(o.Facing)<<48 | uint64(uint8(o.Timer))<<56)
		h.add(uint64(uint16(o.Grown)))
	}
	return h.sum()
}

// hasher is a word-at-a-time hash in the style of xxHash64's round: a
// multiply, a rotate and a multiply per word, and a final avalanche.
type hasher struct{ v uint64 }

const (
	hashPrime1 = 0x9e3779b185ebca87
	hashPrime2 = 0xc2b2ae3d27d4eb4f
)

func (h *hasher) add(x uint64) {
	h.v ^= bits.RotateLeft64(x*hashPrime2, 31) * hashPrime1
	h.v = bits.RotateLeft64(h.v, 27)*hashPrime1 + 0x85ebca77c2b2ae63
}

func (h *hasher) sum() uint64 { return mix64(h.v) }
