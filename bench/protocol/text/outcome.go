package text

import (
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/sim"
)

// Outcome describes the outcome o under rules r in a sentence fragment,
// e.g. "do: collected 1 wood from tree" or "make_wood_pickaxe: failed,
// needs a table nearby"; with ReasonOnly set, a failure names its reason
// code alone: "make_wood_pickaxe: failed (needs_nearby)".
func Outcome(o sim.Outcome, r *sim.Rules) string {
	name := "unknown action"
	if int(o.Action) < len(r.Actions) {
		name = r.Actions[o.Action].Name
	}
	var s string
	switch {
	case o.ReasonOnly && o.Kind == sim.OutBlocked:
		s = "blocked (" + o.Reason.String() + ")"
	case o.ReasonOnly && o.Failed():
		s = "failed (" + o.Reason.String() + ")"
	default:
		s = kindText(&o, r)
	}
	return name + ": " + tail(&o, s, r)
}

// kindText describes what the action did, or why it failed, in full.
func kindText(o *sim.Outcome, r *sim.Rules) string {
	var s string
	switch o.Kind {
	case sim.OutMoved:
		s = "moved"
	case sim.OutBlocked:
		s = "blocked, " + reasonText(o, r)
	case sim.OutCollected:
		s = fmt.Sprintf("collected %d %s from %s", o.Count, r.Items[o.Item].Name, r.Materials[o.Material].Name)
		if o.Reason == sim.ReasonInventoryFull {
			s = fmt.Sprintf("took the %s, but %s was already at its maximum", r.Materials[o.Material].Name, r.Items[o.Item].Name)
		}
	case sim.OutDrank:
		s = "drank water"
	case sim.OutAte:
		s = fmt.Sprintf("ate the %s (+%d food)", r.KindName(o.Object), o.Count)
	case sim.OutAttacked:
		s = "hit the " + r.KindName(o.Object)
		if o.Damage > 0 { // a hit always deals some: 0 is a filter's silence (Crafter's view)
			s += fmt.Sprintf(" for %d damage", o.Damage)
		}
		if o.Defeated {
			s += " and defeated it"
		}
	case sim.OutPlaced:
		if o.Object != sim.ObjNone {
			s = "placed a " + r.KindName(o.Object)
		} else {
			s = "placed " + r.Materials[o.Material].Name
		}
	case sim.OutMade:
		s = "made " + r.Items[o.Item].Name
	case sim.OutSlept:
		s = "asleep"
	default:
		if o.Reason == sim.ReasonNone {
			s = "nothing happened"
		} else {
			s = "failed, " + reasonText(o, r)
		}
	}
	if o.Reason == sim.ReasonInventoryFull && o.Kind == sim.OutMade {
		s += fmt.Sprintf(", but %s was already at its maximum", r.Items[o.Item].Name)
	}
	return s
}

// tail adds to s what else happened during the step: waking, health lost,
// death and achievements unlocked.
func tail(o *sim.Outcome, s string, r *sim.Rules) string {
	switch {
	case o.Events&sim.EventWoke != 0:
		s += "; you woke up rested"
	case o.Events&sim.EventWokeHurt != 0:
		s += "; you were woken by damage"
	}
	if o.HealthDelta < 0 {
		s += fmt.Sprintf("; you lost %d health", -o.HealthDelta)
	}
	if o.Events&sim.EventDied != 0 {
		s += "; you died"
	}
	for a := sim.Achievement(0); int(a) < len(r.Achievements); a++ {
		if o.Unlocked.Has(a) {
			s += "; achievement unlocked: " + r.Achievements[a]
		}
	}
	return s
}

// reasonText explains a failure reason, naming what is missing.
func reasonText(o *sim.Outcome, r *sim.Rules) string {
	switch o.Reason {
	case sim.ReasonMissingTool, sim.ReasonMissingMaterial:
		return "needs " + missingText(o, r)
	case sim.ReasonNeedsNearby:
		var names []string
		for m := sim.Material(0); int(m) < len(r.Materials); m++ {
			if o.MissingNearby.Has(m) {
				names = append(names, "a "+r.Materials[m].Name)
			}
		}
		s := "needs " + strings.Join(names, " and ") + " nearby"
		if o.Missing != 0 {
			s += " and " + missingText(o, r)
		}
		return s
	case sim.ReasonInvalidTarget:
		if o.Kind == sim.OutBlocked {
			if o.Material == sim.MatNone {
				return "the edge of the world is in the way"
			}
			return r.Materials[o.Material].Name + " is in the way"
		}
		if o.Object != sim.ObjNone && o.Material == sim.MatNone {
			return "cannot do that to the " + r.KindName(o.Object)
		}
		if o.Material == sim.MatNone {
			return "facing the edge of the world"
		}
		return "cannot do that to " + r.Materials[o.Material].Name
	case sim.ReasonOccupied:
		return "a " + r.KindName(o.Object) + " is in the way"
	case sim.ReasonNotRipe:
		return "the " + r.KindName(o.Object) + " is not ripe yet"
	case sim.ReasonNotTired:
		return "not tired"
	case sim.ReasonNoLuck:
		return "found nothing this time"
	case sim.ReasonWorldFull:
		return "the world holds too many objects"
	case sim.ReasonNeedsLight:
		return "too dark: needs light"
	}
	return o.Reason.String()
}

// missingText lists the missing items with the amounts the action needs.
func missingText(o *sim.Outcome, r *sim.Rules) string {
	var need []sim.ItemAmount
	if int(o.Action) < len(r.Actions) {
		a := &r.Actions[o.Action]
		switch a.Kind {
		case sim.ActionPlace:
			need = r.Place[a.Recipe].Uses
		case sim.ActionMake:
			need = r.Make[a.Recipe].Uses
		case sim.ActionDo:
			if c := r.CollectRuleOf(o.Material); c != nil {
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
