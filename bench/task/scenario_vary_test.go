package task

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// TestSymmetriesAreTheSquares8: the eight symmetries move a corner to each
// of the four corners, twice each, keep the map's tiles (a permutation),
// and turn arrows with the tiles.
func TestSymmetriesAreTheSquares8(t *testing.T) {
	const side = 4
	maps := map[string]bool{}
	corners := map[[2]int]int{}
	for k := 0; k < 8; k++ {
		sym := symmetry{side: side, k: k}
		m := sym.mapText("@.T.\n....\n..>.\n....\n")
		maps[m] = true
		corners[sym.point([2]int{0, 0})]++
		seen := map[[2]int]bool{}
		for y := 0; y < side; y++ {
			for x := 0; x < side; x++ {
				seen[sym.point([2]int{x, y})] = true
			}
		}
		assert.Len(t, seen, side*side, "symmetry %d is a permutation", k)
		ax, ay := sym.xy(2, 2)
		dx, dy := sym.dir(sim.DirRight).Offset()
		bx, by := sym.xy(3, 2)
		assert.Equal(t, [2]int{bx - ax, by - ay}, [2]int{dx, dy}, "symmetry %d turns directions as it moves tiles", k)
	}
	assert.Len(t, maps, 8)
	assert.Equal(t, map[[2]int]int{{0, 0}: 2, {3, 0}: 2, {0, 3}: 2, {3, 3}: 2}, corners)
	assert.Equal(t, "@.T.\n....\n..>.\n....\n", symmetry{side: side}.mapText("@.T.\n....\n..>.\n....\n"), "0 is the identity")
	assert.Equal(t, "@...\n....\nT.v.\n....\n", symmetry{side: side, k: 4}.mapText("@.T.\n....\n..>.\n....\n"), "4 transposes")
}

// TestVariedScenarioRebuildsFromItsSeed: a varied scenario's task is the
// same whether generated or rebuilt from the world seed a trace records,
// its goal's positions and start follow the seed, and the start never
// stands on a waypoint.
func TestVariedScenarioRebuildsFromItsSeed(t *testing.T) {
	grid := "@.....\n......\n......\n......\n......\n......\n"
	sc := &Scenario{Name: "g", Ruleset: "classic", Map: grid, NoSpawn: true,
		Goal: Sequence(Reach(5, 0), Reach(0, 5), Reach(5, 5)), Vary: []string{VarySymmetry, VaryStart, VaryWaypoints}}
	require.NoError(t, sc.Check())
	goals, starts := map[string]bool{}, map[[2]int]bool{}
	for i := uint64(0); i < 12; i++ {
		sp := Spec{Family: "g", Tier: TierScenario, Split: Eval, Index: i, Budget: 200, Scenario: sc}
		tk, err := Generate(sp, nil)
		require.NoError(t, err)
		again, err := Rebuild(sp, tk.Seed)
		require.NoError(t, err)
		assert.Equal(t, tk.Goal, again.Goal)
		w1, err := tk.NewWorld()
		require.NoError(t, err)
		w2, err := again.NewWorld()
		require.NoError(t, err)
		assert.Equal(t, w1.Hash(), w2.Hash())
		px, py := w1.Player()
		for _, g := range tk.Goal.Goals {
			assert.NotEqual(t, [2]int{g.X, g.Y}, [2]int{px, py})
		}
		goals[tk.Goal.String()], starts[[2]int{px, py}] = true, true
	}
	assert.Greater(t, len(goals), 8, "the seed draws the waypoints")
	assert.Greater(t, len(starts), 4, "the seed draws the start")
}

// TestVaryStartKeepsTheHiddenHidden: on a map whose far corner holds a
// tree out of the start's view, no drawn start sees a tree.
func TestVaryStartKeepsTheHiddenHidden(t *testing.T) {
	var m string
	for y := 0; y < 16; y++ {
		row := []byte("................")
		if y == 0 {
			row[0] = '@'
		}
		if y == 15 {
			row[15] = 'T'
		}
		m += string(row) + "\n"
	}
	sc := &Scenario{Name: "h", Ruleset: "classic", Map: m, NoSpawn: true, Goal: Obtain("wood", 1), Vary: []string{VaryStart}}
	require.NoError(t, sc.Check())
	r, err := sc.rules()
	require.NoError(t, err)
	for seed := uint64(0); seed < 50; seed++ {
		l, err := sc.layoutFor(seed, r)
		require.NoError(t, err)
		require.NotNil(t, l.start)
		assert.False(t, grid.Abs(l.start[0]-15) <= sim.ViewSize/2 && grid.Abs(l.start[1]-15) <= sim.ViewSize/2, "seed %d: start %v sees the tree", seed, *l.start)
	}
}

// TestVaryChecks: what vary and fixed refuse.
func TestVaryChecks(t *testing.T) {
	grid := "@..\n...\n...\n"
	cases := map[string]Scenario{
		`vary: "sideways"`: {Map: grid, Vary: []string{"sideways"}},
		"given twice":      {Map: grid, Vary: []string{VaryStart, VaryStart}},
		"hand-written map": {Size: 16, Vary: []string{VaryStart}},
		"not one fixed":    {Map: grid, Vary: []string{VaryStart}, Fixed: true},
		"has none":         {Map: grid, Vary: []string{VaryWaypoints}, Goal: Obtain("wood", 1)},
	}
	for want, sc := range cases {
		sc.Name, sc.Ruleset = "x", "classic"
		if sc.Goal.Kind == "" {
			sc.Goal = Reach(2, 2)
		}
		err := sc.Check()
		require.Error(t, err, want)
		assert.Contains(t, err.Error(), want)
	}
	ok := Scenario{Name: "x", Ruleset: "classic", Map: grid, Goal: Reach(2, 2), Fixed: true}
	assert.NoError(t, ok.Check())
}
