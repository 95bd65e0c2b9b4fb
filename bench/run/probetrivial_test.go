package run

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/longcraft/longcraft/bench/task"
)

// TestProbesNeedKnowledge: a player that knows nothing, plays noop and
// claims at every step that it holds no diamond and that its action will
// not change its diamonds is right every time, so its raw accuracies are
// 100 %. What scores knowledge is the skill over the baselines ("nothing
// changes", the base rate): such a claim must score no skill above 0, and
// a belief copied from what the observation states (every count) is not
// scored at all. Failed on the code before the skills (both probes said
// 100 % and nothing else).
func TestProbesNeedKnowledge(t *testing.T) {
	t.Parallel()
	for _, obs := range []task.Observability{task.Partial, task.Full} {
		spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 3, Budget: 50, Observability: obs}
		r := playOne(t, spec, `{"action": "noop", "belief": {"inventory": {"diamond": 0}}, "expect": {"inventory": {"diamond": 0}}}`, Config{})
		t.Logf("%s: state skill %v (%d beliefs), world-model skill %v (%d predictions)", obs,
			r.StateSkill, r.BeliefsScored, r.WorldModelSkill, r.PredictionsScored)
		assert.Zero(t, r.BeliefsScored, "%s: a count the observation states is a copy, not a belief", obs)
		assert.False(t, r.StateSkill.OK && r.StateSkill.Value > 0, "%s: a belief of holding no diamond scores state skill %v", obs, r.StateSkill)
		assert.Positive(t, r.PredictionsScored, "%s: the predictions are scored", obs)
		assert.True(t, r.WorldModelSkill.OK, "%s: the predictions have a skill", obs)
		assert.LessOrEqual(t, r.WorldModelSkill.Value, 0.0, "%s: a prediction of no change scores world-model skill above 0", obs)
	}
}
