package results

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
)

// TestSkillOfMinusOneReadsBack: a probe skill lies in [−1, 1], and −1
// (every claim wrong where the baseline hit) is a value: a line read
// back keeps it, where a Measure reads −1 as the old "not measured" (so
// the lines of an honest run disagreed with their own metrics, and with
// the summary written from them). The other measures still read −1 as
// not measured.
func TestSkillOfMinusOneReadsBack(t *testing.T) {
	for _, skill := range []episode.Measure{episode.Measured(-1), episode.Measured(-0.5), episode.Measured(0), episode.Measured(1), {}} {
		r := Result{ID: "ep-1", AgentStats: AgentStats{StateSkill: skill, WorldModelSkill: skill}}
		data, err := json.Marshal(r)
		require.NoError(t, err)
		var back Result
		require.NoError(t, json.Unmarshal(data, &back))
		assert.Equal(t, skill, back.StateSkill, "%s", data)
		assert.Equal(t, skill, back.WorldModelSkill, "%s", data)
	}
	var old Result
	require.NoError(t, json.Unmarshal([]byte(`{"id": "ep-1", "state_consistency": -1, "state_skill": null}`), &old))
	assert.False(t, old.StateConsistency.OK, "an old line's -1 is not measured")
	assert.False(t, old.StateSkill.OK)
}
