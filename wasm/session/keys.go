package session

import "github.com/longcraft/longcraft/sim"

// Binding is one key of the play legend: the browser's KeyboardEvent.key
// values that take an action, by the action's name in the ruleset.
type Binding struct {
	Keys   []string
	Label  string // as the legend shows the keys
	Action string
}

// Bindings is the keyboard of Play mode. Actions a ruleset lacks are
// skipped by KeyAction.
var Bindings = []Binding{
	{[]string{"ArrowLeft", "a", "A"}, "← / A", "move_left"},
	{[]string{"ArrowRight", "d", "D"}, "→ / D", "move_right"},
	{[]string{"ArrowUp", "w", "W"}, "↑ / W", "move_up"},
	{[]string{"ArrowDown", "s", "S"}, "↓ / S", "move_down"},
	{[]string{" ", "Enter"}, "space", "do"},
	{[]string{"Tab", "z", "Z"}, "Tab / Z", "sleep"},
	{[]string{"n", "N"}, "N", "noop"},
	{[]string{"r", "R"}, "R", "place_stone"},
	{[]string{"t", "T"}, "T", "place_table"},
	{[]string{"f", "F"}, "F", "place_furnace"},
	{[]string{"p", "P"}, "P", "place_plant"},
	{[]string{"1"}, "1", "make_wood_pickaxe"},
	{[]string{"2"}, "2", "make_stone_pickaxe"},
	{[]string{"3"}, "3", "make_iron_pickaxe"},
	{[]string{"4"}, "4", "make_wood_sword"},
	{[]string{"5"}, "5", "make_stone_sword"},
	{[]string{"6"}, "6", "make_iron_sword"},
}

// KeyAction returns the action a key takes under rules r.
func KeyAction(r *sim.Rules, key string) (sim.Action, bool) {
	for _, b := range Bindings {
		for _, k := range b.Keys {
			if k == key {
				return r.ActionByName(b.Action)
			}
		}
	}
	return 0, false
}
