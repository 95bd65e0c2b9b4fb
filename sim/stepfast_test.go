package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file hold Step's fast paths to the plain code they
// replaced.

// TestObjectLayoutForNearMask pins what near_amd64.s assumes of Object:
// Y follows X as a 16-bit value, and a 16-byte load at an object's start
// holds the positions of it and the next object, while four such loads
// of a group of eight stay inside the group.
func TestObjectLayoutForNearMask(t *testing.T) {
	var o Object
	size := int(unsafe.Sizeof(o))
	x, y := int(unsafe.Offsetof(o.X)), int(unsafe.Offsetof(o.Y))
	assert.Equal(t, x+2, y, "Y must follow X")
	assert.Equal(t, 2, int(unsafe.Sizeof(o.X)))
	assert.LessOrEqual(t, size+y+2, 16, "a 16-byte load must hold two objects' positions")
	assert.LessOrEqual(t, 6*size+16, 8*size, "the last load of a group must stay in the group")
}

// TestNearMaskKernel compares the vector kernel with the plain loop and
// with the distance test itself, on random objects, at every count up to
// 64, at the end of the array (where the kernel may not read a whole
// group), and with radii at and beyond the distances that occur.
func TestNearMaskKernel(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; nearMask is all there is")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, capacity := range []int{1, 7, 8, 9, 63, 64, 65, 71, 130} {
		w := &World{objects: make([]Object, capacity), vectorNear: true}
		for trial := range 200 {
			spread := []int{4, 40, MaxSide}[trial%3]
			for i := range w.objects {
				w.objects[i] = Object{X: int16(rng.IntN(spread)), Y: int16(rng.IntN(spread)), Kind: ObjectKind(rng.IntN(8)), Health: int8(rng.Int())}
			}
			px, py := rng.IntN(spread), rng.IntN(spread)
			radius := []int{0, 1, 17, 18, 19, 2 * MaxSide, 1 << 16, rng.IntN(40)}[trial%8]
			base := rng.IntN(capacity)
			end := min(base+rng.IntN(66), capacity, base+64)
			got := w.nearMask(base, end, px, py, radius)
			plain := nearMask(w.objects[base:end], px, py, radius)
			var want uint64
			for j := range end - base {
				o := w.objects[base+j]
				if abs(int(o.X)-px)+abs(int(o.Y)-py) < radius {
					want |= 1 << j
				}
			}
			require.Equal(t, want, plain, "plain: capacity %d, objects [%d, %d), player (%d, %d), radius %d", capacity, base, end, px, py, radius)
			require.Equal(t, want, got, "vector: capacity %d, objects [%d, %d), player (%d, %d), radius %d", capacity, base, end, px, py, radius)
		}
	}
}

// TestVectorCreaturesSameWorlds plays the same episodes with the vector
// kernel and with the plain loop, on worlds small and large (where more
// than 64 objects are in play), and compares every step's hash.
func TestVectorCreaturesSameWorlds(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; nearMask is all there is")
	}
	for _, size := range []int{9, 64, 200} {
		vec, err := New(Config{Width: size, Height: size, Rules: Extended()})
		require.NoError(t, err)
		plain, err := New(Config{Width: size, Height: size, Rules: Extended()})
		require.NoError(t, err)
		plain.vectorNear = false
		steps, seeds := 3000, uint64(4)
		if testing.Short() { // -short (make test runs sim without it): a tenth
			steps, seeds = 600, 2
		}
		acts := randomActions(steps, uint64(size))
		most := 0
		for seed := uint64(0); seed < seeds; seed++ {
			vec.Reset(seed)
			plain.Reset(seed)
			for i, a := range acts {
				vec.Step(a)
				plain.Step(a)
				require.Equal(t, plain.Hash(), vec.Hash(), "size %d, seed %d, step %d", size, seed, i+1)
				most = max(most, int(vec.s.NumObjects))
			}
		}
		if size == 200 {
			assert.Greater(t, most, 64, "the large world must hold more than one block of objects")
		}
	}
}

// TestBalanceOnePassSameWorlds plays the same episodes with every rule's
// due chunks decided in one pass and rule by rule, at day and at night
// (the zombie bounds follow daylight), and compares every step's hash.
func TestBalanceOnePassSameWorlds(t *testing.T) {
	// A player nothing hurts lives through the night, when zombies come.
	immortal := func(base func() *Rules) *Rules {
		r := base()
		harmless(r)
		r.Vitals.HungerLimit, r.Vitals.ThirstLimit, r.Vitals.FatigueLimit = 1<<14, 1<<14, 1<<14
		return r
	}
	for _, rules := range []*Rules{immortal(Classic), immortal(Extended)} {
		one, err := New(Config{Rules: rules})
		require.NoError(t, err)
		each, err := New(Config{Rules: rules})
		require.NoError(t, err)
		each.balanceRuleByRule = true
		acts := randomActions(2*DayLength, 5)
		spawns, steps := 0, 0
		for seed := uint64(0); seed < 3; seed++ {
			one.Reset(seed)
			each.Reset(seed)
			for i, a := range acts {
				before := one.s.NumObjects
				one.Step(a)
				each.Step(a)
				require.Equal(t, each.Hash(), one.Hash(), "%s, seed %d, step %d", one.rules.Name, seed, i+1)
				if one.s.NumObjects > before {
					spawns++
				}
				steps++
				if one.Done() {
					break
				}
			}
		}
		assert.Positive(t, spawns, "the episodes must balance something")
		t.Logf("%s: %d steps, %d spawns", one.rules.Name, steps, spawns)
	}
}

// TestDueChunksKept checks balance's kept due bits after every step: each
// chunk marked fresh must have the bits its counts give under the kept
// bounds, whatever changed the chunk (creatures moving, spawning and
// dying, tiles mined and placed, scenes loaded, worlds copied).
func TestDueChunksKept(t *testing.T) {
	check := func(w *World, where string) { checkDue(t, w, where) }
	for _, rules := range []func() *Rules{Classic, Extended} {
		w, err := New(Config{Rules: rules()})
		require.NoError(t, err)
		copied := w.Clone()
		steps := 20000
		if testing.Short() { // -short (make test runs sim without it)
			steps = 4000
		}
		acts := randomActions(steps, 11)
		seed := uint64(0)
		w.Reset(seed)
		for i, a := range acts {
			if w.Step(a).Done {
				seed++
				w.Reset(seed)
			}
			check(w, fmt.Sprintf("%s, seed %d, step %d", w.rules.Name, seed, i))
			if i%997 == 0 { // a copy keeps the bits, and steps on from them
				copied.CopyFrom(w)
				copied.Step(ActNoop)
				check(copied, "copy")
			}
		}
	}
	w := sceneWorldWith(t, "#####\n#@.C#\n#Z..#\n#####", Classic())
	for range 50 {
		w.Step(ActNoop)
		check(w, "scene")
	}
}

// TestBalanceDue compares balanceDue's branch-free mask with the test it
// replaced, chunk by chunk, on random counts and bounds beyond the bytes'
// range.
func TestBalanceDue(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 5000 {
		chunks := make([]chunkCounts, 1+rng.IntN(64))
		for c := range chunks {
			for r := range 3 {
				chunks[c].space[r] = uint8(rng.IntN(256))
				chunks[c].pop[r] = uint8([]int{rng.IntN(4), rng.IntN(256)}[trial%2])
			}
			chunks[c].held = rng.IntN(3) > 0
		}
		r := rng.IntN(3)
		bound := func() int { return []int{-1 << 30, -2, -1, 0, 1, 2, 3, 255, 256, 257, 1 << 30}[rng.IntN(11)] }
		lo, hi, minSpace := bound(), bound(), bound()
		if trial%3 == 0 {
			lo, hi, minSpace = rng.IntN(5), rng.IntN(5), rng.IntN(60)
		}
		var want uint64
		for c := range chunks {
			space, pop := int(chunks[c].space[r]), int(chunks[c].pop[r])
			if chunks[c].held && (pop < lo && space >= minSpace && space > 0 || pop > hi) {
				want |= 1 << c
			}
		}
		require.Equal(t, want, balanceDue(chunks, r, lo, hi, minSpace), "trial %d: rule %d, lo %d, hi %d, min space %d", trial, r, lo, hi, minSpace)
	}
}

func BenchmarkNearMask(b *testing.B) {
	w := newBenchWorld(b)
	px, py := w.Player()
	n := min(int(w.s.NumObjects), 64)
	for _, vector := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "vector"}[vector]
		b.Run(name, func(b *testing.B) {
			if vector && !hasVectorKernels() {
				b.Skip("no vector kernels")
			}
			w.vectorNear = vector
			b.ReportAllocs()
			for b.Loop() {
				_ = w.nearMask(0, n, px, py, 18)
			}
		})
	}
}

// TestNearbyMaterialsFastPath compares the row-reading 3×3 square with
// the tile-by-tile reference at every position of a few worlds, edges and
// corners included.
func TestNearbyMaterialsFastPath(t *testing.T) {
	for _, size := range [][2]int{{3, 3}, {5, 9}, {64, 64}} {
		w, err := New(Config{Width: size[0], Height: size[1], Rules: Extended()})
		require.NoError(t, err)
		for seed := uint64(0); seed < 3; seed++ {
			w.Reset(seed)
			for y := range w.height {
				for x := range w.width {
					w.objects[0].X, w.objects[0].Y = int16(x), int16(y) // only the position is read
					require.Equal(t, w.nearbyMaterialsPlain(), w.nearbyMaterials(), "%v, seed %d, (%d, %d)", size, seed, x, y)
				}
			}
		}
	}
}

// TestEveryVitalIsClamped: updatePlayer clamps the four vitals by name;
// each one pushed past its bounds comes back within them after a step.
func TestEveryVitalIsClamped(t *testing.T) {
	for _, it := range []Item{ItemHealth, ItemFood, ItemDrink, ItemEnergy} {
		for _, off := range []int8{3, -3} {
			w, err := New(Config{Width: 9, Height: 9})
			require.NoError(t, err)
			w.Reset(1)
			max := w.rules.Items[it].Max
			if off > 0 {
				w.s.Inventory[it] = max + off
			} else {
				w.s.Inventory[it] = off
			}
			w.Step(ActNoop)
			got := w.s.Inventory[it]
			assert.True(t, got >= 0 && got <= max, "%s set to %+d past its bounds: %d after a step", w.rules.Items[it].Name, off, got)
		}
	}
}

// BenchmarkNearbyMaterials: the 3×3 square read as three rows against the
// tile-by-tile reference, at every position of a world.
func BenchmarkNearbyMaterials(b *testing.B) {
	w := newBenchWorld(b)
	for _, c := range []struct {
		name string
		f    func(*World) MaterialSet
	}{{"plain", (*World).nearbyMaterialsPlain}, {"rows", (*World).nearbyMaterials}} {
		b.Run(c.name, func(b *testing.B) {
			var sink MaterialSet
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				w.objects[0].X, w.objects[0].Y = int16(i&63), int16(i>>6&63)
				sink |= c.f(w)
			}
			_ = sink
		})
	}
}

// TestEveryVitalClampedToItsOwnMax: with a different maximum for each
// vital, in both orders, a vital pushed past its maximum comes back within
// its own bounds, not another vital's (under classic's maxima, all 9, the
// clamps could take one another's bound and no test would see it).
func TestEveryVitalClampedToItsOwnMax(t *testing.T) {
	vitals := []Item{ItemHealth, ItemFood, ItemDrink, ItemEnergy}
	for _, maxima := range [][4]int8{{9, 8, 7, 6}, {6, 7, 8, 9}} {
		r := Classic().Clone()
		for i, it := range vitals {
			r.Items[it].Max = maxima[i]
			r.Items[it].Initial = min(r.Items[it].Initial, maxima[i])
		}
		require.NoError(t, r.Compile())
		for i, it := range vitals {
			w, err := New(Config{Width: 9, Height: 9, Rules: r})
			require.NoError(t, err)
			w.Reset(1)
			w.s.Inventory[it] = maxima[i] + 3
			w.Step(ActNoop)
			got := w.s.Inventory[it]
			assert.True(t, got >= 0 && got <= maxima[i], "maxima %v: %s set to %d, max %d: %d after a step", maxima, r.Items[it].Name, maxima[i]+3, maxima[i], got)
		}
	}
}

// TestNearMaskPlainWithoutKernel: a world that may not use the vector
// kernel (vectorNear false) takes the plain loop at every count, even
// where the kernel would answer otherwise (a radius or a player outside
// the kernel's 16-bit domain), so nothing but the plain loop runs there.
func TestNearMaskPlainWithoutKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	w := &World{objects: make([]Object, 130)}
	for i := range w.objects {
		w.objects[i] = Object{X: int16(rng.IntN(64)), Y: int16(rng.IntN(64))}
	}
	if hasVectorKernels() { // the test has teeth: the kernel answers otherwise here
		pxy := uint32(10) | uint32(10)<<16 // 1<<16 + 10 in 16 bits
		require.NotEqual(t, nearMask(w.objects[:64], 1<<16+10, 10, 18), nearMaskAVX2(&w.objects[0], 8, pxy, 18))
	}
	for _, radius := range []int{-1, 18, 1 << 17, 1 << 20} {
		for _, p := range [][2]int{{10, 10}, {-3, 5}, {1<<16 + 10, 10}} {
			for base := 0; base < len(w.objects); base += 13 {
				for end := base; end <= min(base+64, len(w.objects)); end++ {
					require.Equal(t, nearMask(w.objects[base:end], p[0], p[1], radius), w.nearMask(base, end, p[0], p[1], radius),
						"objects [%d, %d), player %v, radius %d", base, end, p, radius)
				}
			}
		}
	}
}
