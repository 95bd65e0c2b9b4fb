package sim

import "math/bits"

// Reset starts a new episode from seed alone: it generates the map, places
// the player at the centre facing down and scatters the creatures. It
// allocates nothing, except on a clone's first Reset (see Clone).
func (w *World) Reset(seed uint64) {
	w.s = state{Seed: seed, RNG: RNG{State: mix64(seed ^ 0x776f726c64726e67)}, Facing: DirDown}
	for i := range w.rules.Items {
		w.s.Inventory[i] = w.rules.Items[i].Initial
	}
	w.s.LastHealth = w.s.Inventory[ItemHealth]
	w.s.RewardHealth = w.s.LastHealth
	clear(w.objAt)
	px, py := w.width/2, w.height/2
	w.addObject(Object{X: int16(px), Y: int16(py), Kind: ObjPlayer})
	if w.gen == nil { // a clone's first Reset
		w.gen = newGenerator(w)
	}
	w.generate(px, py)
}

// Step advances the world by one step with the player's action and
// reports what happened. Once the episode is done, Step changes nothing.
// An action outside the ruleset's table counts as noop.
func (w *World) Step(a Action) Outcome {
	var out Outcome
	w.StepTo(a, &out)
	return out
}

// StepTo is Step writing what happened into *out, for hosts that keep the
// outcome where they read it (bench/episode): returned, its 56 bytes
// were copied on every step.
func (w *World) StepTo(a Action, out *Outcome) {
	*out = Outcome{Action: a}
	if !w.beginStep(out) {
		return
	}
	w.updatePlayer(a, out)
	w.updateCreatures()
	if w.balanceStep() {
		w.balance()
	}
	w.compact()
	w.endStep(out)
}

// balanceStep reports whether this step balances the chunks: whether the
// step count is a multiple of BalanceEvery. With c = ⌈2^64/d⌉, n is a
// multiple of d exactly when n·c mod 2^64 ≤ c − 1, for every 32-bit n
// (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
// 2019): a multiplication where the remainder took a division, about 2 %
// of a batch's time.
func (w *World) balanceStep() bool {
	r := w.rules
	if r.balanceDivOf != r.Creature.BalanceEvery { // edited since Compile
		return w.s.Step%r.Creature.BalanceEvery == 0
	}
	return uint64(uint32(w.s.Step))*r.balanceDiv <= r.balanceDiv-1
}

// beginStep counts the step, or reports false (and out.Done) once the
// episode is done.
func (w *World) beginStep(out *Outcome) bool {
	if w.Done() {
		out.Done = true
		return false
	}
	w.s.Step++
	return true
}

// endStep settles the step's reward, death and time limit.
func (w *World) endStep(out *Outcome) {
	health := w.s.Inventory[ItemHealth]
	out.HealthDelta = health - w.s.RewardHealth
	if out.HealthDelta < 0 {
		out.Events |= EventHurt
	}
	w.s.RewardHealth = health
	if health <= 0 {
		w.s.Dead = true
		out.Events |= EventDied
	}
	if w.timeUp() {
		out.Events |= EventTimeUp
	}
	out.Done = w.Done()
}

// unlock records an achievement, noting it in out when it is new.
func (w *World) unlock(a Achievement, out *Outcome) {
	bit := AchievementSet(1) << a
	if w.s.Achievements&bit == 0 {
		w.s.Achievements |= bit
		out.Unlocked |= bit
	}
}

// hurtPlayer takes health from the player; death is settled at the end of
// the step, as in Crafter, so health may dip below zero until then.
func (w *World) hurtPlayer(damage int8) {
	w.s.Inventory[ItemHealth] -= damage
}

// distance returns the L1 distance from (x, y) to the player.
func (w *World) distance(x, y int) int {
	px, py := int(w.objects[0].X), int(w.objects[0].Y)
	return abs(x-px) + abs(y-py)
}

// abs is branchless: creature positions relative to the player are
// random, so a branch would be mispredicted half the time. It is sim's
// own, not internal/grid's Abs: sim is the core and imports nothing of
// Longcraft's.
func abs(v int) int {
	m := v >> (bits.UintSize - 1)
	return (v ^ m) - m
}
