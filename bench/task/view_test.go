package task

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/sim"
)

// TestCrafterViewTellsOnlyWhatCrafterShows: under Crafter's view the
// outcome an agent reads (Task.Seen; the text observation carries it, see
// bench/protocol) names no achievement unlocked and no damage dealt, which
// Crafter's image never shows, at every feedback level; what the image
// does show (wood in the inventory, the hit itself) stays. Longcraft's
// view keeps telling both.
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
		assert.Equal(t, c.want, text.Outcome(seen, r), name)
	}
}
