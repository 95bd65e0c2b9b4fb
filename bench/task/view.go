package task

import "github.com/longcraft/longcraft/sim"

// LocalView is which local view an agent's text and symbolic observations
// give: Longcraft's (the 9×9 square around the player, the default) or
// Crafter's, for Crafter's and BALROG's protocols (the crafter and
// balrog-crafter suites): the 9×7 tiles of Crafter's image above its
// inventory, and nothing Crafter's observation does not show. The image is
// Crafter's 9×7 over the inventory under either.
type LocalView string

// Local views.
const (
	LongcraftView LocalView = ""        // the 9×9 square
	CrafterView   LocalView = "crafter" // Crafter's 9×7, told only what Crafter shows
)

// Valid reports whether v is a known view.
func (v LocalView) Valid() bool { return v == LongcraftView || v == CrafterView }

// Window is the rectangle of tiles the view covers.
func (v LocalView) Window() sim.Window {
	if v == CrafterView {
		return sim.CrafterWindow()
	}
	return sim.SquareWindow()
}

// Filter returns the outcome o (already filtered by the feedback level)
// as the view lets the agent read it. Under Crafter's view, what
// Crafter's observation never shows is left out: the achievements the step
// unlocked (Crafter's image has no such notice; its info dict and reward
// are not the agent's view) and the damage a hit dealt (a creature's
// health is not drawn). What the image shows stays: the inventory's and
// the vitals' changes, a creature gone, sleep.
func (v LocalView) Filter(o sim.Outcome) sim.Outcome {
	if v == CrafterView {
		o.Unlocked, o.Damage = 0, 0
	}
	return o
}

// Seen is the outcome o as the task's agent may read it: filtered by the
// feedback level, then by the local view.
func (t *Task) Seen(o sim.Outcome) sim.Outcome { return t.View.Filter(t.Feedback.Filter(o)) }
