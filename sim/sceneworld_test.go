package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// sceneWorld builds a world of exactly the ASCII map's size with chunk
// balancing off, so that no creature appears unasked.
func sceneWorld(t *testing.T, scene string) *World {
	return sceneWorldWith(t, scene, Classic())
}

// sceneWorldWith is sceneWorld with the given rules (which it edits).
func sceneWorldWith(t *testing.T, scene string, r *Rules) *World {
	t.Helper()
	rows, err := ParseASCII(scene)
	require.NoError(t, err)
	r.Creature.BalanceEvery = 1 << 30
	w, err := New(Config{Width: len(rows[0]), Height: len(rows), Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(scene))
	return w
}
