package player

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// meadow is a task's world (48×48) made all grass with the player at its
// centre (24, 24) and water on the tiles given as offsets from it, and an
// agent on that task under observability o and view v.
func meadow(t *testing.T, o task.Observability, v task.LocalView, water ...[2]int) (*Probe, *sim.World) {
	t.Helper()
	tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1, Observability: o}, nil)
	require.NoError(t, err)
	tk.View = v
	w, err := tk.NewWorld()
	require.NoError(t, err)
	w.RemoveObjects()
	for y := range w.Height() {
		for x := range w.Width() {
			require.NoError(t, w.SetMaterial(x, y, sim.MatGrass))
		}
	}
	require.Equal(t, 48, w.Width())
	require.NoError(t, w.MovePlayer(24, 24))
	for _, d := range water {
		require.NoError(t, w.SetMaterial(24+d[0], 24+d[1], sim.MatWater))
	}
	var p Probe
	p.Reset(tk)
	p.Decide(w, nil)
	return &p, w
}

// remember plays one reply believing things: judged on w, counted as
// played; it returns how many claims were scored and whether all held.
func remember(p *Probe, w *sim.World, things []protocol.Thing) (scored int, ok bool) {
	reply := &protocol.Reply{Action: "noop", Belief: &protocol.Belief{Remembered: things}}
	p.Replied(w, reply)
	scored, ok = p.pending.n, p.pending.ok
	p.Played(reply)
	return scored, ok
}

func thing(kind string, dx, dy int) protocol.Thing { return protocol.Thing{Kind: kind, DX: dx, DY: dy} }

// TestRememberedThingsScored: which remembered things are scored, which
// are copies, and which are ignored.
func TestRememberedThingsScored(t *testing.T) {
	many := make([]protocol.Thing, 12)
	for i := range many {
		many[i] = thing("grass", 5+i, 0)
	}
	for _, c := range []struct {
		name   string
		obs    task.Observability
		view   task.LocalView
		things []protocol.Thing
		scored int
		ok     bool
		copies int
	}{
		{name: "water out of view, where it is", things: []protocol.Thing{thing("water", -12, 3)}, scored: 1, ok: true},
		{name: "water out of view, where it is not", things: []protocol.Thing{thing("water", 12, 3)}, scored: 1},
		{name: "a tile in view is a copy", things: []protocol.Thing{thing("water", 4, -4)}, copies: 1, ok: true},
		{name: "under Crafter's 9×7 view, 4 south is out of view", view: task.CrafterView, things: []protocol.Thing{thing("water", 0, 4)}, scored: 1, ok: true},
		{name: "under Crafter's view, 4 east is in view", view: task.CrafterView, things: []protocol.Thing{thing("water", 4, 0)}, copies: 1, ok: true},
		{name: "under full observability every claim is a copy", obs: task.Full, things: []protocol.Thing{thing("water", -12, 3), thing("grass", 20, 0)}, copies: 2, ok: true},
		{name: "a creature does not stay put: ignored", things: []protocol.Thing{thing("cow", 10, 0), thing("none", 10, 1), thing("dragon", 10, 2)}, ok: true},
		{name: "a second claim about a tile is ignored", things: []protocol.Thing{thing("grass", 10, 0), thing("water", 10, 0)}, scored: 1, ok: true},
		{name: "past the eighth, claims are ignored", things: many, scored: protocol.MaxRemembered, ok: true},
		{name: "outside the world nothing is", things: []protocol.Thing{thing("grass", 1<<40, 0), thing("grass", 0, -40)}, scored: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, w := meadow(t, cmpOr(c.obs, task.Partial), c.view, [2]int{-12, 3}, [2]int{4, -4}, [2]int{0, 4}, [2]int{4, 0})
			scored, ok := remember(a, w, c.things)
			assert.Equal(t, c.scored, scored)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.copies, a.stats.BeliefCopies)
		})
	}
}

func cmpOr(o, or task.Observability) task.Observability {
	if o == "" {
		return or
	}
	return o
}

// TestRememberedBaselines: a remembered thing's baselines are judged on
// its own tile: persistence says the tile is like the nearest one in
// view, the base rate that it holds its distance band's most frequent
// material, and the stronger is taken kind by kind.
func TestRememberedBaselines(t *testing.T) {
	// Water at 7 east, alone in its band, and on the whole band 12 tiles
	// away; trees at 4 and 6 east, 2 south (the first in view).
	water := [][2]int{{7, 0}}
	for i := -12; i <= 12; i++ {
		water = append(water, [2]int{i, -12}, [2]int{i, 12}, [2]int{-12, i}, [2]int{12, i})
	}
	a, w := meadow(t, task.Partial, task.LongcraftView, water...)
	require.NoError(t, w.SetMaterial(28, 26, sim.MatTree))
	require.NoError(t, w.SetMaterial(30, 26, sim.MatTree))
	_, _ = remember(a, w, []protocol.Thing{
		thing("water", 7, 0),   // right; the nearest tile in view (4, 0) and the band say grass
		thing("water", 6, 1),   // wrong; both baselines say grass, right
		thing("water", 12, 3),  // right; (4, 3) says grass, the band water
		thing("grass", 10, -2), // right, as both baselines are
		thing("tree", 6, 2),    // right; (4, 2) is a tree too, the band says grass
	})
	// water: 2 right of 3, persistence 1, base rate 2; grass 1, 1, 1;
	// tree 1, 1, 0: the stronger baseline kind by kind gets 2 + 1 + 1.
	assert.Equal(t, ClaimScore{Claims: 5, Right: 4, Persistence: 3, BaseRate: 3, Baseline: 4}, a.remembered.score())
	assert.Equal(t, a.remembered.score(), a.Stats().Remembered)
	assert.Equal(t, a.remembered.score(), a.Stats().Beliefs, "the remembered things are belief claims")
}

// TestRememberedNoAllocation: scoring a reply's remembered things
// allocates nothing once its kinds' tallies exist.
func TestRememberedNoAllocation(t *testing.T) {
	a, w := meadow(t, task.Partial, task.LongcraftView, [2]int{-12, 3})
	things := []protocol.Thing{thing("water", -12, 3), thing("grass", 9, 9), thing("tree", 2, 1), thing("water", 40, -20)}
	reply := &protocol.Reply{Action: "noop", Belief: &protocol.Belief{Remembered: things}}
	play := func() { a.Replied(w, reply); a.Played(reply) }
	play()
	assert.Positive(t, a.Stats().Remembered.Claims)
	assert.Zero(t, testing.AllocsPerRun(100, play))
}

// TestReplySchemaAsksForRememberedThings: the structured reply asks for
// at most MaxRemembered remembered things, and for no belief under full
// observability, where it would be a copy.
func TestReplySchemaAsksForRememberedThings(t *testing.T) {
	partial := replySchema(&protocol.Observation{Observability: string(task.Partial)}, false)
	belief := partial["properties"].(map[string]any)["belief"].(map[string]any)
	remembered := belief["properties"].(map[string]any)["remembered"].(map[string]any)
	assert.Equal(t, protocol.MaxRemembered, remembered["maxItems"])
	full := replySchema(&protocol.Observation{Observability: string(task.Full)}, false)
	assert.NotContains(t, full["properties"], "belief")
}

// TestUnknownItemsAreNoClaims: a prediction naming items the rules do not
// have is wrong, and none of those names becomes a claim (each would be a
// field of its own, held for the episode, however many a reply names).
func TestUnknownItemsAreNoClaims(t *testing.T) {
	p, w := meadow(t, task.Partial, task.LongcraftView)
	reply := &protocol.Reply{Action: "noop", Expect: &protocol.Expect{Inventory: map[string]int{"dragon_scale": 0, "unobtainium": 0, "wood": 0}}}
	p.Replied(w, reply)
	out := w.Step(sim.ActNoop)
	p.Played(reply)
	p.Finish(w, &out)
	s := p.Stats()
	assert.Equal(t, 1, s.ExpectChecks)
	assert.Zero(t, s.ExpectCorrect, "a reply naming unknown items is wrong")
	assert.Equal(t, 1, s.Predictions.Claims, "only wood is a claim")
}
