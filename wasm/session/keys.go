package session

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Binding is one line of the play legend: the browser's KeyboardEvent.key
// values that take an action, by the action's name in the ruleset.
type Binding struct {
	Keys   []string
	Label  string // as the legend shows the keys
	Action string
}

// Bindings is the keyboard of Play mode under rules r: one binding per
// action with a Key, in action order. The keys come from the action rows
// (sim.ActionInfo.Key), so an action added to a ruleset brings its key.
func Bindings(r *sim.Rules) []Binding {
	var bs []Binding
	for _, a := range r.Actions {
		if a.Key != "" {
			bs = append(bs, bindingOf(a))
		}
	}
	return bs
}

// bindingOf is the binding of one action row: its key (both cases of a
// letter), after the customary alias of its kind: the arrow of a move,
// Enter for do, Tab for sleep. Aliases follow the row's kind and
// direction, not its name, so they need no list of actions either.
func bindingOf(a sim.ActionInfo) Binding {
	b := Binding{Action: a.Name}
	var labels []string
	if key, label := alias(a); key != "" {
		b.Keys = append(b.Keys, key)
		labels = append(labels, label)
	}
	switch low, up := strings.ToLower(a.Key), strings.ToUpper(a.Key); {
	case a.Key == " ":
		b.Keys = append(b.Keys, a.Key)
		labels = append(labels, "space")
	case utf8.RuneCountInString(a.Key) == 1 && low != up:
		b.Keys = append(b.Keys, low, up) // a letter: either case, Caps Lock or not
		labels = append(labels, up)
	default: // a digit, or a named key such as "Escape", as given
		b.Keys = append(b.Keys, a.Key)
		labels = append(labels, a.Key)
	}
	b.Label = strings.Join(labels, " / ")
	return b
}

// alias returns the extra key of an action's kind and its legend label,
// or "" when the kind has none.
func alias(a sim.ActionInfo) (key, label string) {
	switch {
	case a.Kind == sim.ActionMove && a.Dir == sim.DirLeft:
		return "ArrowLeft", "←"
	case a.Kind == sim.ActionMove && a.Dir == sim.DirRight:
		return "ArrowRight", "→"
	case a.Kind == sim.ActionMove && a.Dir == sim.DirUp:
		return "ArrowUp", "↑"
	case a.Kind == sim.ActionMove && a.Dir == sim.DirDown:
		return "ArrowDown", "↓"
	case a.Kind == sim.ActionDo:
		return "Enter", "Enter"
	case a.Kind == sim.ActionSleep:
		return "Tab", "Tab"
	}
	return "", ""
}

// KeyAction returns the action a key takes under rules r.
func KeyAction(r *sim.Rules, key string) (sim.Action, bool) {
	for i, a := range r.Actions {
		if a.Key == "" {
			continue
		}
		for _, k := range bindingOf(a).Keys {
			if k == key {
				return sim.Action(i), true
			}
		}
	}
	return 0, false
}

// PageRulesets returns the rulesets the page offers: those its tiers play,
// once each, in the tiers' order.
func PageRulesets() ([]*sim.Rules, error) {
	var rs []*sim.Rules
	seen := map[string]bool{}
	for _, t := range task.Tiers() {
		if seen[t.Ruleset] {
			continue
		}
		seen[t.Ruleset] = true
		r, err := sim.RulesByName(t.Ruleset)
		if err != nil {
			return nil, fmt.Errorf("tier %s: %w", t.Name, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// Legend is the page's key list: the bindings of every ruleset the page
// offers, each action once (the first ruleset that has it gives its
// binding; a test checks that no ruleset binds it differently).
func Legend() ([]Binding, error) {
	rs, err := PageRulesets()
	if err != nil {
		return nil, fmt.Errorf("play legend: %w", err)
	}
	var bs []Binding
	seen := map[string]bool{}
	for _, r := range rs {
		for _, b := range Bindings(r) {
			if !seen[b.Action] {
				seen[b.Action] = true
				bs = append(bs, b)
			}
		}
	}
	return bs, nil
}
