package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShareScratchKeepsWorlds: worlds that share one generation scratch,
// reset in turn in any order, are the worlds each makes in its own, in
// both rulesets and at several sizes.
func TestShareScratchKeepsWorlds(t *testing.T) {
	for _, r := range []*Rules{Classic(), Extended()} {
		for _, size := range []int{16, 48, 64} {
			own, err := New(Config{Width: size, Height: size, Rules: r})
			require.NoError(t, err)
			owner, err := New(Config{Width: size, Height: size, Rules: r})
			require.NoError(t, err)
			a, b := own.Clone(), own.Clone()
			require.NoError(t, a.ShareScratch(owner))
			require.NoError(t, b.ShareScratch(owner))
			for _, seed := range []uint64{3, 99, 3, 12345, 7} {
				own.Reset(seed)
				want := own.Hash()
				a.Reset(seed + 1) // the scratch last held another world
				b.Reset(seed)
				assert.Equal(t, want, b.Hash(), "%s %d seed %d", r.Name, size, seed)
				for i := 0; i < 50; i++ {
					own.Step(Action(i % len(r.Actions)))
					b.Step(Action(i % len(r.Actions)))
				}
				assert.Equal(t, own.Hash(), b.Hash())
			}
		}
	}
	small, _ := New(Config{Width: 16, Height: 16})
	big, _ := New(Config{Width: 32, Height: 32})
	assert.Error(t, small.ShareScratch(big))
}
