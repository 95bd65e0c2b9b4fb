package task

import (
	"slices"
	"strings"

	"github.com/longcraft/longcraft/sim"
)

// Feedback is how much of a failed action's cause the agent is told. The
// simulation always knows; the task layer filters.
type Feedback string

// Feedback levels.
const (
	FeedbackFull   Feedback = "full"   // the reason and what is missing
	FeedbackReason Feedback = "reason" // the reason's code only (missing_tool, needs_nearby, …)
	FeedbackNone   Feedback = "none"   // nothing happens, as in Crafter
)

// FeedbackLevels returns the levels, most told first: the one list that
// validation, help and the browser's choices read.
func FeedbackLevels() []Feedback { return []Feedback{FeedbackFull, FeedbackReason, FeedbackNone} }

// FeedbackChoices names the levels for messages: "full, reason or none".
func FeedbackChoices() string {
	levels := FeedbackLevels()
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = string(l)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Valid reports whether f is a known level.
func (f Feedback) Valid() bool { return slices.Contains(FeedbackLevels(), f) }

// Filter returns the outcome as the agent may see it: at full, all of it;
// at reason, a failure's reason code and nothing of what was missing or in
// the way (its text names the code alone); at none, a failure looks like
// nothing happened.
func (f Feedback) Filter(o sim.Outcome) sim.Outcome {
	switch f {
	case FeedbackReason:
		o.Missing, o.MissingNearby = 0, 0
		o.ReasonOnly = true
	case FeedbackNone:
		if o.Failed() {
			// A failed action looks like no action at all.
			o = sim.Outcome{Action: o.Action, Events: o.Events, Unlocked: o.Unlocked, HealthDelta: o.HealthDelta, Done: o.Done}
		} else {
			o.Reason = sim.ReasonNone // e.g. inventory_full on a success
		}
		o.Missing, o.MissingNearby = 0, 0
	}
	return o
}

// Record is the structured form of an action's outcome that agents read
// beside the text at the full and reason levels: whether the action did
// what it asks and, when it failed, why, and at full what was missing.
type Record struct {
	OK            bool     `json:"ok"`
	Reason        string   `json:"reason,omitempty"`
	Missing       []string `json:"missing,omitempty"`        // items (tools or materials), full only
	MissingNearby []string `json:"missing_nearby,omitempty"` // stations within the 3×3 square, full only
}

// Record returns the structured outcome the agent may read at this
// level, or nil at none (Crafter's silence) and before the first step.
func (f Feedback) Record(o *sim.Outcome, r *sim.Rules) *Record {
	if o == nil || f == FeedbackNone {
		return nil
	}
	fo := f.Filter(*o)
	rec := &Record{OK: !fo.Failed(), Reason: fo.Reason.String()}
	if !fo.Failed() {
		rec.Reason = "" // e.g. inventory_full on a success is told in the text
	}
	for it := range r.Items {
		if fo.Missing.Has(sim.Item(it)) {
			rec.Missing = append(rec.Missing, r.Items[it].Name)
		}
	}
	for m := range r.Materials {
		if fo.MissingNearby.Has(sim.Material(m)) {
			rec.MissingNearby = append(rec.MissingNearby, r.Materials[m].Name)
		}
	}
	return rec
}

// Observability is what the agent sees of the world.
type Observability string

// Observability levels.
const (
	Partial Observability = "partial" // the local view (LocalView: 9×9, or Crafter's 9×7)
	Full    Observability = "full"    // the whole map
)

// Valid reports whether o is a known level.
func (o Observability) Valid() bool { return o == Partial || o == Full }
