package run

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/longcraft/longcraft/bench/task"
)

// TestProbesNeedKnowledge: world_model_accuracy is "of the replies
// predicting their action's outcome kind or inventory change, the
// fraction that came true", and state_consistency the fraction of beliefs
// that matched the state. A player that knows nothing, plays noop and
// claims at every step that it holds no diamond and that its action will
// not change its diamonds is right every time: both probes say 100 %,
// above any honest world model that predicts what its actions do. A
// claim that holds whatever the player does (no change, an item it
// never had) must not score as knowledge. Fails on the current code.
func TestProbesNeedKnowledge(t *testing.T) {
	t.Parallel()
	for _, obs := range []task.Observability{task.Partial, task.Full} {
		spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 3, Budget: 50, Observability: obs}
		r := playOne(t, spec, `{"action": "noop", "belief": {"inventory": {"diamond": 0}}, "expect": {"inventory": {"diamond": 0}}}`, Config{})
		t.Logf("%s: state_consistency %v (%d beliefs), world_model_accuracy %v (%d predictions)", obs,
			r.StateConsistency, r.BeliefsScored, r.WorldModelAccuracy, r.PredictionsScored)
		assert.False(t, r.WorldModelAccuracy.OK && r.WorldModelAccuracy.Value == 1, "%s: a prediction of no change scores world_model_accuracy 100 %%", obs)
		assert.False(t, r.StateConsistency.OK && r.StateConsistency.Value == 1, "%s: a belief of holding no diamond scores state_consistency 100 %%", obs)
	}
}
