package text

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/longcraft/longcraft/sim"
)

func TestOutcomeText(t *testing.T) {
	w := sceneWorld(t, `
...
.@.
.#.
`)
	r := w.Rules()
	out := w.Step(sim.ActDo)
	assert.Equal(t, "do: failed, needs 1 wood_pickaxe", Outcome(out, r))
	out = w.Step(sim.ActMakeStonePickaxe)
	assert.Equal(t, "make_stone_pickaxe: failed, needs a table nearby and 1 wood, 1 stone", Outcome(out, r))
	out = w.Step(sim.ActMoveDown)
	assert.Equal(t, "move_down: blocked, stone is in the way", Outcome(out, r))
}
