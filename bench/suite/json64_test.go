package suite

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/json64"
)

// TestLocksWriteSeedsAsStrings: a lock written now holds its seeds as
// strings, exact for float64 readers (jq, JavaScript); the embedded locks,
// written before with numeric seeds, still read, and both forms of a lock
// have one hash (results and run.json name locks by it).
func TestLocksWriteSeedsAsStrings(t *testing.T) {
	for _, name := range Embedded() {
		old, err := embedded.ReadFile("suites/" + name + ".lock.json")
		require.NoError(t, err)
		l, err := ParseLock(name, old)
		require.NoError(t, err, "the numeric form reads")
		data, err := l.Marshal()
		require.NoError(t, err)
		inexact, err := json64.Inexact(data)
		require.NoError(t, err)
		assert.Empty(t, inexact, name)
		again, err := ParseLock(name, data)
		require.NoError(t, err, "the string form reads")
		assert.Equal(t, l, again, name)
		assert.Equal(t, l.Hash, again.computeHash(), name)

		// What a float64 decoder reads is each seed, exactly.
		var generic struct {
			Episodes []map[string]any `json:"episodes"`
		}
		require.NoError(t, json.Unmarshal(data, &generic))
		require.Len(t, generic.Episodes, len(l.Episodes))
		big := 0
		for i := range l.Episodes {
			if l.Episodes[i].Seed > json64.MaxExact {
				big++
			}
		}
		assert.Positive(t, big, "%s: seeds over 2^53, which a float64 rounds", name)
		for i, e := range generic.Episodes {
			assert.Equal(t, strconv.FormatUint(l.Episodes[i].Seed, 10), e["seed"], "%s episode %d", name, i)
		}
	}
	// An unknown field of an episode is still refused.
	_, err := ParseLock("x", []byte(`{"format":1,"suite":"x","rules":{},"tiers":"","episodes":[{"id":"a","seed":"1","goal":"g","attempts":1,"certified":true,"planner_steps":1,"sneaky":1}],"hash":""}`))
	assert.ErrorContains(t, err, "unknown field")
}
