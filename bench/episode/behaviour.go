package episode

import (
	"math/bits"

	"github.com/longcraft/longcraft/sim"
)

// Tracker computes an episode's behavioural metrics step by step without
// allocating: valid and effective actions, failures by reason,
// precondition discovery, recovery cost and repeated failures.
type Tracker struct {
	steps, valid, effective, failed, repeated int
	// The drink and energy levels after the last step: a drink or a sleep
	// is effective only when it raised them (Effective).
	drink, energy int
	// The states the last collects and places left (undone): a collect or
	// a place that returns to one of them undoes an earlier one.
	undone   [undoWindow]uint64
	undoNext int
	byReason [16]int
	// The previous failing action, while nothing has succeeded since.
	lastFail    sim.Action
	lastFailSet bool
	// Precondition discovery: what failures said was missing, and which
	// of those the agent later obtained.
	missingItems, gotItems       sim.ItemSet
	missingStations, gotStations sim.MaterialSet
	// Recovery: the step of the first failure since the last milestone.
	failSince, recoveries, recoverySteps int
	// Progress: the last step at which a milestone or stage was reached.
	lastProgress int
	// The step of each first unlock of an achievement, in order (held in
	// an array: a step allocates nothing).
	unlockSteps [sim.MaxAchievements]int32
	unlocks     int
}

// Reset starts a new episode on w, just reset.
func (t *Tracker) Reset(w *sim.World) {
	*t = Tracker{failSince: -1, drink: w.Inventory(sim.ItemDrink), energy: w.Inventory(sim.ItemEnergy)}
}

// Step records one step; progressed says whether a milestone or stage was
// reached on it, fresh whether the player now stands on a tile it had
// never stood on (Coverage.Step).
func (t *Tracker) Step(w *sim.World, a sim.Action, out *sim.Outcome, progressed, fresh bool) {
	t.steps++
	for u := uint64(out.Unlocked); u != 0 && t.unlocks < len(t.unlockSteps); u &= u - 1 {
		t.unlockSteps[t.unlocks] = int32(t.steps)
		t.unlocks++
	}
	if out.Kind != sim.OutNothing && out.Kind != sim.OutBlocked {
		t.valid++
	}
	drink, energy := w.Inventory(sim.ItemDrink), w.Inventory(sim.ItemEnergy)
	effective := Effective(out, fresh, drink > t.drink, energy > t.energy)
	if out.Kind == sim.OutCollected || out.Kind == sim.OutPlaced {
		// Placing a stone and mining it back, over and over, gains and
		// spends the same count on the same tile: a collect or a place
		// whose resulting state was already left by one of the last
		// undoWindow collects and places adds nothing.
		s := undoState(w)
		for _, u := range t.undone {
			if u == s {
				effective = false
			}
		}
		t.undone[t.undoNext] = s
		t.undoNext = (t.undoNext + 1) % undoWindow
	}
	if effective {
		t.effective++
	}
	t.drink, t.energy = drink, energy
	if out.Failed() {
		t.failed++
		t.byReason[out.Reason&15]++
		if t.lastFailSet && t.lastFail == a {
			t.repeated++
		}
		t.lastFail, t.lastFailSet = a, true
		t.missingItems |= out.Missing
		t.missingStations |= out.MissingNearby
		if t.failSince < 0 {
			t.failSince = t.steps
		}
	} else if out.Kind != sim.OutNothing {
		t.lastFailSet = false
	}
	// Obtained since: items held now (only an action that succeeded can
	// have added one), stations placed.
	if pending := t.missingItems &^ t.gotItems; pending != 0 && (out.Kind == sim.OutCollected || out.Kind == sim.OutMade) {
		for it := sim.Item(0); pending != 0; it++ {
			if pending.Has(it) && w.Inventory(it) > 0 {
				t.gotItems |= 1 << it
			}
			pending &^= 1 << it
		}
	}
	if pending := t.missingStations &^ t.gotStations; pending != 0 && out.Kind == sim.OutPlaced {
		if pending.Has(out.Material) {
			t.gotStations |= 1 << out.Material
		}
	}
	if progressed {
		t.lastProgress = t.steps
		if t.failSince >= 0 {
			t.recoveries++
			t.recoverySteps += t.steps - t.failSince
			t.failSince = -1
		}
	}
}

// undoWindow is how many collects and places back an undo is looked for.
const undoWindow = 64

// undoState fingerprints what a collect or a place changes: where the
// player stands and faces, the faced tile and the object on it, and the
// non-vital counts (never 0: a zero slot of Tracker.undone is empty).
func undoState(w *sim.World) uint64 {
	x, y := w.Player()
	tx, ty := w.Target()
	h := uint64(14695981039346656037)
	mix := func(v int) { h = (h ^ uint64(v)) * 1099511628211 }
	mix(x)
	mix(y)
	mix(tx)
	mix(ty)
	if w.Inside(tx, ty) {
		mix(int(w.Material(tx, ty)))
	}
	if o, ok := w.ObjectAt(tx, ty); ok {
		mix(int(o.Kind) + 1)
	}
	r := w.Rules()
	for it := range r.Items {
		if !r.Items[it].Vital {
			mix(w.Inventory(sim.Item(it)))
		}
	}
	return h | 1
}

// Effective reports whether a step of outcome out left net new state,
// which undoing it later cannot take back: moved onto a tile never stood
// on before in the episode (fresh), collected something it could hold,
// placed, made, ate (a cow or a plant is gone), hit a creature, or drank
// or slept and so raised its drink or energy. A move back and forth, a
// drink or a sleep at the maximum, a collect or a make with a full inventory, a
// noop, a blocked move and a failed action leave nothing new: an agent
// alternating two moves has one effective step, whatever its length.
// The Tracker also refuses a collect or a place that undoes a recent one
// (a stone placed and mined back).
func Effective(out *sim.Outcome, fresh, drinkRose, energyRose bool) bool {
	switch out.Kind {
	case sim.OutMoved:
		return fresh
	case sim.OutCollected, sim.OutMade:
		return out.Count > 0 // nothing gained with a full inventory
	case sim.OutPlaced, sim.OutAte, sim.OutAttacked:
		return true
	case sim.OutDrank:
		return drinkRose
	case sim.OutSlept:
		return energyRose
	}
	return false
}

// Behaviour holds an episode's behavioural metrics, read from its
// outcomes (in full, whatever the agent was told).
type Behaviour struct {
	ValidActionRatio Measure        `json:"valid_action_ratio"`     // actions that did something; not measured without a step
	FailedActions    int            `json:"failed_actions"`         //
	FailedByReason   map[string]int `json:"failed_by_reason"`       // reason → count
	Discovery        Measure        `json:"precondition_discovery"` // missing things later obtained; not measured when nothing was missing
	RecoveryCost     Measure        `json:"recovery_cost"`          // mean steps from a failure to the next milestone; not measured without a recovery
	RepeatedFailures Measure        `json:"repeated_failure_rate"`  // failing actions repeating the previous failure; not measured when none failed

	// EffectiveActionRatio: steps that left net new state (Effective) over
	// steps, the ratio oscillating cannot inflate; not measured in an
	// episode of no step.
	EffectiveActionRatio Measure `json:"effective_action_ratio"`
}

// Behaviour summarises the tracker.
func (t *Tracker) Behaviour() Behaviour {
	b := Behaviour{FailedActions: t.failed}
	if t.steps > 0 {
		b.ValidActionRatio = Measured(float64(t.valid) / float64(t.steps))
		b.EffectiveActionRatio = Measured(float64(t.effective) / float64(t.steps))
	}
	if t.failed > 0 {
		b.RepeatedFailures = Measured(float64(t.repeated) / float64(t.failed))
		b.FailedByReason = map[string]int{}
		for r, n := range t.byReason {
			if n > 0 {
				b.FailedByReason[sim.Reason(r).String()] = n
			}
		}
	}
	missing := bits.OnesCount64(uint64(t.missingItems)) + bits.OnesCount64(uint64(t.missingStations))
	if missing > 0 {
		got := bits.OnesCount64(uint64(t.gotItems)) + bits.OnesCount64(uint64(t.gotStations))
		b.Discovery = Measured(float64(got) / float64(missing))
	}
	if t.recoveries > 0 {
		b.RecoveryCost = Measured(float64(t.recoverySteps) / float64(t.recoveries))
	}
	return b
}

// UnlockSteps returns the step of each first unlock of an achievement,
// ascending (nil: none): the curve of unlocks over steps.
func (t *Tracker) UnlockSteps() []int {
	var out []int
	for _, s := range t.unlockSteps[:t.unlocks] {
		out = append(out, int(s))
	}
	return out
}

// LastProgress is the step at which a milestone or stage was last reached
// (0: never).
func (t *Tracker) LastProgress() int { return t.lastProgress }
