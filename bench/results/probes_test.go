package results

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProbeSkillInterval: the group's skill is the episodes' mean with an
// interval inside [−1, 1] that does not depend on the episodes' order,
// and nothing when no episode measured it.
func TestProbeSkillInterval(t *testing.T) {
	assert.Nil(t, probeSkill(nil, 0))
	assert.Equal(t, "–", probeSkill(nil, 0).String())
	skills := []float64{-1, -1, 1, 1, 1, 0.5, -0.2, 1, 1, 1}
	p := probeSkill(skills, 321)
	require.NotNil(t, p)
	assert.InDelta(t, 0.43, p.Mean, 1e-12)
	assert.Equal(t, [2]int{321, 10}, [2]int{p.Claims, p.Episodes})
	assert.True(t, -1 <= p.Low && p.Low <= p.Mean && p.Mean <= p.High && p.High <= 1, "%+v", *p)
	reversed := make([]float64, len(skills))
	for i, v := range skills {
		reversed[len(skills)-1-i] = v
	}
	assert.Equal(t, *p, *probeSkill(reversed, 321), "the same whatever the order")
	one := probeSkill([]float64{-1}, 3)
	assert.Equal(t, ProbeSkill{Claims: 3, Episodes: 1, Mean: -1, Low: -1, High: -1}, *one)
	assert.Equal(t, fmt.Sprintf("+0.43 [%+.2f, %+.2f] over 321 claims", p.Low, p.High), p.String())
}
