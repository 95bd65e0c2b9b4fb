package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crafterProportions are the spec's measurements over 20 Crafter worlds
// of 64×64: mean tiles per material and creatures at the start. Beside
// each, crafterGenerator is the same mean and its per-world standard
// deviation over 4,000 worlds of Crafter's own generator: worldgen.py
// transcribed over OpenSimplex noise, a measuring instrument kept out of
// this repository (docs/fidelity.md). With our creature rules on those
// worlds, all eight reference statistics of the spec came within 4.2% of
// Crafter's; the 20-world figures are themselves estimates, 1 to 3 of
// their standard errors off the 4,000-world ones (path: 279 against 352).
var crafterProportions = []struct {
	name          string
	mean          float64 // spec, 20 worlds
	generator, sd float64 // Crafter's generator, 4,000 worlds
}{
	{"grass", 1871, 1763.5, 257.6}, {"water", 855, 871.8, 250.8}, {"stone", 548, 582.9, 147.4},
	{"path", 279, 352.3, 114.2}, {"sand", 251, 231.3, 54.4}, {"tree", 203, 189.8, 36.5},
	{"coal", 44, 50.9, 16.1}, {"lava", 25, 31.8, 18.8}, {"iron", 17, 18.5, 8.4}, {"diamond", 2.7, 3.2, 2.0},
	{"cow", 28, 26.0, 6.4}, {"zombie", 16, 14.7, 4.1}, {"skeleton", 8, 9.7, 4.1},
}

// worldgenMeans generates n worlds and returns the mean count of every
// material and creature kind, by name.
func worldgenMeans(t testing.TB, n int) map[string]float64 {
	w, err := New(Config{})
	require.NoError(t, err)
	sums := map[string]float64{}
	for seed := 0; seed < n; seed++ {
		w.Reset(uint64(seed))
		for y := 0; y < w.Height(); y++ {
			for x := 0; x < w.Width(); x++ {
				sums[w.rules.Materials[w.Material(x, y)].Name]++
			}
		}
		for _, o := range w.Objects() {
			sums[w.rules.KindName(o.Kind)]++
		}
	}
	for k := range sums {
		sums[k] /= float64(n)
	}
	return sums
}

func TestWorldgenProportions(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 50
	}
	means := worldgenMeans(t, n)
	for _, want := range crafterProportions {
		got := means[want.name]
		t.Logf("%-9s %7.1f  (Crafter: spec %6.1f, %+4.0f%%; generator %6.1f, %+4.0f%%)", want.name, got,
			want.mean, 100*(got/want.mean-1), want.generator, 100*(got/want.generator-1))
		// The spec's figure within 30%, widened by two standard errors of a
		// 20-world mean: it is one.
		se20 := want.sd / math.Sqrt(20)
		assert.InDelta(t, want.mean, got, 0.3*want.mean+2*se20, "%s per world over %d seeds, against the spec", want.name, n)
		// The generator's figure within 20%, widened by three standard
		// errors of our own n-world mean.
		assert.InDelta(t, want.generator, got, 0.2*want.generator+3*want.sd/math.Sqrt(float64(n)),
			"%s per world over %d seeds, against Crafter's generator", want.name, n)
	}
}

func TestWorldgenStartArea(t *testing.T) {
	w, err := New(Config{})
	require.NoError(t, err)
	for seed := uint64(0); seed < 200; seed++ {
		w.Reset(seed)
		px, py := w.Player()
		require.Equal(t, MatGrass, w.Material(px, py), "seed %d", seed)
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				assert.Equal(t, MatGrass, w.Material(px+dx, py+dy), fmt.Sprintf("seed %d around start", seed))
			}
		}
	}
}

// TestVectorKernelsSameWorlds generates worlds with the vector kernels
// and with the generic code and requires the same worlds, over sizes that
// end inside lattice cells and over every ruleset's generation settings.
func TestVectorKernelsSameWorlds(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; the generic code is all there is")
	}
	rulesets := map[string]func() *Rules{
		"classic": Classic, "extended": Extended,
		"extended, scaled":  func() *Rules { r := Extended(); r.Gen.Abundance, r.Gen.Hostility = 150, 40; return r },
		"extended, extreme": func() *Rules { r := Extended(); r.Gen.Abundance, r.Gen.Hostility = 100000, 1; return r },
		// Rulesets without extra ores take the vector decision
		// (decideAVX2, decideAVX512), at every rarity.
		"classic, scaled":   func() *Rules { r := Classic(); r.Gen.Abundance, r.Gen.Hostility = 150, 40; return r },
		"classic, abundant": func() *Rules { r := Classic(); r.Gen.Abundance, r.Gen.Hostility = 100000, 1; return r },
		"classic, hostile":  func() *Rules { r := Classic(); r.Gen.Abundance, r.Gen.Hostility = 1, 100000; return r },
		"extended, no ores": func() *Rules { r := Extended(); r.Gen.Ores = nil; return r },
	}
	for name, rules := range rulesets {
		for _, mode := range decideModes()[1:] {
			for _, size := range [][2]int{{3, 3}, {5, 7}, {17, 9}, {64, 64}, {65, 63}, {250, 70}, {1024, 12}, {13, 300}, {1000, 5}, {1017, 4}} {
				vec, err := New(Config{Width: size[0], Height: size[1], Rules: rules()})
				require.NoError(t, err)
				mode.set(vec.gen)
				gen, err := New(Config{Width: size[0], Height: size[1], Rules: rules()})
				require.NoError(t, err)
				decideMode{}.set(gen.gen) // the generic code, no kernel at all
				for seed := uint64(0); seed < 10; seed++ {
					vec.Reset(seed * 7919)
					gen.Reset(seed * 7919)
					require.Equal(t, gen.tiles, vec.tiles, "%s, %v, %v, seed %d", name, mode, size, seed)
					require.Equal(t, gen.Hash(), vec.Hash(), "%s, %v, %v, seed %d", name, mode, size, seed)
					require.Equal(t, gen.chunks, vec.chunks, "%s, %v, %v, seed %d", name, mode, size, seed)
				}
			}
		}
	}
}

// TestLatticeAmplitude bounds the lattice values the interpolation reads:
// the vector kernels are exact while neighbouring values differ by less
// than 2^23 (lerp_amd64.s), and the fields stay far inside that.
func TestLatticeAmplitude(t *testing.T) {
	for _, rules := range []*Rules{Classic(), Extended()} {
		w, err := New(Config{Rules: rules})
		require.NoError(t, err)
		for seed := uint64(0); seed < 200; seed++ {
			w.Reset(seed)
			for i, v := range w.gen.lattice {
				require.LessOrEqual(t, abs(int(v)), 2*one, "%s, seed %d, lattice point %d", rules.Name, seed, i)
			}
		}
	}
}

// TestResetAfterSetRules requires a world whose rules were replaced to
// generate what a world made with those rules generates, chunk counts
// included (Hash leaves them out).
func TestResetAfterSetRules(t *testing.T) {
	b := Classic().Clone()
	b.Materials[MatSand].Walkable = false
	b.Creatures[ObjCow].Balance.Material = MatSand
	require.NoError(t, b.Compile())
	w, err := New(Config{})
	require.NoError(t, err)
	w.Reset(99) // a generation with the old rules first
	require.NoError(t, w.SetRules(b))
	fresh, err := New(Config{Rules: b})
	require.NoError(t, err)
	for seed := uint64(0); seed < 20; seed++ {
		w.Reset(seed)
		fresh.Reset(seed)
		require.Equal(t, fresh.Hash(), w.Hash(), "seed %d", seed)
		require.Equal(t, fresh.chunks, w.chunks, "seed %d", seed)
	}
}

// TestCountRow requires countRow, which counts eight tiles at a time into
// columns and visits only the tiles whose draws may start a creature, to
// count and start what the tile-by-tile reference does: every chunk
// size, widths that end within a word or a chunk, rules that share a
// counted material and rules that count one of their own, on both
// decision paths. The chunk counts must also match a recount of the map.
func TestCountRow(t *testing.T) {
	rulesets := map[string]func(cs int) *Rules{
		"classic": func(cs int) *Rules { r := Classic().Clone(); r.Creature.ChunkSize = cs; return r },
		"extended": func(cs int) *Rules {
			r := Extended().Clone()
			r.Creature.ChunkSize = cs
			return r
		},
		// Cows count sand, the skeletons' path is shared with zombies.
		"own materials": func(cs int) *Rules {
			r := Classic().Clone()
			r.Creature.ChunkSize = cs
			r.Creatures[ObjCow].Balance.Material = MatSand
			r.Creatures[ObjZombie].Balance.Material = MatPath
			return r
		},
		// Extra ores take the plain decision: without them the vector one.
		"extended, no ores": func(cs int) *Rules {
			r := Extended().Clone()
			r.Creature.ChunkSize = cs
			r.Gen.Ores = nil
			return r
		},
		// decideAVX2 looks walkability up by material, four materials to a
		// byte lane of its table: whole blocks of them walkable (tree and
		// lava with sand and path; coal, iron and diamond with table), and
		// sand not.
		"walkable blocks": func(cs int) *Rules {
			r := Classic().Clone()
			r.Creature.ChunkSize = cs
			for _, m := range []Material{MatTree, MatLava, MatCoal, MatIron, MatDiamond, MatTable} {
				r.Materials[m].Walkable = true
			}
			r.Materials[MatSand].Walkable = false
			return r
		},
		// A fourth balance rule, so that every column set of
		// generator.columns counts a material of its own.
		"four rules": func(cs int) *Rules {
			r := Classic().Clone()
			r.Creature.ChunkSize = cs
			r.Creatures[ObjZombie].Balance.Material = MatSand
			b := *r.Creatures[ObjCow].Balance
			b.Material, b.Order = MatTree, 3
			r.Creatures[ObjPlant].Balance = &b
			return r
		},
	}
	for name, rules := range rulesets {
		for _, cs := range []int{1, 5, 8, 12, 15} {
			for _, size := range [][2]int{{3, 3}, {9, 17}, {64, 64}, {65, 40}, {250, 20}} {
				r := rules(cs)
				require.NoError(t, r.Compile())
				if name == "four rules" {
					require.Len(t, r.balance, maxBalanceRules)
				}
				for _, mode := range decideModes() {
					fast, err := New(Config{Width: size[0], Height: size[1], Rules: r})
					require.NoError(t, err)
					plain, err := New(Config{Width: size[0], Height: size[1], Rules: r})
					require.NoError(t, err)
					mode.set(fast.gen)
					decideMode{}.set(plain.gen)
					plain.gen.plainCount = true
					for seed := uint64(0); seed < 6; seed++ {
						at := fmt.Sprintf("%s, chunk size %d, %v, %v, seed %d", name, cs, size, mode, seed)
						fast.Reset(seed * 104729)
						plain.Reset(seed * 104729)
						require.Equal(t, plain.Hash(), fast.Hash(), at)
						require.Equal(t, plain.Objects(), fast.Objects(), at)
						require.Equal(t, plain.chunks, fast.chunks, at)
						require.Empty(t, invariantError(fast), at)
						if g := fast.gen; g.vector && len(r.Gen.Ores) == 0 {
							// decideAVX2 and decideAVX512 keep no draw on the last row's
							// tiles that cannot start a creature.
							for x := range size[0] {
								m, c := g.tileRow[x], g.creatures[x]
								require.True(t, c == 0 || g.walkable[m], "%s: x %d, material %d, draws %#x", at, x, m, c)
								require.True(t, c&passCow == 0 || m == MatGrass, "%s: x %d, material %d, draws %#x", at, x, m, c)
							}
						}
					}
				}
			}
		}
	}
}

// TestStartAreaKernelBounds checks what startAreaAVX2 relies on to
// compute in 32-bit lanes what logistic computes in 64 bits: the
// product of a table step and a weight stays below 2^31, the score s
// (startDist plus twice a lattice value) times 8 fits 32 bits, and the
// table never decreases, so that near is never negative and 5·near/2
// is a shift.
func TestStartAreaKernelBounds(t *testing.T) {
	for k := 1; k < len(logisticTable); k++ {
		step := int64(logisticTable[k]) - int64(logisticTable[k-1])
		require.GreaterOrEqual(t, step, int64(0), "entry %d", k)
		require.Less(t, step*(one-1), int64(1)<<31, "entry %d", k)
	}
	require.Positive(t, logisticTable[0])
	w, err := New(Config{})
	require.NoError(t, err)
	for _, row := range w.gen.startDist {
		for _, d := range row {
			require.Less(t, (int64(abs(int(d)))+2*2*one)*8, int64(1)<<31)
		}
	}
}

// TestStartAreaKernel compares startAreaAVX2 with startArea's scalar
// formula over scores well past both ends of the logistic's table (a
// world's stay inside it). Below it the kernel's clamp decides the value;
// above it the clamp only keeps the gathers inside the table, since a
// positive score makes the tile startTile whatever the logistic gives.
func TestStartAreaKernel(t *testing.T) {
	if !hasVectorKernels() {
		t.Skip("this machine has no vector kernels; the generic code is all there is")
	}
	rng := RNG{State: 17}
	const n = 64
	var water, mountain, tree, start, dist [n]int32
	var wantW, wantM, wantT [n]int32
	for round := range 200 {
		for i := range n {
			water[i] = int32(rng.Uint64()%(4*one)) - 2*one
			mountain[i] = int32(rng.Uint64()%(4*one)) - 2*one
			tree[i] = int32(rng.Uint64()%(4*one)) - 2*one
			start[i] = int32(rng.Uint64()%(4*one)) - 2*one
			dist[i] = int32(rng.Uint64()%(40*one)) - 20*one // scores of ±24·one
			s := dist[i] + startNoise*start[i]
			near := logistic(s)
			wantW[i], wantM[i], wantT[i] = water[i]-2*near, mountain[i]-5*near/2, tree[i]
			if s > 0 {
				wantW[i], wantM[i], wantT[i] = startTile, startTile, startTile
			}
		}
		startAreaAVX2(&water[0], &mountain[0], &tree[0], &start[0], &dist[0], n/8, &logisticTable[0])
		require.Equal(t, wantW, water, "round %d", round)
		require.Equal(t, wantM, mountain, "round %d", round)
		require.Equal(t, wantT, tree, "round %d", round)
	}
}
