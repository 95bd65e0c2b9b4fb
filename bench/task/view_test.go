package task

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// TestCrafterViewTellsOnlyWhatCrafterShows: under Crafter's view the
// outcome an agent reads (Task.Seen, the text observation) names no
// achievement unlocked and no damage dealt, which Crafter's image never
// shows, at every feedback level; what the image does show (wood in the
// inventory, the hit itself) stays. Longcraft's view keeps telling both.
func TestCrafterViewTellsOnlyWhatCrafterShows(t *testing.T) {
	for _, c := range []struct {
		scene, action string
		inventory     map[sim.Item]int
		view          LocalView
		fb            Feedback
		want          string // the outcome as the agent reads it
	}{
		{scene: "#####\n#.@T#\n#####", action: "do", view: LongcraftView, fb: FeedbackNone,
			want: "do: collected 1 wood from tree; achievement unlocked: collect_wood"},
		{scene: "#####\n#.@T#\n#####", action: "do", view: CrafterView, fb: FeedbackNone,
			want: "do: collected 1 wood from tree"},
		{scene: "#####\n#.@T#\n#####", action: "do", view: CrafterView, fb: FeedbackFull,
			want: "do: collected 1 wood from tree"},
		{scene: "#####\n#.@.#\n#####", action: "place_table", inventory: map[sim.Item]int{sim.ItemWood: 9}, view: CrafterView, fb: FeedbackNone,
			want: "place_table: placed table"},
		{scene: "#####\n#.@Z#\n#####", action: "do", view: LongcraftView, fb: FeedbackNone,
			want: "do: hit the zombie for 1 damage; you lost 2 health"},
		{scene: "#####\n#.@Z#\n#####", action: "do", view: CrafterView, fb: FeedbackNone,
			want: "do: hit the zombie; you lost 2 health"},
		{scene: "#####\n#.@Z#\n#####", action: "do", view: CrafterView, fb: FeedbackReason,
			want: "do: hit the zombie; you lost 2 health"},
		// A failure reads as the feedback level says, under either view.
		{scene: "#####\n#.@##\n#####", action: "do", view: CrafterView, fb: FeedbackNone,
			want: "do: nothing happened"},
		{scene: "#####\n#.@##\n#####", action: "do", view: CrafterView, fb: FeedbackFull,
			want: "do: failed, needs 1 wood_pickaxe"},
	} {
		name := string(c.view) + "/" + string(c.fb) + "/" + c.want
		r := sim.Classic()
		r.Creature.BalanceEvery = 1 << 30
		rows := strings.Split(c.scene, "\n")
		w, err := sim.New(sim.Config{Width: len(rows[0]), Height: len(rows), Rules: r})
		require.NoError(t, err)
		w.Reset(1)
		require.NoError(t, w.LoadASCII(c.scene))
		require.NoError(t, w.SetFacing(sim.DirRight))
		for it, n := range c.inventory {
			require.NoError(t, w.SetInventory(it, n))
		}
		a, ok := r.ActionByName(c.action)
		require.True(t, ok)
		out := w.Step(a)
		tk := &Task{Feedback: c.fb, View: c.view}
		seen := tk.Seen(out)
		assert.Equal(t, c.want, seen.Text(r), name)
		assert.Contains(t, TextObservation(w, &out, c.fb, Partial, c.view, 0), "Last action: "+c.want+".\n", name)
	}
}

// TestLocalViewWindow: the text names only what lies in the view's
// window, and says which window it is.
func TestLocalViewWindow(t *testing.T) {
	// A tree 4 north of the player: in Longcraft's 9×9, outside Crafter's
	// 9×7 (3 north and south).
	scene := strings.Join([]string{
		".........",
		"....T....",
		".........",
		".........",
		".........",
		"....@....",
		".........",
		".........",
		".........",
		".........",
	}, "\n")
	r := sim.Classic()
	r.Creature.BalanceEvery = 1 << 30
	w, err := sim.New(sim.Config{Width: 9, Height: 10, Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(scene))
	square := TextObservation(w, nil, FeedbackNone, Partial, LongcraftView, 0)
	assert.Contains(t, square, "You see (nearest of each, within 4 tiles each way):\n")
	assert.Contains(t, square, "- tree: 4 north\n")
	crafter := TextObservation(w, nil, FeedbackNone, Partial, CrafterView, 0)
	assert.Contains(t, crafter, "You see (nearest of each, within 4 tiles east and west, 3 north and south):\n")
	assert.NotContains(t, crafter, "tree")
	assert.Contains(t, crafter, "- grass: 1 north (62 in view)\n", "9×7 tiles but the player's")
}
