package task

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/sim"
)

// feedbackCases produce every failure reason (and a success that carries
// one) on a small scene: the player faces right unless stated.
var feedbackCases = []struct {
	reason    sim.Reason
	rules     string // "" classic
	scene     string
	inventory map[sim.Item]int
	facing    sim.Dir
	action    string
	maxObj    int
	// What the agent reads at each level: the outcome text and the
	// structured record as JSON ("" for none).
	full, reason_, none string
	fullRec, reasonRec  string
}{
	{reason: sim.ReasonMissingTool, scene: "#####\n#.@##\n#####", action: "do",
		full: "do: failed, needs 1 wood_pickaxe", reason_: "do: failed (missing_tool)", none: "do: nothing happened",
		fullRec: `{"ok":false,"reason":"missing_tool","missing":["wood_pickaxe"]}`, reasonRec: `{"ok":false,"reason":"missing_tool"}`},
	{reason: sim.ReasonMissingMaterial, scene: "#####\n#.@.#\n#####", action: "place_table", inventory: map[sim.Item]int{sim.ItemWood: 1},
		full: "place_table: failed, needs 2 wood", reason_: "place_table: failed (missing_material)", none: "place_table: nothing happened",
		fullRec: `{"ok":false,"reason":"missing_material","missing":["wood"]}`, reasonRec: `{"ok":false,"reason":"missing_material"}`},
	{reason: sim.ReasonNeedsNearby, scene: "#####\n#.@.#\n#####", action: "make_wood_pickaxe",
		full: "make_wood_pickaxe: failed, needs a table nearby and 1 wood", reason_: "make_wood_pickaxe: failed (needs_nearby)", none: "make_wood_pickaxe: nothing happened",
		fullRec: `{"ok":false,"reason":"needs_nearby","missing":["wood"],"missing_nearby":["table"]}`, reasonRec: `{"ok":false,"reason":"needs_nearby"}`},
	{reason: sim.ReasonInvalidTarget, scene: "#####\n#.@:#\n#####", action: "do",
		full: "do: failed, cannot do that to sand", reason_: "do: failed (invalid_target)", none: "do: nothing happened",
		fullRec: `{"ok":false,"reason":"invalid_target"}`, reasonRec: `{"ok":false,"reason":"invalid_target"}`},
	{reason: sim.ReasonInvalidTarget, scene: "#####\n#.@##\n#####", action: "move_right",
		full: "move_right: blocked, stone is in the way", reason_: "move_right: blocked (invalid_target)", none: "move_right: nothing happened",
		fullRec: `{"ok":false,"reason":"invalid_target"}`, reasonRec: `{"ok":false,"reason":"invalid_target"}`},
	{reason: sim.ReasonOccupied, scene: "#####\n#.@C#\n#####", action: "move_right",
		full: "move_right: blocked, a cow is in the way", reason_: "move_right: blocked (occupied)", none: "move_right: nothing happened",
		fullRec: `{"ok":false,"reason":"occupied"}`, reasonRec: `{"ok":false,"reason":"occupied"}`},
	{reason: sim.ReasonInventoryFull, scene: "#####\n#.@T#\n#####", action: "do", inventory: map[sim.Item]int{sim.ItemWood: 9},
		full: "do: took the tree, but wood was already at its maximum; achievement unlocked: collect_wood", reason_: "do: took the tree, but wood was already at its maximum; achievement unlocked: collect_wood", none: "do: collected 0 wood from tree; achievement unlocked: collect_wood",
		fullRec: `{"ok":true}`, reasonRec: `{"ok":true}`},
	{reason: sim.ReasonNotRipe, scene: "#####\n#.@p#\n#####", action: "do",
		full: "do: failed, the plant is not ripe yet", reason_: "do: failed (not_ripe)", none: "do: nothing happened",
		fullRec: `{"ok":false,"reason":"not_ripe"}`, reasonRec: `{"ok":false,"reason":"not_ripe"}`},
	{reason: sim.ReasonNotTired, scene: "#####\n#.@.#\n#####", action: "sleep",
		full: "sleep: failed, not tired", reason_: "sleep: failed (not_tired)", none: "sleep: nothing happened",
		fullRec: `{"ok":false,"reason":"not_tired"}`, reasonRec: `{"ok":false,"reason":"not_tired"}`},
	{reason: sim.ReasonNoLuck, scene: "#####\n#.@.#\n#####", action: "do",
		full: "do: failed, found nothing this time", reason_: "do: failed (no_luck)", none: "do: nothing happened",
		fullRec: `{"ok":false,"reason":"no_luck"}`, reasonRec: `{"ok":false,"reason":"no_luck"}`},
	{reason: sim.ReasonWorldFull, scene: "#####\n#C@.#\n#####", action: "place_plant", maxObj: 2, inventory: map[sim.Item]int{sim.ItemSapling: 1},
		full: "place_plant: failed, the world holds too many objects", reason_: "place_plant: failed (world_full)", none: "place_plant: nothing happened",
		fullRec: `{"ok":false,"reason":"world_full"}`, reasonRec: `{"ok":false,"reason":"world_full"}`},
	{reason: sim.ReasonNeedsLight, rules: sim.ExtendedName, scene: "#####\n#.@*#\n#####", action: "do", inventory: map[sim.Item]int{sim.ItemIronPickaxe: 1},
		full: "do: failed, too dark: needs light", reason_: "do: failed (needs_light)", none: "do: nothing happened",
		fullRec: `{"ok":false,"reason":"needs_light"}`, reasonRec: `{"ok":false,"reason":"needs_light"}`},
}

func TestFeedbackLevels(t *testing.T) {
	for _, c := range feedbackCases {
		t.Run(c.reason.String()+"/"+c.action, func(t *testing.T) {
			r := sim.Classic()
			if c.rules == sim.ExtendedName {
				r = sim.Extended()
			}
			r.Creature.BalanceEvery = 1 << 30
			rows := strings.Split(c.scene, "\n")
			w, err := sim.New(sim.Config{Width: len(rows[0]), Height: len(rows), Rules: r, MaxObjects: c.maxObj})
			require.NoError(t, err)
			w.Reset(1)
			require.NoError(t, w.LoadASCII(c.scene))
			facing := c.facing
			if facing == sim.DirNone {
				facing = sim.DirRight
			}
			require.NoError(t, w.SetFacing(facing))
			for it, n := range c.inventory {
				require.NoError(t, w.SetInventory(it, n))
			}
			a, ok := r.ActionByName(c.action)
			require.True(t, ok)
			out := w.Step(a)
			require.Equal(t, c.reason, out.Reason, text.Outcome(out, r))
			for _, lv := range []struct {
				f         Feedback
				text, rec string
			}{{FeedbackFull, c.full, c.fullRec}, {FeedbackReason, c.reason_, c.reasonRec}, {FeedbackNone, c.none, ""}} {
				fo := lv.f.Filter(out)
				got := text.Outcome(fo, r)
				var rec string
				if rr := lv.f.Record(&out, r); rr != nil {
					b, err := json.Marshal(rr)
					require.NoError(t, err)
					rec = string(b)
				}
				assert.Equal(t, lv.text, got, "%s text", lv.f)
				assert.Equal(t, lv.rec, rec, "%s record", lv.f)
			}
		})
	}
}
