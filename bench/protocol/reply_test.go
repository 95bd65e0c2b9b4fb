package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var actions = []string{"noop", "move_left", "do", "make_wood_pickaxe"}

func TestParseReply(t *testing.T) {
	for _, c := range []struct{ raw, action string }{
		{`{"action": "do"}`, "do"},
		{"Sure!\n```json\n{\"action\": \"Move_Left\", \"reason\": \"a tree {west}\"}\n```", "move_left"},
		{`I think {"thoughts": {"x": 1}} then {"action":"make_wood_pickaxe","expect":{"outcome":"made","inventory":{"wood_pickaxe":1}}}`, "make_wood_pickaxe"},
	} {
		r, err := ParseReply(c.raw, actions)
		require.NoError(t, err, c.raw)
		assert.Equal(t, c.action, r.Action)
	}
	r, err := ParseReply(`{"action":"do","belief":{"inventory":{"wood":2},"x":3,"y":4}}`, actions)
	require.NoError(t, err)
	require.NotNil(t, r.Belief)
	assert.Equal(t, 2, r.Belief.Inventory["wood"])
	assert.Equal(t, 3, *r.Belief.X)
	for _, bad := range []string{"", "move left", `{"action": "fly"}`, `{"act": "do"}`, `{"action": 3}`} {
		_, err := ParseReply(bad, actions)
		assert.ErrorIs(t, err, ErrInvalid, bad)
	}
}

// FuzzParseReply: any text gives a reply with a listed action or an
// ErrInvalid error, never a panic.
func FuzzParseReply(f *testing.F) {
	f.Add(`{"action": "do"}`)
	f.Add("```json\n{\"action\": \"noop\", \"belief\": {\"x\": 1}}\n```")
	f.Add(`{"a": "{\"action\""} {"action": "do"`)
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := ParseReply(raw, actions)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalid)
			return
		}
		require.Contains(t, actions, r.Action)
	})
}
