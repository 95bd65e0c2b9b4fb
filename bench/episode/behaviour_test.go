package episode

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/sim"
)

// TestEffectiveActions: valid actions count every move, effective ones
// only the net new state a step leaves, so alternating two moves is
// nearly all valid and nearly never effective. The old valid-action ratio
// alone scored the oscillator 100% here.
func TestEffectiveActions(t *testing.T) {
	// A 20×20 meadow, the player in the middle facing a tree to the east
	// and water to the west.
	row := func(mid string) string {
		return strings.Repeat(".", 9) + mid + strings.Repeat(".", 20-9-len(mid)) + "\n"
	}
	meadow := strings.Repeat(row(""), 9) + row("~@T") + strings.Repeat(row(""), 10)
	for _, c := range []struct {
		name             string
		plan             []sim.Action
		steps            int
		valid, effective float64
	}{
		// Down onto grass (new), up back to the start, ...: one new tile.
		{"oscillator", []sim.Action{sim.ActMoveDown, sim.ActMoveUp}, 100, 1, 1.0 / 100},
		// Down a column of new grass: every move is new ground.
		{"straight walk", []sim.Action{sim.ActMoveDown}, 8, 1, 1},
		// Turning to the tree is blocked; the do collects wood, a count
		// gained.
		{"turn and collect", []sim.Action{sim.ActMoveRight, sim.ActDo}, 2, 0.5, 0.5},
		// Blocked by the tree: turns, never moves; a noop does nothing.
		{"blocked and noop", []sim.Action{sim.ActMoveRight, sim.ActNoop}, 20, 0, 0},
		// Turning to the water is blocked; drinking at full drink is
		// valid, never effective.
		{"drink at the maximum", []sim.Action{sim.ActMoveLeft, sim.ActDo, sim.ActDo, sim.ActDo}, 4, 0.75, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := sim.New(sim.Config{Width: 20, Height: 20})
			require.NoError(t, err)
			w.Reset(1)
			require.NoError(t, w.LoadASCII(meadow))
			var cov Coverage
			var tr Tracker
			cov.Begin(w, nil)
			tr.Reset(w)
			for i := range c.steps {
				a := c.plan[i%len(c.plan)]
				out := w.Step(a)
				tr.Step(w, a, &out, false, cov.Step(w, &out))
			}
			b := tr.Behaviour()
			assert.InDelta(t, c.valid, b.ValidActionRatio.Value, 1e-9, "valid")
			assert.InDelta(t, c.effective, b.EffectiveActionRatio.Value, 1e-9, "effective")
		})
	}
}

// TestEffectiveUndo: placing a stone and mining it back, over and over,
// is all valid and, after the first place and mine, never effective: the
// state each collect or place leaves is one an earlier one left.
func TestEffectiveUndo(t *testing.T) {
	w, err := sim.New(sim.Config{Width: 9, Height: 9})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(strings.Repeat(".........\n", 4)+"....@#...\n"+strings.Repeat(".........\n", 4)))
	require.NoError(t, w.SetInventory(sim.ItemWoodPickaxe, 1))
	var cov Coverage
	var tr Tracker
	cov.Begin(w, nil)
	tr.Reset(w)
	place, ok := w.Rules().ActionByName("place_stone")
	require.True(t, ok)
	plan := []sim.Action{sim.ActMoveRight, sim.ActDo} // face the stone, mine it
	for range 20 {
		plan = append(plan, place, sim.ActDo)
	}
	for _, a := range plan {
		out := w.Step(a)
		require.NotEqual(t, sim.OutNothing, out.Kind, "%s: %s", w.Rules().Actions[a].Name, text.Outcome(out, w.Rules()))
		tr.Step(w, a, &out, false, cov.Step(w, &out))
	}
	b := tr.Behaviour()
	assert.InDelta(t, float64(len(plan)-1)/float64(len(plan)), b.ValidActionRatio.Value, 1e-9, "all valid but the turn")
	assert.InDelta(t, 2/float64(len(plan)), b.EffectiveActionRatio.Value, 1e-9, "the first mine and the first place")
}

// TestEffectiveDrinkAndSleep: a drink or a sleep counts only when it
// raised the vital it restores.
func TestEffectiveDrinkAndSleep(t *testing.T) {
	drank := &sim.Outcome{Kind: sim.OutDrank, Count: 1}
	slept := &sim.Outcome{Kind: sim.OutSlept}
	assert.True(t, Effective(drank, false, true, false))
	assert.False(t, Effective(drank, false, false, true))
	assert.True(t, Effective(slept, false, false, true))
	assert.False(t, Effective(slept, false, true, false))
	assert.False(t, Effective(&sim.Outcome{Kind: sim.OutMoved}, false, true, true), "a move back onto known ground")
	assert.True(t, Effective(&sim.Outcome{Kind: sim.OutMoved}, true, false, false))
	assert.False(t, Effective(&sim.Outcome{Kind: sim.OutCollected, Count: 0}, false, false, false), "a collect at the maximum")
}

// TestEffectiveMakeAtTheMaximum: a make with a full inventory uses up its
// materials and gains nothing (sim gives it count 0): not effective, as a
// collect with a full inventory is not; a make that gains is.
func TestEffectiveMakeAtTheMaximum(t *testing.T) {
	assert.False(t, Effective(&sim.Outcome{Kind: sim.OutMade, Count: 0}, false, false, false))
	assert.True(t, Effective(&sim.Outcome{Kind: sim.OutMade, Count: 1}, false, false, false))
	assert.False(t, Effective(&sim.Outcome{Kind: sim.OutCollected, Count: 0}, false, false, false))
}
