package session

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

func TestKeyAction(t *testing.T) {
	r := sim.Classic()
	for key, want := range map[string]sim.Action{"ArrowLeft": sim.ActMoveLeft, "w": sim.ActMoveUp, "W": sim.ActMoveUp,
		" ": sim.ActDo, "Enter": sim.ActDo, "Tab": sim.ActSleep, "t": sim.ActPlaceTable, "1": sim.ActMakeWoodPickaxe,
		"6": sim.ActMakeIronSword} {
		a, ok := KeyAction(r, key)
		require.True(t, ok, key)
		require.Equal(t, want, a, key)
	}
	for _, key := range []string{"q", "9", "Escape", ""} { // 9 is make_compass, which classic lacks
		_, ok := KeyAction(r, key)
		require.False(t, ok, "%q", key)
	}
}

// TestEveryActionHasAKey checks the keyboard of every ruleset the page
// offers: every action has a key, the key takes that action, no two
// actions share a key, and the page's legend lists every key with its
// action.
func TestEveryActionHasAKey(t *testing.T) {
	rs, err := PageRulesets()
	require.NoError(t, err)
	var names []string
	for _, r := range rs {
		names = append(names, r.Name)
	}
	require.ElementsMatch(t, []string{sim.ClassicName, sim.ExtendedName}, names, "the tiers play both built-in rulesets")
	legend, err := Legend()
	require.NoError(t, err)
	listed := map[string]map[string]bool{} // action → the keys the legend lists for it
	for _, b := range legend {
		require.NotContains(t, listed, b.Action, "the legend lists %s twice", b.Action)
		require.NotEmpty(t, b.Label, b.Action)
		listed[b.Action] = map[string]bool{}
		for _, k := range b.Keys {
			listed[b.Action][k] = true
		}
	}
	for _, r := range rs {
		taken := map[string]string{} // key → action
		for i, a := range r.Actions {
			keys := 0
			for _, b := range Bindings(r) {
				if b.Action != a.Name {
					continue
				}
				for _, k := range b.Keys {
					keys++
					require.NotContains(t, taken, k, "%s: %q takes both %s and %s", r.Name, k, taken[k], a.Name)
					taken[k] = a.Name
					got, ok := KeyAction(r, k)
					require.True(t, ok, "%s: %q", r.Name, k)
					require.Equal(t, sim.Action(i), got, "%s: %q takes %s", r.Name, k, r.Actions[got].Name)
					require.True(t, listed[a.Name][k], "%s: %q takes %s but the page's legend does not list it", r.Name, k, a.Name)
				}
			}
			require.Positive(t, keys, "%s: action %s has no key", r.Name, a.Name)
		}
		// The legend lists no key this ruleset gives another action.
		for _, b := range legend {
			for _, k := range b.Keys {
				if got, ok := taken[k]; ok {
					require.Equal(t, b.Action, got, "%s: the legend says %q takes %s", r.Name, k, b.Action)
				}
			}
		}
	}
}

// TestKeyCase: a letter binds both cases however the row spells it;
// other keys are taken as given.
func TestKeyCase(t *testing.T) {
	for _, c := range []struct {
		key   string
		keys  []string
		label string
	}{
		{"l", []string{"l", "L"}, "L"},
		{"L", []string{"l", "L"}, "L"},
		{"9", []string{"9"}, "9"},
		{" ", []string{" "}, "space"},
		{"Escape", []string{"Escape"}, "Escape"},
	} {
		b := bindingOf(sim.ActionInfo{Name: "x", Kind: sim.ActionPlace, Key: c.key})
		require.Equal(t, c.keys, b.Keys, "%q", c.key)
		require.Equal(t, c.label, b.Label, "%q", c.key)
		require.False(t, strings.Contains(b.Label, "/"), "no alias for a place action")
	}
}
