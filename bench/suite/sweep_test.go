package suite

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A sweep's values are compared as strings, but they are YAML: two
// spellings of one value (50 and 0x32, or full and "'full'") make one
// spec, so the combined suite lists every episode twice. The duplicate
// check of Parse runs per combination, never on the combined suite.
func TestSweepEquivalentValuesRefused(t *testing.T) {
	for _, kv := range []string{"budget=50,0x32", "budget=50,+50", "feedback=full,'full'"} {
		sw, err := ParseSweep(kv)
		require.NoError(t, err)
		s, err := LoadSweep("default", nil, []Sweep{sw})
		if err != nil {
			continue // refused: fine
		}
		seen := map[string]bool{}
		for _, sp := range s.Expand() {
			require.False(t, seen[sp.ID()], "--sweep %s: episode %s listed twice in one suite", kv, sp.ID())
			seen[sp.ID()] = true
		}
	}
}
