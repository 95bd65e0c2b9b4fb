package results

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProbeSkillInterval: the group's skill pools its episodes' claims
// (an episode where the baseline was right on every claim does not pull a
// perfect model below 1), its interval lies inside [−1, 1] and does not
// depend on the episodes' order, and a group without claims has none.
func TestProbeSkillInterval(t *testing.T) {
	assert.Nil(t, probeSkill(nil))
	assert.Nil(t, probeSkill([]probeTally{{}, {}}), "episodes that claimed nothing")
	assert.Equal(t, "–", probeSkill(nil).String())

	// Every claim right; the second episode's baseline was too, which
	// alone would score 0: pooled, the skill is 1 (a resample of that
	// episode alone shows none, so the interval reaches down to 0).
	perfect := probeSkill([]probeTally{{10, 10, 6}, {20, 20, 20}, {5, 5, 1}})
	require.NotNil(t, perfect)
	assert.Equal(t, ProbeSkill{Claims: 35, Episodes: 3, Skill: 1, Low: 0, High: 1}, *perfect)
	perfect = probeSkill([]probeTally{{10, 10, 6}, {8, 8, 2}, {5, 5, 1}})
	assert.Equal(t, ProbeSkill{Claims: 23, Episodes: 3, Skill: 1, Low: 1, High: 1}, *perfect)

	mixed := []probeTally{{10, 2, 8}, {10, 9, 8}, {30, 20, 25}, {0, 0, 0}, {12, 12, 6}, {40, 10, 30}, {8, 8, 8}}
	p := probeSkill(mixed)
	require.NotNil(t, p)
	// Pooled: 61 of 110 right, the baseline 85: (61 − 85)/(110 − 85).
	assert.InDelta(t, (61.0-85)/(110-85), p.Skill, 1e-12)
	assert.Equal(t, [2]int{110, 6}, [2]int{p.Claims, p.Episodes})
	assert.True(t, -1 <= p.Low && p.Low <= p.Skill && p.Skill <= p.High && p.High <= 1, "%+v", *p)
	assert.Less(t, p.Low, p.High)
	reversed := slices.Clone(mixed)
	slices.Reverse(reversed)
	assert.Equal(t, *p, *probeSkill(reversed), "the same whatever the order")
	assert.Equal(t, fmt.Sprintf("%+.2f [%+.2f, %+.2f] over 110 claims", p.Skill, p.Low, p.High), p.String())

	wrong := probeSkill([]probeTally{{4, 0, 3}})
	assert.Equal(t, ProbeSkill{Claims: 4, Episodes: 1, Skill: -1, Low: -1, High: -1}, *wrong)
}
