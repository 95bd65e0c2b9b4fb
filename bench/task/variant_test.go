package task

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// TestAchievementsOfAVariedRuleset: the name a varied ruleset records
// leads back to its achievements, and variants never change them, so
// progression's denominator is the ruleset's own list.
func TestAchievementsOfAVariedRuleset(t *testing.T) {
	for _, base := range []*sim.Rules{sim.Classic(), sim.Extended()} {
		own, err := AchievementsOf(base.Name)
		require.NoError(t, err)
		assert.Equal(t, base.Achievements, own, base.Name)
		for seed := uint64(0); seed < 40; seed++ {
			for _, split := range []Split{Train, Eval} {
				r, _, err := ApplyVariants(base, seed, FamiliesFor(split))
				require.NoError(t, err)
				got, err := AchievementsOf(r.Name)
				require.NoError(t, err, r.Name)
				assert.Equal(t, r.Achievements, got, "%s seed %d", r.Name, seed)
			}
		}
	}
	assert.Len(t, must(AchievementsOf("classic")), 22, "Crafter's 22")
	assert.Len(t, must(AchievementsOf("extended+variants")), len(sim.Extended().Achievements), "the base table's")
	_, err := AchievementsOf("mystery")
	assert.ErrorContains(t, err, `"mystery"`)
}

func must(names []string, err error) []string {
	if err != nil {
		panic(err)
	}
	return names
}
