package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSemanticNames: every id a symbolic view can hold has its name in the
// legend, for every ruleset.
func TestSemanticNames(t *testing.T) {
	for _, name := range []string{ClassicName, ExtendedName} {
		r, err := RulesByName(name)
		require.NoError(t, err)
		names := r.SemanticNames()
		assert.Equal(t, "outside", names[0])
		for m := 1; m < len(r.Materials); m++ {
			assert.Equal(t, r.Materials[m].Name, names[m], name)
		}
		for k := ObjPlayer; k < numObjectKinds; k++ {
			id := int(r.SemanticID(k))
			require.Less(t, id, len(names), "%s: %s", name, k)
			assert.Equal(t, k.String(), names[id], name)
		}
		assert.Len(t, names, len(r.Materials)+int(numObjectKinds-ObjPlayer), name)
	}
}
