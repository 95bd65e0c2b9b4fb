package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLocalViewFastPath: the fast path equals the plain one everywhere,
// edges and corners included, in both rulesets, as creatures move.
func TestLocalViewFastPath(t *testing.T) {
	for _, r := range []*Rules{Classic(), Extended()} {
		w, err := New(Config{Width: 24, Height: 24, Rules: r})
		require.NoError(t, err)
		w.Reset(5)
		var fast, plain [ViewSize * ViewSize]uint8
		for step := 0; step < 40; step++ {
			for y := 0; y < 24; y++ {
				for x := 0; x < 24; x++ {
					if w.MovePlayer(x, y) != nil {
						continue
					}
					w.LocalView(fast[:])
					w.localViewPlain(plain[:], x, y)
					require.Equal(t, plain, fast, "%s at (%d, %d), step %d", r.Name, x, y, step)
				}
			}
			w.Step(Action(step % len(r.Actions)))
		}
	}
}

// TestWindowView: each window's view is the world's tiles around the
// player, tile by tile, edges and corners included; Crafter's is 7 rows
// of 9 with the player at row 3, column 4.
func TestWindowView(t *testing.T) {
	w, err := New(Config{Width: 16, Height: 16, Rules: Classic()})
	require.NoError(t, err)
	w.Reset(3)
	require.Equal(t, [2]int{9, 7}, [2]int{CrafterWindow().Width(), CrafterWindow().Height()})
	require.Equal(t, [2]int{ViewSize, ViewSize}, [2]int{SquareWindow().Width(), SquareWindow().Height()})
	player := int(w.Rules().SemanticID(ObjPlayer))
	for _, v := range []Window{SquareWindow(), CrafterWindow()} {
		dst := make([]uint8, v.Width()*v.Height())
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				if w.MovePlayer(x, y) != nil {
					continue
				}
				w.WindowView(dst, v)
				for ty := 0; ty < v.Height(); ty++ {
					for tx := 0; tx < v.Width(); tx++ {
						require.Equal(t, w.SemanticAt(x-v.HalfW+tx, y-v.HalfH+ty), dst[ty*v.Width()+tx], "%+v at (%d, %d), tile (%d, %d)", v, x, y, tx, ty)
					}
				}
				require.Equal(t, player, int(dst[v.HalfH*v.Width()+v.HalfW]))
			}
		}
	}
	require.Equal(t, Window{HalfW: 4, HalfH: 3}, CrafterWindow(), "Crafter's player: column 4, row 3")
}

func BenchmarkLocalView(b *testing.B) {
	w, _ := New(Config{})
	w.Reset(1)
	var dst [ViewSize * ViewSize]uint8
	px, py := w.Player()
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			w.LocalView(dst[:])
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			w.localViewPlain(dst[:], px, py)
		}
	})
}

func TestLocalView(t *testing.T) {
	w := sceneWorld(t, `
~.......
.@C.....
.#......
`)
	var o Observation
	w.Observe(&o)
	r := w.Rules()
	// The player at (1, 1) sits at the view's centre (4, 4); tiles outside
	// the map read 0.
	at := func(dx, dy int) uint8 { return o.View[(4+dy)*ViewSize+4+dx] }
	assert.Equal(t, r.SemanticID(ObjPlayer), at(0, 0))
	assert.Equal(t, uint8(13), at(0, 0), "Crafter's id of the player")
	assert.Equal(t, uint8(14), at(1, 0), "cow")
	assert.Equal(t, uint8(MatWater), at(-1, -1))
	assert.Equal(t, uint8(MatStone), at(0, 1))
	assert.Equal(t, uint8(0), at(-2, 0), "outside the map")
	assert.Equal(t, 1, o.X)
	assert.Equal(t, DirDown, o.Facing)
	assert.Equal(t, int8(9), o.Inventory[ItemHealth])
	full := make([]uint8, w.Width()*w.Height())
	w.SemanticMap(full)
	assert.Equal(t, uint8(14), full[1*8+2])
	assert.True(t, strings.HasPrefix(w.ASCII(), "~......."))
}
