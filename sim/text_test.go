package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sceneWorld builds a world of exactly the ASCII map's size with chunk
// balancing off, so that no creature appears unasked.
func sceneWorld(t *testing.T, scene string) *World {
	return sceneWorldWith(t, scene, Classic())
}

// sceneWorldWith is sceneWorld with the given rules (which it edits).
func sceneWorldWith(t *testing.T, scene string, r *Rules) *World {
	t.Helper()
	rows, err := ParseASCII(scene)
	require.NoError(t, err)
	r.Creature.BalanceEvery = 1 << 30
	w, err := New(Config{Width: len(rows[0]), Height: len(rows), Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(scene))
	return w
}

func TestDescribe(t *testing.T) {
	w := sceneWorld(t, `
.........
.T.......
.........
....@....
....#....
~........
......C..
.........
.........
`)
	require.NoError(t, w.SetInventory(ItemWood, 3))
	out := w.Step(ActNoop)
	text := w.Describe(&out)
	for _, want := range []string{
		"Step 1 of 10000. It is day",
		"Last action: noop: nothing happened.",
		"Health 9/9, food 9/9, drink 9/9, energy 9/9.",
		"Inventory: 3 wood.",
		"You face south; in front of you: stone.",
		"- stone: 1 south\n",
		"- tree: 2 north, 3 west\n",
		"- water: 2 south, 4 west\n",
	} {
		assert.Contains(t, text, want)
	}
	// Offsets are per axis, never compass diagonals.
	for _, diag := range []string{"north-west", "northwest", "south-east", "southeast", "north-east", "south-west"} {
		assert.NotContains(t, text, diag)
	}
	assert.Equal(t, text, w.Describe(&out), "text is deterministic")
}

func TestOffset(t *testing.T) {
	assert.Equal(t, "here", Offset(0, 0))
	assert.Equal(t, "2 north, 3 west", Offset(-3, -2))
	assert.Equal(t, "1 east", Offset(1, 0))
	assert.Equal(t, "4 south", Offset(0, 4))
}

func TestOutcomeText(t *testing.T) {
	w := sceneWorld(t, `
...
.@.
.#.
`)
	r := w.Rules()
	out := w.Step(ActDo)
	assert.Equal(t, "do: failed, needs 1 wood_pickaxe", out.Text(r))
	out = w.Step(ActMakeStonePickaxe)
	assert.Equal(t, "make_stone_pickaxe: failed, needs a table nearby and 1 wood, 1 stone", out.Text(r))
	out = w.Step(ActMoveDown)
	assert.Equal(t, "move_down: blocked, stone is in the way", out.Text(r))
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
