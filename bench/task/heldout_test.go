package task

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHeldOutGoals: the train split never draws a held-out goal (a sword
// to obtain, coal to collect); the eval split does.
func TestHeldOutGoals(t *testing.T) {
	seeds := uint64(300)
	if testing.Short() {
		seeds = 60
	}
	evalHeld := 0
	for _, fam := range []string{FamilyObtain, FamilyObtainReturn, FamilyCollect} {
		for _, tier := range Tiers() {
			for i := range seeds {
				for _, split := range []Split{Train, Eval} {
					tk, err := Generate(Spec{Family: fam, Tier: tier.Name, Split: split, Index: i}, nil)
					require.NoError(t, err)
					goal := tk.Goal.String()
					held := heldOut(tk.Goal.Item) || tk.Goal.Kind == KindSequence && heldOut(tk.Goal.Goals[0].Item)
					if fam == FamilyCollect {
						held = tk.Goal.Item == HeldOut.Collect
					}
					if split == Train {
						require.False(t, held, "%s/%s/train#%d draws a held-out goal: %s", fam, tier.Name, i, goal)
					} else if held {
						evalHeld++
					}
				}
			}
		}
	}
	assert.Positive(t, evalHeld, "the eval split draws held-out goals")
	t.Logf("%d eval tasks of %d have held-out goals", evalHeld, 3*4*int(seeds))
}
