package text

import (
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/sim"
)

// Describe returns the text observation of w's current state, with the
// outcome of the last step if last is not nil, counted against the
// ruleset's episode length and naming what lies in the 9×9 square.
func Describe(w *sim.World, last *sim.Outcome) string {
	return DescribeWindow(w, last, int(w.Rules().Vitals.EpisodeLength), sim.SquareWindow())
}

// DescribeWindow is Describe for an episode of budget steps (a task's
// budget rather than the ruleset's episode length: "Step 5 of 12"; 0
// leaves the total out) naming only what lies in window v (Crafter's 9×7
// for Crafter's protocol).
func DescribeWindow(w *sim.World, last *sim.Outcome, budget int, v sim.Window) string {
	r := w.Rules()
	var b strings.Builder
	day := "day"
	if w.Daylight() < sim.DaylightFull/2 {
		day = "night"
	}
	fmt.Fprintf(&b, "Step %d", w.StepCount())
	if budget > 0 {
		fmt.Fprintf(&b, " of %d", budget)
	}
	fmt.Fprintf(&b, ". It is %s (daylight %d%%).\n", day, int(w.Daylight())*100/sim.DaylightFull)
	if last != nil {
		fmt.Fprintf(&b, "Last action: %s.\n", Outcome(*last, r))
	}
	fmt.Fprintf(&b, "Health %d/%d, food %d/%d, drink %d/%d, energy %d/%d.",
		w.Inventory(sim.ItemHealth), r.Items[sim.ItemHealth].Max, w.Inventory(sim.ItemFood), r.Items[sim.ItemFood].Max,
		w.Inventory(sim.ItemDrink), r.Items[sim.ItemDrink].Max, w.Inventory(sim.ItemEnergy), r.Items[sim.ItemEnergy].Max)
	if w.Sleeping() {
		b.WriteString(" You are asleep.")
	}
	if w.Dead() {
		b.WriteString(" You are dead.")
	}
	b.WriteString("\nInventory: ")
	var items []string
	for it := range r.Items {
		if n := w.Inventory(sim.Item(it)); !r.Items[it].Vital && n > 0 {
			items = append(items, fmt.Sprintf("%d %s", n, r.Items[it].Name))
		}
	}
	if len(items) == 0 {
		items = append(items, "empty")
	}
	b.WriteString(strings.Join(items, ", "))
	tx, ty := w.Target()
	fmt.Fprintf(&b, ".\nYou face %s; in front of you: %s.\n", compass(w.Facing()), thingAt(w, tx, ty))
	if v.HalfW == v.HalfH {
		fmt.Fprintf(&b, "You see (nearest of each, within %d tiles each way):\n", v.HalfW)
	} else {
		fmt.Fprintf(&b, "You see (nearest of each, within %d tiles east and west, %d north and south):\n", v.HalfW, v.HalfH)
	}
	for _, s := range visible(w, v) {
		fmt.Fprintf(&b, "- %s: %s", s.name, Offset(s.dx, s.dy))
		if s.count > 1 {
			fmt.Fprintf(&b, " (%d in view)", s.count)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// thingAt names what is on a tile: the object, else the material.
func thingAt(w *sim.World, x, y int) string {
	if o, ok := w.ObjectAt(x, y); ok {
		r := w.Rules()
		c := r.Kind(o.Kind)
		switch {
		case r.Ripe(o):
			return "ripe " + c.Name
		case c.Looks == sim.LooksLabel:
			return c.Name + " " + sim.LandmarkName(int(o.Timer))
		}
		return c.Name
	}
	if !w.Inside(x, y) {
		return "the edge of the world"
	}
	return w.Rules().Materials[w.Material(x, y)].Name
}
