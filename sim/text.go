package sim

import (
	"fmt"
	"strings"
)

// Text observations for LLM players. Offsets are always given per axis
// ("2 north, 3 west"), never as compass diagonals, which invite diagonal
// moves that do not exist. North is up (move_up), south is down, west is
// left, east is right. Text may allocate; it is deterministic.

// compass names a direction as the text observation does.
func compass(d Dir) string {
	switch d {
	case DirLeft:
		return "west"
	case DirRight:
		return "east"
	case DirUp:
		return "north"
	case DirDown:
		return "south"
	}
	return "nowhere"
}

// Offset describes the offset (dx, dy) per axis, e.g. "2 north, 3 west";
// "here" for (0, 0).
func Offset(dx, dy int) string {
	var parts []string
	switch {
	case dy < 0:
		parts = append(parts, fmt.Sprintf("%d north", -dy))
	case dy > 0:
		parts = append(parts, fmt.Sprintf("%d south", dy))
	}
	switch {
	case dx < 0:
		parts = append(parts, fmt.Sprintf("%d west", -dx))
	case dx > 0:
		parts = append(parts, fmt.Sprintf("%d east", dx))
	}
	if len(parts) == 0 {
		return "here"
	}
	return strings.Join(parts, ", ")
}

// Describe returns the text observation of the current state, with the
// outcome of the last step if last is not nil.
func (w *World) Describe(last *Outcome) string {
	return w.DescribeWithin(last, int(w.rules.Vitals.EpisodeLength))
}

// DescribeWithin is Describe for an episode of budget steps (a task's
// budget rather than the ruleset's episode length): "Step 5 of 12".
// budget 0 leaves the total out.
func (w *World) DescribeWithin(last *Outcome, budget int) string {
	return w.DescribeWindow(last, budget, SquareWindow())
}

// DescribeWindow is DescribeWithin naming only what lies in window v
// (Crafter's 9×7 for Crafter's protocol).
func (w *World) DescribeWindow(last *Outcome, budget int, v Window) string {
	r := w.rules
	var b strings.Builder
	day := "day"
	if w.Daylight() < one/2 {
		day = "night"
	}
	fmt.Fprintf(&b, "Step %d", w.s.Step)
	if budget > 0 {
		fmt.Fprintf(&b, " of %d", budget)
	}
	fmt.Fprintf(&b, ". It is %s (daylight %d%%).\n", day, int(w.Daylight())*100/one)
	if last != nil {
		fmt.Fprintf(&b, "Last action: %s.\n", last.Text(r))
	}
	inv := &w.s.Inventory
	fmt.Fprintf(&b, "Health %d/%d, food %d/%d, drink %d/%d, energy %d/%d.",
		inv[ItemHealth], r.Items[ItemHealth].Max, inv[ItemFood], r.Items[ItemFood].Max,
		inv[ItemDrink], r.Items[ItemDrink].Max, inv[ItemEnergy], r.Items[ItemEnergy].Max)
	if w.s.Sleeping {
		b.WriteString(" You are asleep.")
	}
	if w.s.Dead {
		b.WriteString(" You are dead.")
	}
	b.WriteString("\nInventory: ")
	var items []string
	for it := range r.Items {
		if !r.Items[it].Vital && inv[it] > 0 {
			items = append(items, fmt.Sprintf("%d %s", inv[it], r.Items[it].Name))
		}
	}
	if len(items) == 0 {
		items = append(items, "empty")
	}
	b.WriteString(strings.Join(items, ", "))
	tx, ty := w.Target()
	fmt.Fprintf(&b, ".\nYou face %s; in front of you: %s.\n", compass(w.s.Facing), w.thingAt(tx, ty))
	if v.HalfW == v.HalfH {
		fmt.Fprintf(&b, "You see (nearest of each, within %d tiles each way):\n", v.HalfW)
	} else {
		fmt.Fprintf(&b, "You see (nearest of each, within %d tiles east and west, %d north and south):\n", v.HalfW, v.HalfH)
	}
	for _, s := range w.visible(v) {
		fmt.Fprintf(&b, "- %s: %s", s.name, Offset(s.dx, s.dy))
		if s.count > 1 {
			fmt.Fprintf(&b, " (%d in view)", s.count)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// thingAt names what is on a tile: the object, else the material.
func (w *World) thingAt(x, y int) string {
	if o, ok := w.ObjectAt(x, y); ok {
		c := w.rules.Kind(o.Kind)
		switch {
		case w.rules.Ripe(o):
			return "ripe " + c.Name
		case c.Looks == LooksLabel:
			return c.Name + " " + LandmarkName(int(o.Timer))
		}
		return c.Name
	}
	if !w.Inside(x, y) {
		return "the edge of the world"
	}
	return w.rules.Materials[w.Material(x, y)].Name
}

// sighting is the nearest tile of one kind of thing in view.
type sighting struct {
	name   string
	dx, dy int
	count  int
}

// visible lists the nearest tile of each kind of thing in window v,
// nearest first (ties by name).
func (w *World) visible(v Window) []sighting {
	px, py := w.Player()
	var found []sighting
	index := map[string]int{}
	for dy := -v.HalfH; dy <= v.HalfH; dy++ {
		for dx := -v.HalfW; dx <= v.HalfW; dx++ {
			x, y := px+dx, py+dy
			if (dx == 0 && dy == 0) || !w.Inside(x, y) {
				continue
			}
			name := w.thingAt(x, y)
			i, seen := index[name]
			if !seen {
				index[name] = len(found)
				found = append(found, sighting{name: name, dx: dx, dy: dy, count: 1})
				continue
			}
			s := &found[i]
			s.count++
			if abs(dx)+abs(dy) < abs(s.dx)+abs(s.dy) {
				s.dx, s.dy = dx, dy
			}
		}
	}
	sortSightings(found)
	return found
}

func sortSightings(s []sighting) {
	less := func(a, b sighting) bool {
		da, db := abs(a.dx)+abs(a.dy), abs(b.dx)+abs(b.dy)
		if da != db {
			return da < db
		}
		return a.name < b.name
	}
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && less(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Text describes the outcome in a sentence fragment, e.g.
// "do: collected 1 wood from tree" or "make_wood_pickaxe: failed, needs a
// table nearby"; with ReasonOnly set, a failure names its reason code
// alone: "make_wood_pickaxe: failed (needs_nearby)".
func (o *Outcome) Text(r *Rules) string {
	name := "unknown action"
	if int(o.Action) < len(r.Actions) {
		name = r.Actions[o.Action].Name
	}
	var s string
	switch {
	case o.ReasonOnly && o.Kind == OutBlocked:
		s = "blocked (" + o.Reason.String() + ")"
	case o.ReasonOnly && o.Failed():
		s = "failed (" + o.Reason.String() + ")"
	default:
		s = o.kindText(r)
	}
	return name + ": " + o.tail(s, r)
}

// kindText describes what the action did, or why it failed, in full.
func (o *Outcome) kindText(r *Rules) string {
	var s string
	switch o.Kind {
	case OutMoved:
		s = "moved"
	case OutBlocked:
		s = "blocked, " + o.reasonText(r)
	case OutCollected:
		s = fmt.Sprintf("collected %d %s from %s", o.Count, r.Items[o.Item].Name, r.Materials[o.Material].Name)
		if o.Reason == ReasonInventoryFull {
			s = fmt.Sprintf("took the %s, but %s was already at its maximum", r.Materials[o.Material].Name, r.Items[o.Item].Name)
		}
	case OutDrank:
		s = "drank water"
	case OutAte:
		s = fmt.Sprintf("ate the %s (+%d food)", r.KindName(o.Object), o.Count)
	case OutAttacked:
		s = "hit the " + r.KindName(o.Object)
		if o.Damage > 0 { // a hit always deals some: 0 is a filter's silence (Crafter's view)
			s += fmt.Sprintf(" for %d damage", o.Damage)
		}
		if o.Defeated {
			s += " and defeated it"
		}
	case OutPlaced:
		if o.Object != ObjNone {
			s = "placed a " + r.KindName(o.Object)
		} else {
			s = "placed " + r.Materials[o.Material].Name
		}
	case OutMade:
		s = "made " + r.Items[o.Item].Name
	case OutSlept:
		s = "asleep"
	default:
		if o.Reason == ReasonNone {
			s = "nothing happened"
		} else {
			s = "failed, " + o.reasonText(r)
		}
	}
	if o.Reason == ReasonInventoryFull && o.Kind == OutMade {
		s += fmt.Sprintf(", but %s was already at its maximum", r.Items[o.Item].Name)
	}
	return s
}

// tail adds to s what else happened during the step: waking, health lost,
// death and achievements unlocked.
func (o *Outcome) tail(s string, r *Rules) string {
	switch {
	case o.Events&EventWoke != 0:
		s += "; you woke up rested"
	case o.Events&EventWokeHurt != 0:
		s += "; you were woken by damage"
	}
	if o.HealthDelta < 0 {
		s += fmt.Sprintf("; you lost %d health", -o.HealthDelta)
	}
	if o.Events&EventDied != 0 {
		s += "; you died"
	}
	for a := Achievement(0); int(a) < len(r.Achievements); a++ {
		if o.Unlocked.Has(a) {
			s += "; achievement unlocked: " + r.Achievements[a]
		}
	}
	return s
}

// reasonText explains a failure reason, naming what is missing.
func (o *Outcome) reasonText(r *Rules) string {
	switch o.Reason {
	case ReasonMissingTool, ReasonMissingMaterial:
		return "needs " + o.missingText(r)
	case ReasonNeedsNearby:
		var names []string
		for m := Material(0); int(m) < len(r.Materials); m++ {
			if o.MissingNearby.Has(m) {
				names = append(names, "a "+r.Materials[m].Name)
			}
		}
		s := "needs " + strings.Join(names, " and ") + " nearby"
		if o.Missing != 0 {
			s += " and " + o.missingText(r)
		}
		return s
	case ReasonInvalidTarget:
		if o.Kind == OutBlocked {
			if o.Material == MatNone {
				return "the edge of the world is in the way"
			}
			return r.Materials[o.Material].Name + " is in the way"
		}
		if o.Object != ObjNone && o.Material == MatNone {
			return "cannot do that to the " + r.KindName(o.Object)
		}
		if o.Material == MatNone {
			return "facing the edge of the world"
		}
		return "cannot do that to " + r.Materials[o.Material].Name
	case ReasonOccupied:
		return "a " + r.KindName(o.Object) + " is in the way"
	case ReasonNotRipe:
		return "the " + r.KindName(o.Object) + " is not ripe yet"
	case ReasonNotTired:
		return "not tired"
	case ReasonNoLuck:
		return "found nothing this time"
	case ReasonWorldFull:
		return "the world holds too many objects"
	case ReasonNeedsLight:
		return "too dark: needs light"
	}
	return o.Reason.String()
}

// missingText lists the missing items with the amounts the action needs.
func (o *Outcome) missingText(r *Rules) string {
	var need []ItemAmount
	if int(o.Action) < len(r.Actions) {
		a := &r.Actions[o.Action]
		switch a.Kind {
		case ActionPlace:
			need = r.Place[a.Recipe].Uses
		case ActionMake:
			need = r.Make[a.Recipe].Uses
		case ActionDo:
			if c := r.collectRule(o.Material); c != nil {
				need = c.Require
			}
		}
	}
	var parts []string
	for _, n := range need {
		if o.Missing.Has(n.Item) {
			parts = append(parts, fmt.Sprintf("%d %s", n.Amount, r.Items[n.Item].Name))
		}
	}
	return strings.Join(parts, ", ")
}
