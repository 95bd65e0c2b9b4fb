package text

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// sceneWorld builds a classic world of exactly the ASCII map's size with
// chunk balancing off, so that no creature appears unasked.
func sceneWorld(t *testing.T, scene string) *sim.World {
	t.Helper()
	rows, err := sim.ParseASCII(scene)
	require.NoError(t, err)
	r := sim.Classic()
	r.Creature.BalanceEvery = 1 << 30
	w, err := sim.New(sim.Config{Width: len(rows[0]), Height: len(rows), Rules: r})
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
	require.NoError(t, w.SetInventory(sim.ItemWood, 3))
	out := w.Step(sim.ActNoop)
	text := Describe(w, &out)
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
	assert.Equal(t, text, Describe(w, &out), "text is deterministic")
}
