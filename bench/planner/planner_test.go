package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// quiet returns rules with creature balancing switched off, so that tiny
// test maps hold only the creatures they draw.
func quiet(t *testing.T, r *sim.Rules) *sim.Rules {
	t.Helper()
	r.Creature.BalanceEvery = 1 << 30
	require.NoError(t, r.Compile())
	return r
}

// scene builds a world from an ASCII map and sets inventory counts.
func scene(t *testing.T, r *sim.Rules, ascii string, inv map[sim.Item]int) *sim.World {
	t.Helper()
	rows, err := sim.ParseASCII(ascii)
	require.NoError(t, err)
	w, err := sim.New(sim.Config{Width: len(rows[0]), Height: len(rows), Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(ascii))
	for it, n := range inv {
		require.NoError(t, w.SetInventory(it, n))
	}
	return w
}

// neighbourhood returns how many walkable tiles the player's walkable
// region holds (the player's tile included), up to limit.
func region(w *sim.World, limit int) int {
	r := w.Rules()
	x0, y0 := w.Player()
	seen := map[[2]int]bool{{x0, y0}: true}
	queue := [][2]int{{x0, y0}}
	for len(queue) > 0 && len(seen) <= limit {
		c := queue[0]
		queue = queue[1:]
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			n := [2]int{c[0] + d[0], c[1] + d[1]}
			if seen[n] || !w.Inside(n[0], n[1]) || !r.Materials[w.Material(n[0], n[1])].Walkable {
				continue
			}
			seen[n] = true
			queue = append(queue, n)
		}
	}
	return len(seen)
}

func TestSolveSmallScenes(t *testing.T) {
	for _, c := range []struct {
		name     string
		rules    func() *sim.Rules
		ascii    string
		inv      map[sim.Item]int
		goal     task.Goal
		budget   int
		maxSteps int // the planner should be about this quick
	}{
		{
			name: "obtain wood",
			ascii: `
.........
.@....T..
.........
...T.....`,
			goal: task.Obtain("wood", 2), budget: 60, maxSteps: 12,
		},
		{
			name: "obtain wood pickaxe",
			ascii: `
..........
.@...TT...
.....TT...
..........`,
			goal: task.Obtain("wood_pickaxe", 1), budget: 80, maxSteps: 20,
		},
		{
			name: "reach around water",
			ascii: `
...........
.@...~.....
.....~.....
.....~.....
.....~.....
...........`,
			goal: task.Reach(8, 1), budget: 60, maxSteps: 13, // around the bottom: 7 + 2×4
		},
		{
			name: "reach through a forest",
			ascii: `
.........
TTTTTTTTT
T@..TTT.T
TTTTTTTTT
.........`,
			goal: task.Reach(7, 2), budget: 60, maxSteps: 16, // three trees cut: 6 moves + 3×2
		},
		{
			name: "visit landmarks in order",
			ascii: `
.............
.2.......1...
......@......
.............`,
			goal: task.Waypoints(0, 1), budget: 60, maxSteps: 14,
		},
		{
			name: "tunnel to iron",
			ascii: `
..........
.@..######
....##i###
....######`,
			inv:  map[sim.Item]int{sim.ItemStonePickaxe: 1, sim.ItemWoodPickaxe: 1},
			goal: task.Obtain("iron", 1), budget: 60, maxSteps: 14,
		},
		{
			name: "cross water with a block",
			ascii: `
.........
.@..~~.T.
....~~...
....~~...`,
			inv:  map[sim.Item]int{sim.ItemStone: 1, sim.ItemWoodPickaxe: 1},
			goal: task.Obtain("wood", 1), budget: 60, maxSteps: 16,
		},
		{
			name:  "light for crystal (extended)",
			rules: sim.Extended,
			ascii: `
..........
.@t...###.
......#*#.
......###.`,
			inv:  map[sim.Item]int{sim.ItemWood: 1, sim.ItemCoal: 1, sim.ItemIronPickaxe: 1, sim.ItemWoodPickaxe: 1},
			goal: task.Obtain("crystal", 1), budget: 80, maxSteps: 20,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			mk := sim.Classic
			if c.rules != nil {
				mk = c.rules
			}
			w := scene(t, quiet(t, mk()), c.ascii, c.inv)
			reached, steps := Solve(w, c.goal, c.budget)
			require.True(t, reached, "after %d steps:\n%s", steps, w.ASCII())
			assert.LessOrEqual(t, steps, c.maxSteps)
		})
	}
}

func TestMakesAtTheTableAndCarriesTheRest(t *testing.T) {
	w := scene(t, quiet(t, sim.Classic()), `
...........
.@..TT.....
....TT.....
...........`, nil)
	reached, _ := Solve(w, task.Obtain("wood_pickaxe", 1), 80)
	require.True(t, reached)
	tables := 0
	for y := 0; y < w.Height(); y++ {
		for x := 0; x < w.Width(); x++ {
			if w.Material(x, y) == sim.MatTable {
				tables++
			}
		}
	}
	assert.Equal(t, 1, tables, "one table placed")
}

func TestDrinksWhenThirsty(t *testing.T) {
	w := scene(t, quiet(t, sim.Classic()), `
..........
.@........
.......~~~
.......~~~`, map[sim.Item]int{sim.ItemDrink: 3})
	p := New(task.Survive(1000))
	p.Reset(0)
	var last *sim.Outcome
	for range 20 {
		out := w.Step(p.Act(w, last))
		last = &out
	}
	assert.Equal(t, 9, w.Inventory(sim.ItemDrink), "drank until full")
}

func TestEatsWhenHungry(t *testing.T) {
	w := scene(t, quiet(t, sim.Classic()), `
..........
.@........
..........
.......C..`, map[sim.Item]int{sim.ItemFood: 3})
	p := New(task.Survive(1000))
	p.Reset(0)
	var last *sim.Outcome
	for range 30 {
		out := w.Step(p.Act(w, last))
		last = &out
	}
	assert.GreaterOrEqual(t, w.Inventory(sim.ItemFood), 8, "ate the cow")
}

func TestWallsInBeforeSleeping(t *testing.T) {
	// An open field: the only pocket is the corridor, whose ends take a
	// block each.
	w := scene(t, quiet(t, sim.Classic()), `
...........
..#####....
.@.........
..#####....
...........`, map[sim.Item]int{sim.ItemEnergy: 2, sim.ItemStone: 3, sim.ItemWoodPickaxe: 1})
	p := New(task.Survive(1000))
	p.Reset(0)
	var last *sim.Outcome
	slept := false
	for i := 0; i < 40 && !slept; i++ {
		a := p.Act(w, last)
		if a == sim.ActSleep {
			slept = true
			assert.Equal(t, 2, region(w, 10), "sealed in a two-tile pocket before sleeping:\n%s", w.ASCII())
		}
		out := w.Step(a)
		last = &out
	}
	require.True(t, slept, "fell asleep:\n%s", w.ASCII())
	assert.Less(t, w.Inventory(sim.ItemStone), 3, "placed wall blocks")
	assert.True(t, w.Sleeping())
}

func TestBuildsWallsInTheOpen(t *testing.T) {
	// No natural pocket: the planner walls two tiles in with blocks placed
	// from outside, then from inside.
	w := scene(t, quiet(t, sim.Classic()), `
...............
...............
...............
.......@.......
...............
...............
...............`, map[sim.Item]int{sim.ItemEnergy: 2, sim.ItemStone: 9, sim.ItemWoodPickaxe: 1})
	p := New(task.Survive(1000))
	p.Reset(0)
	var last *sim.Outcome
	for i := 0; i < 60 && !w.Sleeping(); i++ {
		out := w.Step(p.Act(w, last))
		last = &out
	}
	require.True(t, w.Sleeping(), "fell asleep:\n%s", w.ASCII())
	assert.Equal(t, 2, region(w, 10), "sealed in:\n%s", w.ASCII())
}

func TestFightsAdjacentZombie(t *testing.T) {
	w := scene(t, quiet(t, sim.Classic()), `
.......
.@Z....
.......`, nil)
	p := New(task.Survive(1000))
	p.Reset(0)
	var last *sim.Outcome
	killed := false
	for range 12 {
		out := w.Step(p.Act(w, last))
		last = &out
		if out.Defeated && out.Object == sim.ObjZombie {
			killed = true
			break
		}
	}
	assert.True(t, killed)
}

func TestNeverWalksIntoLava(t *testing.T) {
	w := scene(t, quiet(t, sim.Classic()), `
.........
.@.%%%.T.
...%%%...
.........`, nil)
	reached, _ := Solve(w, task.Obtain("wood", 1), 60)
	assert.True(t, reached)
	assert.False(t, w.Dead())
}

func TestActDoesNotChangeTheWorld(t *testing.T) {
	for _, r := range []*sim.Rules{sim.Classic(), sim.Extended()} {
		w, err := sim.New(sim.Config{Rules: r})
		require.NoError(t, err)
		w.Reset(7)
		p := New(task.Obtain("iron_pickaxe", 1))
		p.Reset(7)
		var last *sim.Outcome
		for range 300 {
			h := w.Hash()
			a := p.Act(w, last)
			require.Equal(t, h, w.Hash(), "Act changed the world")
			out := w.Step(a)
			last = &out
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, g := range []task.Goal{task.Obtain("iron_pickaxe", 1), task.Goal{Kind: task.KindAchievements}} {
		var steps [2]int
		var hashes [2]uint64
		for k := range 2 {
			w, err := sim.New(sim.Config{})
			require.NoError(t, err)
			w.Reset(11)
			_, steps[k] = Solve(w, g, 800)
			hashes[k] = w.Hash()
		}
		assert.Equal(t, steps[0], steps[1], g.String())
		assert.Equal(t, hashes[0], hashes[1], g.String())
	}
}

func TestResetRestartsTheEpisode(t *testing.T) {
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	p := New(task.Obtain("stone_pickaxe", 1))
	run := func() []sim.Action {
		w.Reset(5)
		p.Reset(5)
		var acts []sim.Action
		var last *sim.Outcome
		for range 100 {
			a := p.Act(w, last)
			acts = append(acts, a)
			out := w.Step(a)
			last = &out
		}
		return acts
	}
	assert.Equal(t, run(), run())
}

func TestSurvive(t *testing.T) {
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	w.Reset(2)
	reached, steps := Solve(w, task.Survive(700), 700)
	assert.True(t, reached, "alive after %d steps", steps)
}

func TestAchievements(t *testing.T) {
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	w.Reset(2)
	reached, _ := Solve(w, task.Goal{Kind: task.KindAchievements}, 3000)
	assert.False(t, reached, "the open-ended goal is never reached")
	var names []string
	got := w.Achievements()
	for i, n := range w.Rules().Achievements {
		if got.Has(sim.Achievement(i)) {
			names = append(names, n)
		}
	}
	t.Logf("%d achievements in 3000 steps: %v", len(names), names)
	assert.GreaterOrEqual(t, len(names), 18)
	assert.Contains(t, names, "make_iron_pickaxe")
}

func TestSequence(t *testing.T) {
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	// Seed 5: under classic v2 seed 4 (used before) starts beside two
	// zombies that kill the planner on its way, which is not what this
	// test is about.
	w.Reset(5)
	x, y := w.Player()
	reached, steps := Solve(w, task.Sequence(task.Obtain("stone_pickaxe", 1), task.Reach(x, y)), 1500)
	assert.True(t, reached, "after %d steps", steps)
}
