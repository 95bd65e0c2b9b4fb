package episode

import (
	"math/bits"

	"github.com/longcraft/longcraft/sim"
)

// Tracker computes an episode's behavioural metrics step by step without
// allocating: valid actions, failures by reason, precondition discovery,
// recovery cost and repeated failures.
type Tracker struct {
	steps, valid, failed, repeated int
	byReason                       [16]int
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

// Reset starts a new episode.
func (t *Tracker) Reset() { *t = Tracker{failSince: -1} }

// Step records one step; progressed says whether a milestone or stage was
// reached on it.
func (t *Tracker) Step(w *sim.World, a sim.Action, out *sim.Outcome, progressed bool) {
	t.steps++
	for u := uint64(out.Unlocked); u != 0 && t.unlocks < len(t.unlockSteps); u &= u - 1 {
		t.unlockSteps[t.unlocks] = int32(t.steps)
		t.unlocks++
	}
	if out.Kind != sim.OutNothing && out.Kind != sim.OutBlocked {
		t.valid++
	}
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

// Behaviour holds an episode's behavioural metrics, read from its
// outcomes (in full, whatever the agent was told).
type Behaviour struct {
	ValidActionRatio Measure        `json:"valid_action_ratio"`     // actions that did something; not measured without a step
	FailedActions    int            `json:"failed_actions"`         //
	FailedByReason   map[string]int `json:"failed_by_reason"`       // reason → count
	Discovery        Measure        `json:"precondition_discovery"` // missing things later obtained; not measured when nothing was missing
	RecoveryCost     Measure        `json:"recovery_cost"`          // mean steps from a failure to the next milestone; not measured without a recovery
	RepeatedFailures Measure        `json:"repeated_failure_rate"`  // failing actions repeating the previous failure; not measured when none failed
}

// Behaviour summarises the tracker.
func (t *Tracker) Behaviour() Behaviour {
	b := Behaviour{FailedActions: t.failed}
	if t.steps > 0 {
		b.ValidActionRatio = Measured(float64(t.valid) / float64(t.steps))
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
