// Package skill is the skill level of actions: high-level commands
// (goto tree, collect wood, make wood_pickaxe, …) that the executor turns
// into primitive steps, one at a time, from the world and what the agent
// has seen. A skill is one decision of the agent and as many steps as it
// takes; a skill that cannot start says why (missing_precondition, with
// what is missing), and one cut short says by what (a zombie, the night,
// damage, death). docs/skills.md is the reference, with the prompt text.
//
// The executor is deterministic: the same world and the same commands give
// the same steps, so a skill-level episode replays from its primitive
// actions and from its commands alike. It sits on sim and the task's
// feedback levels; it must not import episodes, agents or any host, and
// does no I/O.
package skill

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Verb is a skill's name.
type Verb string

// The skills.
const (
	Goto    Verb = "goto"    // goto <material|creature|landmark X|x,y>
	Collect Verb = "collect" // collect <item or material>; "mine" is the same
	Make    Verb = "make"    // make <item>
	Place   Verb = "place"   // place <item>
	Attack  Verb = "attack"  // attack <creature>
	Eat     Verb = "eat"
	Drink   Verb = "drink"
	Sleep   Verb = "sleep"
	Explore Verb = "explore" // explore <north|south|east|west>
	Noop    Verb = "noop"
)

// Verbs lists the skills in the order the prompt and the docs give them.
func Verbs() []Verb {
	return []Verb{Goto, Collect, Make, Place, Attack, Eat, Drink, Sleep, Explore, Noop}
}

// Command is one skill with its argument.
type Command struct {
	Verb Verb
	Arg  string // "" for eat, drink, sleep, noop
}

func (c Command) String() string {
	if c.Arg == "" {
		return string(c.Verb)
	}
	return string(c.Verb) + " " + c.Arg
}

// Directions of explore, with their offsets.
var directions = []struct {
	name   string
	dx, dy int
}{{"north", 0, -1}, {"south", 0, 1}, {"east", 1, 0}, {"west", -1, 0}}

// creatures returns the kinds of r that goto names, in kind order: those
// the player can do something to (classic's cow, zombie, skeleton and
// plant).
func creatures(r *sim.Rules) []string {
	var out []string
	for k := range r.Creatures {
		if r.Creatures[k].Interact != sim.InteractNone {
			out = append(out, r.Creatures[k].Name)
		}
	}
	return out
}

// attackable returns the kinds of r that attack names: those `do` hits
// (cow, zombie, skeleton).
func attackable(r *sim.Rules) []string {
	var out []string
	for k := range r.Creatures {
		if r.Creatures[k].Interact == sim.InteractAttack {
			out = append(out, r.Creatures[k].Name)
		}
	}
	return out
}

// prey returns the kind the eat skill hunts: the first attackable kind
// that gives food and is not hostile (a cow).
func prey(r *sim.Rules) sim.ObjectKind {
	for k := range r.Creatures {
		if c := &r.Creatures[k]; c.Interact == sim.InteractAttack && c.Food > 0 && !c.Hostile {
			return sim.ObjectKind(k)
		}
	}
	return sim.ObjNone
}

// Parse reads a command ("collect wood", "goto 3,4", "mine iron") against
// rules r: the verb must be a skill and the argument one it takes.
func Parse(text string, r *sim.Rules) (Command, error) {
	f := strings.Fields(strings.ToLower(strings.TrimSpace(text)))
	if len(f) == 0 {
		return Command{}, fmt.Errorf("skill: empty (skills: %s)", verbList())
	}
	v := Verb(f[0])
	if v == "mine" {
		v = Collect
	}
	arg := strings.Join(f[1:], " ")
	c := Command{Verb: v, Arg: arg}
	bad := func(want string) (Command, error) {
		return Command{}, fmt.Errorf("skill %q: %s %s", text, v, want)
	}
	switch v {
	case Eat, Drink, Sleep, Noop:
		if arg != "" {
			return bad("takes no argument")
		}
	case Goto:
		if _, _, ok := parseXY(arg); ok {
			return c, nil
		}
		if strings.HasPrefix(arg, "landmark ") {
			l := strings.TrimPrefix(arg, "landmark ")
			if len(l) == 1 && l[0] >= 'a' && l[0] <= 'i' {
				return Command{Verb: Goto, Arg: "landmark " + strings.ToUpper(l)}, nil
			}
			return bad("landmark: A to I")
		}
		if _, ok := r.MaterialByName(arg); ok && arg != "none" {
			return c, nil
		}
		if _, ok := creatureByName(r, arg); ok {
			return c, nil
		}
		return bad("<material>, <creature>, landmark <A-I> or <x>,<y>")
	case Collect:
		if _, ok := collectRule(r, arg); !ok {
			return bad("<item or material>: " + strings.Join(collectables(r), ", "))
		}
	case Make:
		if makeRule(r, arg) == nil {
			return bad("<item>: " + strings.Join(makeables(r), ", "))
		}
	case Place:
		if placeRule(r, arg) == nil {
			return bad("<item>: " + strings.Join(placeables(r), ", "))
		}
	case Attack:
		if _, ok := creatureByName(r, arg); !ok {
			return bad("<creature>: " + strings.Join(creatures(r), ", "))
		}
	case Explore:
		ok := false
		for _, d := range directions {
			ok = ok || d.name == arg
		}
		if !ok {
			return bad("<north|south|east|west>")
		}
	default:
		return Command{}, fmt.Errorf("skill %q: unknown skill (skills: %s)", text, verbList())
	}
	return c, nil
}

func verbList() string {
	var names []string
	for _, v := range Verbs() {
		names = append(names, string(v))
	}
	return strings.Join(names, ", ")
}

func parseXY(s string) (x, y int, ok bool) {
	a, b, found := strings.Cut(strings.ReplaceAll(s, " ", ""), ",")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	return x, y, err1 == nil && err2 == nil
}

// creatureByName returns the kind of r that goto or attack name names.
func creatureByName(r *sim.Rules, name string) (sim.ObjectKind, bool) {
	k, ok := r.KindByName(name)
	return k, ok && r.Kind(k).Interact != sim.InteractNone
}

// collectRule finds the rule that collect name uses: by the item it gives
// (wood), or by the material it is taken from (tree).
func collectRule(r *sim.Rules, name string) (*sim.CollectRule, bool) {
	for i := range r.Collect {
		c := &r.Collect[i]
		if c.Receive.Item == sim.ItemDrink {
			continue // drink is its own skill
		}
		if r.Items[c.Receive.Item].Name == name || r.Materials[c.Material].Name == name {
			return c, true
		}
	}
	return nil, false
}

func makeRule(r *sim.Rules, name string) *sim.MakeRule {
	for i := range r.Make {
		if r.Items[r.Make[i].Gives.Item].Name == name {
			return &r.Make[i]
		}
	}
	return nil
}

func placeRule(r *sim.Rules, name string) *sim.PlaceRule {
	for i := range r.Place {
		if r.Place[i].Name == name {
			return &r.Place[i]
		}
	}
	return nil
}

func collectables(r *sim.Rules) []string {
	var out []string
	for _, c := range r.Collect {
		if c.Receive.Item != sim.ItemDrink {
			out = append(out, r.Items[c.Receive.Item].Name)
		}
	}
	return out
}

func makeables(r *sim.Rules) []string {
	var out []string
	for _, m := range r.Make {
		out = append(out, r.Items[m.Gives.Item].Name)
	}
	return out
}

func placeables(r *sim.Rules) []string {
	var out []string
	for _, p := range r.Place {
		out = append(out, p.Name)
	}
	return out
}

// Menu lists every command of rules r, in a fixed order: what the prompt
// offers and what the random skill agent draws from. goto lists the
// materials and creatures (landmarks and coordinates are left out).
func Menu(r *sim.Rules) []Command {
	var out []Command
	for _, m := range r.Materials[1:] {
		out = append(out, Command{Goto, m.Name})
	}
	for _, k := range creatures(r) {
		out = append(out, Command{Goto, k})
	}
	for _, n := range collectables(r) {
		out = append(out, Command{Collect, n})
	}
	for _, n := range makeables(r) {
		out = append(out, Command{Make, n})
	}
	for _, n := range placeables(r) {
		out = append(out, Command{Place, n})
	}
	for _, k := range attackable(r) {
		out = append(out, Command{Attack, k})
	}
	out = append(out, Command{Eat, ""}, Command{Drink, ""}, Command{Sleep, ""})
	for _, d := range directions {
		out = append(out, Command{Explore, d.name})
	}
	return append(out, Command{Noop, ""})
}

// Reasons a skill failed: the outward codes of Result.Reason.
const (
	// ReasonMissing: it cannot start; Missing says what it needs (items,
	// a station nearby, light), at the full feedback level.
	ReasonMissing = "missing_precondition"
	// ReasonNotFound: nothing the skill needs has been seen (Missing
	// names it at full); explore first.
	ReasonNotFound = "not_found"
	// ReasonUnreachable: what it needs was seen but no known path leads
	// there.
	ReasonUnreachable = "unreachable"
	// ReasonInterrupted: it started and was cut short; Detail says by
	// what: zombie, night, damage, death, or the episode's end.
	ReasonInterrupted = "interrupted"
	// ReasonFailed: the last primitive action failed for another reason
	// (Detail: the simulation's reason, at full and reason levels).
	ReasonFailed = "failed"
	// ReasonNotNeeded: there is nothing to do (sleep rested, drink full).
	ReasonNotNeeded = "not_needed"
	// ReasonStuck: it ran out of its step allowance without finishing.
	ReasonStuck = "stuck"
	// ReasonInvalid: the command was not a skill (Detail: the parse
	// error); it took no step and counts as a decision.
	ReasonInvalid = "invalid"
)

// Result is what a skill did, as the agent may read it (Filter).
type Result struct {
	Skill   string   `json:"skill"`
	OK      bool     `json:"ok"`
	Reason  string   `json:"reason,omitempty"`
	Missing []string `json:"missing,omitempty"`
	Detail  string   `json:"detail,omitempty"`
	Steps   int      `json:"steps"`
}

// Code is the result in one word, as traces record it: "ok" or the
// reason.
func (r *Result) Code() string {
	if r.OK {
		return "ok"
	}
	return r.Reason
}

// Text states the result in one line.
func (r *Result) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", r.Skill)
	if r.OK {
		b.WriteString("done")
	} else if r.Reason == "" {
		b.WriteString("no effect")
	} else {
		b.WriteString("failed (" + r.Reason)
		if len(r.Missing) > 0 {
			b.WriteString(": missing " + strings.Join(r.Missing, ", "))
		}
		if r.Detail != "" {
			b.WriteString(": " + r.Detail)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " in %d steps", r.Steps)
	return b.String()
}

// Filter returns the result as an agent may read it at feedback level f:
// at full, all of it; at reason, the reason code without what was missing
// (an interruption's cause is kept: the agent saw it happen); at none,
// nothing (nil), as a failed primitive action looks like no action at
// all: the agent reads the world.
func Filter(r Result, f task.Feedback) *Result {
	switch f {
	case task.FeedbackReason:
		r.Missing = nil
		if r.Reason != ReasonInterrupted {
			r.Detail = ""
		}
	case task.FeedbackNone:
		return nil
	}
	return &r
}

// ItemNames returns the names of the items in set, in rules order.
func ItemNames(r *sim.Rules, set sim.ItemSet) []string {
	var out []string
	for i := range r.Items {
		if set.Has(sim.Item(i)) {
			out = append(out, r.Items[i].Name)
		}
	}
	return out
}

// needs lists the names of need's items that w's inventory lacks.
func needs(w *sim.World, need []sim.ItemAmount) []string {
	var out []string
	r := w.Rules()
	for _, n := range need {
		if w.Inventory(n.Item) < int(n.Amount) && !slices.Contains(out, r.Items[n.Item].Name) {
			out = append(out, r.Items[n.Item].Name)
		}
	}
	return out
}

// Forms lists every skill with the arguments it takes under rules r, one
// line each: what an external player is offered at the skill level
// ("collect <item>: wood, stone, …").
func Forms(r *sim.Rules) []string {
	var mats []string
	for _, m := range r.Materials[1:] {
		mats = append(mats, m.Name)
	}
	kinds := creatures(r)
	return []string{
		"goto <target>: walk to the nearest one you have seen and face it (stand on it if it is walkable, or on x,y); target: " + strings.Join(mats, ", ") + ", " + strings.Join(kinds, ", ") + ", landmark A to I, or x,y",
		"collect <item>: go to its source and take it (mine is the same); item: " + strings.Join(collectables(r), ", "),
		"make <item>: craft it, walking to the stations it needs; item: " + strings.Join(makeables(r), ", "),
		"place <item>: put it on a free tile beside you; item: " + strings.Join(placeables(r), ", "),
		"attack <creature>: go to the nearest one in view and hit it until it dies; creature: " + strings.Join(attackable(r), ", "),
		"eat: go to a cow in view and eat it",
		"drink: go to water and drink until full",
		"sleep: sleep until rested (you wake if hurt)",
		"explore <direction>: walk up to 8 tiles that way, around obstacles; direction: north, south, east, west",
		"noop: wait one step",
	}
}
