package render

import (
	"fmt"
	"hash/fnv"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/golden"
	"github.com/longcraft/longcraft/sim"
)

func atlas(t testing.TB) *Atlas {
	t.Helper()
	a, err := LoadAtlas()
	require.NoError(t, err)
	return a
}

func world(t testing.TB, seed uint64) *sim.World {
	t.Helper()
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	w.Reset(seed)
	return w
}

// night puts w in the middle of the night (daylight near zero).
func night(t testing.TB, w *sim.World) {
	require.NoError(t, w.SetStepCount(210))
	require.Less(t, w.Daylight(), int32(2000))
}

func TestNewRejectsBadSizes(t *testing.T) {
	a := atlas(t)
	for _, size := range []int{0, 8, 5000} {
		_, err := NewAgentView(a, size, RGB)
		assert.Error(t, err, "size %d", size)
	}
	_, err := NewAgentView(a, 64, Format(2))
	assert.Error(t, err)
	_, err = NewMapView(a, 0, RGB)
	assert.Error(t, err)
}

func TestAgentViewLayout(t *testing.T) {
	a := atlas(t)
	w := world(t, 1)
	for _, size := range []int{64, 96, 100, 256} {
		v, err := NewAgentView(a, size, RGB)
		require.NoError(t, err)
		// Render over two different garbage fills: equal results mean every
		// byte was written.
		a, b := make([]byte, v.FrameBytes()), make([]byte, v.FrameBytes())
		for i := range b {
			b[i] = 0xFF
		}
		v.Render(w, a)
		v.Render(w, b)
		require.Equal(t, a, b, "size %d: some bytes left unwritten", size)
	}
}

// TestRenderOverKeepsTheBorder holds RenderOver to Render on a reused
// frame (one world's frame drawn over another's, night and asleep over
// day, at the map's edge) and to its claim that nothing but the border's
// fill writes outside the grid: border pixels set to a marker survive it.
func TestRenderOverKeepsTheBorder(t *testing.T) {
	a := atlas(t)
	day := world(t, 1)
	dark := world(t, 7)
	night(t, dark)
	dark.SetSleeping(true)
	edge := world(t, 9)
	require.NoError(t, edge.SetStepCount(250))
	require.NoError(t, edge.MovePlayer(0, 1))
	for _, f := range []Format{RGB, RGBA} {
		// 137 px: cells of night noise 2 px wide that do not divide the
		// 135 px grid, so the last ones are cut at its edges.
		for _, size := range []int{64, 65, 96, 100, 137, 256} {
			v, err := NewAgentView(a, size, f)
			require.NoError(t, err)
			for _, w := range []*sim.World{dark, edge} {
				want := make([]byte, v.FrameBytes())
				v.Render(w, want)
				got := make([]byte, v.FrameBytes())
				v.Render(day, got)
				v.RenderOver(w, got)
				require.Equal(t, want, got, "size %d format %d", size, f)
				if f == RGB {
					zeroed := make([]byte, v.FrameBytes())
					v.RenderOver(w, zeroed)
					require.Equal(t, want, zeroed, "size %d: onto a zeroed buffer", size)
				}
			}
			bpp, grid, border := int(f), v.unit*viewCols, v.border
			marked := make([]byte, v.FrameBytes())
			inGrid := func(i int) bool {
				x, y := i/bpp%size, i/bpp/size
				return x >= border && x < border+grid && y >= border && y < border+grid
			}
			for i := range marked {
				if !inGrid(i) {
					marked[i] = 0xA5
				}
			}
			v.RenderOver(dark, marked)
			for i := range marked {
				if !inGrid(i) {
					require.Equal(t, uint8(0xA5), marked[i], "size %d format %d: byte %d outside the grid written", size, f, i)
				}
			}
		}
	}
}

func TestRGBAMatchesRGB(t *testing.T) {
	a := atlas(t)
	w := world(t, 3)
	night(t, w)
	rgb, err := NewAgentView(a, 96, RGB)
	require.NoError(t, err)
	rgba, err := NewAgentView(a, 96, RGBA)
	require.NoError(t, err)
	f3 := make([]byte, rgb.FrameBytes())
	f4 := make([]byte, rgba.FrameBytes())
	rgb.Render(w, f3)
	rgba.Render(w, f4)
	for i := 0; i < 96*96; i++ {
		require.Equal(t, f3[3*i:3*i+3], f4[4*i:4*i+3], "pixel %d", i)
		require.Equal(t, uint8(255), f4[4*i+3])
	}
}

func TestFramesChangeWithState(t *testing.T) {
	a := atlas(t)
	v, err := NewAgentView(a, 64, RGB)
	require.NoError(t, err)
	w := world(t, 5)
	day := make([]byte, v.FrameBytes())
	v.Render(w, day)
	again := make([]byte, v.FrameBytes())
	v.Render(w, again)
	assert.Equal(t, day, again, "a frame is a pure function of the state")
	night(t, w)
	dark := make([]byte, v.FrameBytes())
	v.Render(w, dark)
	assert.Less(t, brightness(dark[:7*7*9*3]), brightness(day[:7*7*9*3])*2/3, "night is darker")
	w.SetSleeping(true)
	asleep := make([]byte, v.FrameBytes())
	v.Render(w, asleep)
	assert.NotEqual(t, dark, asleep)
}

func brightness(b []byte) int {
	s := 0
	for _, v := range b {
		s += int(v)
	}
	return s / len(b)
}

// goldenFrames renders the frames whose hashes are pinned: day and night
// agent views at 64 and 256 px, and a full map.
func goldenFrames(t *testing.T) (names []string, frames [][]byte, sizes [][2]int) {
	a := atlas(t)
	for _, size := range []int{64, 256} {
		v, err := NewAgentView(a, size, RGB)
		require.NoError(t, err)
		for _, seed := range []uint64{1, 2} {
			w := world(t, seed)
			for i := 0; i < 40; i++ {
				w.Step(sim.Action(i % 5)) // walk about a little
			}
			for _, when := range []string{"day", "night"} {
				if when == "night" {
					night(t, w)
				}
				f := make([]byte, v.FrameBytes())
				v.Render(w, f)
				names = append(names, fmt.Sprintf("agent_%d_seed%d_%s", size, seed, when))
				frames = append(frames, f)
				sizes = append(sizes, [2]int{size, size})
			}
		}
	}
	// The extended ruleset: its materials, a landmark, and more items than
	// the strip has slots (packed).
	ext, err := sim.New(sim.Config{Width: 9, Height: 7, Rules: sim.Extended()})
	require.NoError(t, err)
	ext.Reset(1)
	require.NoError(t, ext.LoadASCII(`
~~=~~....
..!..*#a.
....@..1.
.t.f..2..
..C...Z..
.........
.........`))
	for _, it := range []sim.Item{sim.ItemWood, sim.ItemIronIngot, sim.ItemTorch, sim.ItemCrystal, sim.ItemCompass, sim.ItemBridge} {
		require.NoError(t, ext.SetInventory(it, 2))
	}
	v, err := NewAgentView(a, 256, RGB)
	require.NoError(t, err)
	f0 := make([]byte, v.FrameBytes())
	v.Render(ext, f0)
	names = append(names, "agent_256_extended")
	frames = append(frames, f0)
	sizes = append(sizes, [2]int{256, 256})

	m, err := NewMapView(a, 4, RGB)
	require.NoError(t, err)
	w := world(t, 1)
	f := make([]byte, m.FrameBytes(w))
	m.Render(w, f)
	fw, fh := m.FrameSize(w)
	names = append(names, "map_seed1_x4")
	frames = append(frames, f)
	sizes = append(sizes, [2]int{fw, fh})
	return names, frames, sizes
}

func TestGoldenFrames(t *testing.T) {
	names, frames, sizes := goldenFrames(t)
	var got []string
	for i, f := range frames {
		h := fnv.New64a()
		h.Write(f)
		got = append(got, fmt.Sprintf("%s %016x", names[i], h.Sum64()))
	}
	path := filepath.Join("testdata", "golden_frames.txt")
	if golden.Rewrite() {
		require.NoError(t, os.MkdirAll(filepath.Join("testdata", "golden"), 0o755))
		for i, f := range frames {
			out, err := os.Create(filepath.Join("testdata", "golden", names[i]+".png"))
			require.NoError(t, err)
			require.NoError(t, png.Encode(out, Image(f, sizes[i][0], sizes[i][1], RGB)))
			require.NoError(t, out.Close())
		}
	}
	golden.File(t, path, []byte(strings.Join(got, "\n")+"\n"), "frames changed; look at the new PNGs (-rewrite writes them) before accepting them")
}

func TestNoAllocations(t *testing.T) {
	a := atlas(t)
	w := world(t, 1)
	v, err := NewAgentView(a, 64, RGB)
	require.NoError(t, err)
	f := make([]byte, v.FrameBytes())
	assert.Zero(t, testing.AllocsPerRun(100, func() { v.Render(w, f) }), "day")
	night(t, w)
	assert.Zero(t, testing.AllocsPerRun(100, func() { v.Render(w, f) }), "night")
	assert.Zero(t, testing.AllocsPerRun(100, func() { v.RenderOver(w, f) }), "over")
	m, err := NewMapView(a, 2, RGBA)
	require.NoError(t, err)
	mf := make([]byte, m.FrameBytes(w))
	assert.Zero(t, testing.AllocsPerRun(20, func() { m.Render(w, mf) }), "map")
	assert.Zero(t, testing.AllocsPerRun(100, func() { a.Text(f, 64, RGB, 1, 1, 1, "do: collected wood", 255, 255, 255) }), "text")
}

func benchmarkAgent(b *testing.B, size int, f Format, dark bool) {
	benchmarkRender(b, size, f, dark, (*AgentView).Render)
}

// BenchmarkAgentView64Over draws with RenderOver, as a batch reusing its
// frame buffers does.
func BenchmarkAgentView64Over(b *testing.B) {
	benchmarkRender(b, 64, RGB, false, (*AgentView).RenderOver)
}

func benchmarkRender(b *testing.B, size int, f Format, dark bool, render func(*AgentView, *sim.World, []byte)) {
	a := atlas(b)
	w := world(b, 1)
	if dark {
		night(b, w)
	}
	v, err := NewAgentView(a, size, f)
	require.NoError(b, err)
	frame := make([]byte, v.FrameBytes())
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	v.Render(w, frame) // RenderOver's frames are ones Render drew
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		render(v, w, frame)
	}
}

func BenchmarkAgentView64(b *testing.B)       { benchmarkAgent(b, 64, RGB, false) }
func BenchmarkAgentView64Night(b *testing.B)  { benchmarkAgent(b, 64, RGB, true) }
func BenchmarkAgentView256(b *testing.B)      { benchmarkAgent(b, 256, RGB, false) }
func BenchmarkAgentView512(b *testing.B)      { benchmarkAgent(b, 512, RGB, false) }
func BenchmarkAgentView512Night(b *testing.B) { benchmarkAgent(b, 512, RGB, true) }
func BenchmarkAgentView512RGBA(b *testing.B)  { benchmarkAgent(b, 512, RGBA, false) }

func BenchmarkMapView4(b *testing.B) {
	a := atlas(b)
	w := world(b, 1)
	m, err := NewMapView(a, 4, RGB)
	require.NoError(b, err)
	f := make([]byte, m.FrameBytes(w))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Render(w, f)
	}
}

// drawWorldPlain is drawWorld tile by tile: the ground, then the object
// ObjectAt finds there. The reference for drawWorld's pass over the
// objects.
func drawWorldPlain(v *AgentView, w *sim.World, dst []byte, stride, origin, variant int) {
	bpp := int(v.format)
	px, py := w.Player()
	for ty := 0; ty < viewRows; ty++ {
		for tx := 0; tx < viewCols; tx++ {
			x, y := px+tx-viewCols/2, py+ty-viewRows/2
			at := origin + ty*v.unit*stride + tx*v.unit*bpp
			v.world.draw(dst, stride, at, variant, v.layout.ground(w.Material(x, y)))
			if o, ok := w.ObjectAt(x, y); ok {
				v.world.draw(dst, stride, at, variant, v.layout.object(w.Rules(), o, w.Facing(), w.Sleeping()))
			}
		}
	}
}

// TestDrawWorldMatchesTileByTile compares drawWorld with the tile-by-tile
// reference: after every step of random play on several seeds (creatures
// come and go, arrows fly; a world that is done starts again), and on
// built scenes, small maps full of every kind of object (plants ripe and
// not, landmarks, arrows each way) with the player on every tile, corners
// and edges included, awake and asleep, by day and by night.
func TestDrawWorldMatchesTileByTile(t *testing.T) {
	a := atlas(t)
	for _, size := range []int{64, 137} {
		v, err := NewAgentView(a, size, RGB)
		require.NoError(t, err)
		stride := size * 3
		got, want := make([]byte, v.FrameBytes()), make([]byte, v.FrameBytes())
		compare := func(w *sim.World, what string, args ...any) {
			variant := 2 * levelOf(w.Daylight())
			if w.Sleeping() {
				variant++
			}
			v.drawWorld(w, got, stride, 0, variant)
			drawWorldPlain(v, w, want, stride, 0, variant)
			require.Equal(t, want, got, append([]any{"size %d: " + what, size}, args...)...)
		}
		inView := 0
		for seed := uint64(1); seed <= 4; seed++ {
			w := world(t, seed)
			r := sim.RNG{State: seed}
			for step := 0; step < 600; step++ {
				compare(w, "seed %d step %d", seed, step)
				px, py := w.Player()
				for _, o := range w.Objects()[1:] {
					if dx, dy := int(o.X)-px, int(o.Y)-py; max(dx, -dx) <= viewCols/2 && max(dy, -dy) <= viewRows/2 {
						inView++
					}
				}
				if w.Step(sim.Action(r.Intn(len(w.Rules().Actions)))).Done {
					w.Reset(seed*1000 + uint64(step))
				}
			}
		}
		require.Greater(t, inView, 500, "objects other than the player in view")
		for _, shape := range [][2]int{{9, 9}, {12, 5}, {20, 14}} {
			w := scene(t, shape[0], shape[1])
			for _, night := range []bool{false, true} {
				step := 0
				if night {
					step = 210
				}
				require.NoError(t, w.SetStepCount(step))
				for _, asleep := range []bool{false, true} {
					w.SetSleeping(asleep)
					for y := 0; y < shape[1]; y++ {
						for x := 0; x < shape[0]; x++ {
							if w.MovePlayer(x, y) == nil {
								compare(w, "%v scene, player at (%d, %d), night %v, asleep %v", shape, x, y, night, asleep)
							}
						}
					}
				}
			}
		}
	}
}

// scene builds a w×h world of grass and path with objects of every kind
// on about half its tiles: cows, zombies, skeletons, arrows facing each
// way, plants young and ripe, landmarks.
func scene(t *testing.T, width, height int) *sim.World {
	t.Helper()
	w, err := sim.New(sim.Config{Width: width, Height: height})
	require.NoError(t, err)
	w.Reset(1)
	w.RemoveObjects()
	ripe := w.Rules().Creatures[sim.ObjPlant].Ripe
	objs := []sim.Object{
		{Kind: sim.ObjCow, Health: 3}, {Kind: sim.ObjZombie, Health: 5}, {Kind: sim.ObjSkeleton, Health: 3},
		{Kind: sim.ObjArrow, Facing: sim.DirLeft}, {Kind: sim.ObjArrow, Facing: sim.DirRight},
		{Kind: sim.ObjArrow, Facing: sim.DirUp}, {Kind: sim.ObjArrow, Facing: sim.DirDown},
		{Kind: sim.ObjPlant, Health: 1, Grown: ripe / 2}, {Kind: sim.ObjPlant, Health: 1, Grown: ripe + 1},
		{Kind: sim.ObjLandmark, Health: 1},
	}
	kinds := map[sim.ObjectKind]int{}
	k := 0
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			m := sim.MatGrass
			if (x+y)%3 == 0 {
				m = sim.MatPath
			}
			require.NoError(t, w.SetMaterial(x, y, m))
			if (x*7+y*3)%2 == 0 {
				o := objs[k%len(objs)]
				o.X, o.Y = int16(x), int16(y)
				if w.AddObject(o) == nil {
					kinds[o.Kind]++
					k++
				}
			}
		}
	}
	for _, kind := range []sim.ObjectKind{sim.ObjCow, sim.ObjZombie, sim.ObjSkeleton, sim.ObjArrow, sim.ObjPlant, sim.ObjLandmark} {
		require.Positive(t, kinds[kind], "%v scene: no %s placed", [2]int{width, height}, kind)
	}
	return w
}

// BenchmarkDrawWorld times drawWorld's one pass over the objects against
// drawWorldPlain, its tile-by-tile reference, in one run (64 px, RGB).
func BenchmarkDrawWorld(b *testing.B) {
	v, err := NewAgentView(atlas(b), 64, RGB)
	require.NoError(b, err)
	w := world(b, 1)
	frame := make([]byte, v.FrameBytes())
	stride := v.size * int(v.format)
	origin := v.border*stride + v.border*int(v.format)
	for _, c := range []struct {
		name string
		draw func(*AgentView, *sim.World, []byte, int, int, int)
	}{{"plain", drawWorldPlain}, {"objects", (*AgentView).drawWorld}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.draw(v, w, frame, stride, origin, 0)
			}
		})
	}
}
