package protocol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// stepScene plays action on a classic world of exactly scene's size
// (chunk balancing off, the player facing east) holding inventory.
func stepScene(t *testing.T, scene, action string, inventory map[sim.Item]int) (*sim.World, sim.Outcome) {
	t.Helper()
	r := sim.Classic()
	r.Creature.BalanceEvery = 1 << 30
	rows := strings.Split(scene, "\n")
	w, err := sim.New(sim.Config{Width: len(rows[0]), Height: len(rows), Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(scene))
	require.NoError(t, w.SetFacing(sim.DirRight))
	for it, n := range inventory {
		require.NoError(t, w.SetInventory(it, n))
	}
	a, ok := r.ActionByName(action)
	require.True(t, ok)
	return w, w.Step(a)
}

// TestTextObservationCarriesTheOutcome: at every feedback level and under
// either view, the text's last action is the outcome as the task lets the
// agent see it (Task.Seen), in the same words as the observation's
// last_outcome.
func TestTextObservationCarriesTheOutcome(t *testing.T) {
	for _, c := range []struct {
		scene, action string
		inventory     map[sim.Item]int
	}{
		{scene: "#####\n#.@T#\n#####", action: "do"},
		{scene: "#####\n#.@.#\n#####", action: "place_table", inventory: map[sim.Item]int{sim.ItemWood: 9}},
		{scene: "#####\n#.@Z#\n#####", action: "do"},
		{scene: "#####\n#.@##\n#####", action: "do"},
		{scene: "#####\n#.@##\n#####", action: "move_right"},
		{scene: "#####\n#.@.#\n#####", action: "make_wood_pickaxe", inventory: map[sim.Item]int{sim.ItemWood: 1}},
	} {
		for _, view := range []task.LocalView{task.LongcraftView, task.CrafterView} {
			for _, fb := range task.FeedbackLevels() {
				w, out := stepScene(t, c.scene, c.action, c.inventory)
				tk := &task.Task{Feedback: fb, View: view}
				want := text.Outcome(tk.Seen(out), w.Rules())
				got := TextObservation(w, &out, fb, task.Partial, view, 0)
				assert.Contains(t, got, "Last action: "+want+".\n", "%s/%s/%s", c.action, view, fb)
			}
		}
	}
}

// TestTextObservationFeedbackAndMap: the feedback level decides what the
// text tells of a failure, and full observability adds the map.
func TestTextObservationFeedbackAndMap(t *testing.T) {
	w, out := stepScene(t, "#####\n#.@##\n#####", "do", nil) // stone without a pickaxe
	require.Equal(t, sim.ReasonMissingTool, out.Reason)
	assert.Contains(t, TextObservation(w, &out, task.FeedbackFull, task.Full, task.LongcraftView, 0), "needs 1 wood_pickaxe")
	assert.NotContains(t, TextObservation(w, &out, task.FeedbackNone, task.Partial, task.LongcraftView, 0), "wood_pickaxe")
	assert.Contains(t, TextObservation(w, &out, task.FeedbackNone, task.Full, task.LongcraftView, 0), "Map (you are @")
	assert.NotContains(t, TextObservation(w, &out, task.FeedbackFull, task.Partial, task.LongcraftView, 0), "Map (you are @")
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
	square := TextObservation(w, nil, task.FeedbackNone, task.Partial, task.LongcraftView, 0)
	assert.Contains(t, square, "You see (nearest of each, within 4 tiles each way):\n")
	assert.Contains(t, square, "- tree: 4 north\n")
	crafter := TextObservation(w, nil, task.FeedbackNone, task.Partial, task.CrafterView, 0)
	assert.Contains(t, crafter, "You see (nearest of each, within 4 tiles east and west, 3 north and south):\n")
	assert.NotContains(t, crafter, "tree")
	assert.Contains(t, crafter, "- grass: 1 north (62 in view)\n", "9×7 tiles but the player's")
}
