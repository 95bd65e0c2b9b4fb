package sim

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// invariantError returns a description of the first broken invariant of
// w, or "" if the state is sound.
func invariantError(w *World) string {
	r := w.rules
	s := &w.s
	for it := range r.Items {
		n, max := s.Inventory[it], r.Items[it].Max
		if Item(it) == ItemHealth {
			if n > max || (n <= 0) != s.Dead && !w.Done() {
				return fmt.Sprintf("health %d with dead=%v", n, s.Dead)
			}
			continue
		}
		if n < 0 || n > max {
			return fmt.Sprintf("%s = %d outside 0..%d", r.Items[it].Name, n, max)
		}
	}
	if s.NumObjects < 1 || int(s.NumObjects) > len(w.objects) {
		return fmt.Sprintf("%d objects, capacity %d", s.NumObjects, len(w.objects))
	}
	if w.objects[0].Kind != ObjPlayer {
		return "object 0 is not the player"
	}
	px, py := w.Player()
	if m := w.Material(px, py); !r.Materials[m].Walkable && !s.Dead {
		return fmt.Sprintf("live player on %s", r.Materials[m].Name)
	}
	// The object grid and the object array agree: one object per tile.
	seen := 0
	for i, o := range w.Objects() {
		if o.Kind == ObjNone {
			return fmt.Sprintf("tombstone %d between steps", i)
		}
		x, y := int(o.X), int(o.Y)
		if !w.Inside(x, y) {
			return fmt.Sprintf("object %d (%s) outside the map at (%d, %d)", i, o.Kind, x, y)
		}
		if got := w.objectAt(w.index(x, y)); got != i {
			return fmt.Sprintf("grid at (%d, %d) points at %d, not object %d (%s)", x, y, got, i, o.Kind)
		}
		if i > 0 && !w.canStand(o.Kind, w.Material(x, y)) {
			return fmt.Sprintf("%s on %s at (%d, %d)", o.Kind, r.Materials[w.Material(x, y)].Name, x, y)
		}
	}
	for _, v := range w.objAt {
		if v != 0 {
			seen++
		}
	}
	if seen != int(s.NumObjects) {
		return fmt.Sprintf("grid holds %d objects, the array %d", seen, s.NumObjects)
	}
	// The chunk counts match a recount.
	recount := make([]chunkCounts, len(w.chunks))
	bal := r.balance
	for y := 0; y < w.height; y++ {
		for x := 0; x < w.width; x++ {
			for b := range bal {
				if bal[b].Material == w.Material(x, y) {
					recount[w.chunkOf(x, y)].space[b]++
				}
			}
		}
	}
	for _, o := range w.Objects() {
		c := &recount[w.chunkOf(int(o.X), int(o.Y))]
		if b := w.balanceIndex(o.Kind); b >= 0 {
			c.pop[b]++
		}
		// A chunk holding an object has held one; held is history, so
		// the recount takes it from the world where no object is now.
		c.held = true
	}
	for c := range recount {
		if !recount[c].held {
			recount[c].held = w.chunks[c].held
		}
		if recount[c] != w.chunks[c] {
			return fmt.Sprintf("chunk %d counts %+v, recount %+v", c, w.chunks[c], recount[c])
		}
	}
	return ""
}

// runInvariants plays the actions from seed and checks the invariants
// after every step.
func runInvariants(t *testing.T, w *World, seed uint64, acts []byte) {
	w.Reset(seed)
	require.Empty(t, invariantError(w), "after Reset(%d)", seed)
	for i, b := range acts {
		out := w.Step(Action(int(b) % len(w.rules.Actions)))
		if msg := invariantError(w); msg != "" {
			t.Fatalf("seed %d, step %d (%s: %+v): %s\n%s", seed, i+1, w.rules.Actions[out.Action].Name, out, msg, w.ASCII())
		}
		if out.Done {
			return
		}
	}
}

func TestInvariantsRandomPlay(t *testing.T) {
	w := newWorld(t)
	episodes := 40
	if testing.Short() {
		episodes = 8
	}
	for seed := 0; seed < episodes; seed++ {
		acts := make([]byte, 3000)
		r := RNG{State: uint64(seed) * 77}
		for i := range acts {
			// Mostly moves and do, so that episodes last and creatures act.
			if r.Intn(4) == 0 {
				acts[i] = byte(r.Intn(17))
			} else {
				acts[i] = byte(1 + r.Intn(5))
			}
		}
		runInvariants(t, w, uint64(seed), acts)
	}
}

// FuzzInvariants plays fuzzed seeds and action bytes on a small world and
// checks the invariants after every step: no panic, inventory and vitals
// within bounds, the player on a walkable tile unless dead, exactly one
// object per occupied tile, chunk bookkeeping in step.
func FuzzInvariants(f *testing.F) {
	f.Add(uint64(0), []byte{1, 1, 5, 5, 5, 11, 8, 7, 2, 3, 4, 6, 6, 6})
	f.Add(uint64(42), []byte(strings.Repeat("\x05\x01\x05\x03\x05\x02\x05\x04", 40)))
	f.Add(uint64(7), make([]byte, 600))
	w, err := New(Config{Width: 24, Height: 24})
	require.NoError(f, err)
	big := newWorld(f)
	f.Fuzz(func(t *testing.T, seed uint64, acts []byte) {
		if len(acts) > 4000 {
			acts = acts[:4000]
		}
		runInvariants(t, w, seed, acts)
		if len(acts) > 0 && acts[0]&1 == 1 {
			runInvariants(t, big, seed^binary.LittleEndian.Uint64(append(acts, make([]byte, 8)...)), acts)
		}
	})
}

// FuzzLoadASCII feeds arbitrary text to the ASCII map reader: it must
// return an error or load a map that renders back to the same rows.
func FuzzLoadASCII(f *testing.F) {
	f.Add("...\n.@.\n...\n")
	f.Add("~~~~\n.@TC\n_S#%\n<>^v\n")
	f.Add("\n\n@pP\ncid\ntf:\n\nignored")
	f.Add("..\n.@.\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := ParseASCII(text)
		if err != nil {
			return
		}
		if len(rows) < 3 || len(rows[0]) < 3 || len(rows) > 64 || len(rows[0]) > 64 {
			return
		}
		w, err := New(Config{Width: len(rows[0]), Height: len(rows)})
		require.NoError(t, err)
		w.Reset(1)
		if err := w.LoadASCII(text); err != nil {
			return
		}
		require.Equal(t, strings.Join(rows, "\n")+"\n", w.ASCII())
		require.Empty(t, invariantError(w))
	})
}

// TestFarObjectRemoved: a removed object past the slots' reach keeps its
// place in the array until the step ends, so the search by position must
// skip it: an object moved onto its tile is the one found there. Both
// ways of finding far objects: the search (a 64×64 world, capacity 512)
// and the far slots (200×200).
func TestFarObjectRemoved(t *testing.T) {
	for _, side := range []int{64, 200} {
		w, err := New(Config{Width: side, Height: side})
		require.NoError(t, err)
		w.Reset(1)
		require.Equal(t, side > 64, w.farAt != nil)
		// Fill the array past the slots' reach with cows on free grass.
		for y := 0; y < side && int(w.s.NumObjects) < slotFar+10; y++ {
			for x := 0; x < side && int(w.s.NumObjects) < slotFar+10; x++ {
				if w.objectIndex(x, y) < 0 && w.tiles[w.index(x, y)] == MatGrass {
					w.addObject(w.newCreature(ObjCow, x, y))
				}
			}
		}
		// Two far cows, i before j: remove i, move j onto its tile.
		var cows []int
		for k := int(w.s.NumObjects) - 1; k >= slotFar-1 && len(cows) < 2; k-- {
			if w.objects[k].Kind == ObjCow {
				cows = append(cows, k)
			}
		}
		require.Len(t, cows, 2, "side %d: two cows past the slots' reach", side)
		i, j := cows[1], cows[0]
		ax, ay := int(w.objects[i].X), int(w.objects[i].Y)
		w.removeObject(i)
		require.Equal(t, -1, w.objectIndex(ax, ay), "side %d: a removed object's tile is free", side)
		w.moveObject(j, ax, ay)
		require.Equal(t, j, w.objectIndex(ax, ay), "side %d: the live object, not the removed one", side)
		w.compact()
		require.Equal(t, j-1, w.objectIndex(ax, ay), "side %d: after compaction", side)
		require.Empty(t, invariantError(w))
	}
}

// TestFarObjectSlots plays worlds that hold more objects than the slot
// grid's bytes number (slotFar), so that objects are found by position
// past it, and checks after every step that each live object is the one
// on its tile, that its tile reads as it in the local view's semantics,
// and the other invariants: as objects are removed and the array is
// compacted, objects move from far slots to near ones.
func TestFarObjectSlots(t *testing.T) {
	w, err := New(Config{Width: 200, Height: 200})
	require.NoError(t, err)
	for seed := uint64(0); seed < 2; seed++ {
		w.Reset(seed)
		require.Greater(t, int(w.s.NumObjects), slotFar+100, "a world of more objects than the slots reach")
		r := RNG{State: seed}
		for step := 0; step < 200; step++ {
			w.Step(Action(1 + r.Intn(5)))
			require.Empty(t, invariantError(w), "seed %d, step %d", seed, step)
			far := 0
			for i, o := range w.Objects() {
				x, y := int(o.X), int(o.Y)
				require.Equal(t, i, w.objectIndex(x, y), "seed %d, step %d", seed, step)
				got, ok := w.ObjectAt(x, y)
				require.True(t, ok)
				require.Equal(t, o, got)
				require.Equal(t, w.rules.SemanticID(o.Kind), w.SemanticAt(x, y))
				if w.objAt[w.index(x, y)] == slotFar {
					far++
				}
			}
			require.Equal(t, max(int(w.s.NumObjects)-(slotFar-1), 0), far, "the objects past the slots' reach, and only they, read slotFar")
		}
	}
}
