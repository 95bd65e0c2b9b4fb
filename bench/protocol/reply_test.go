package protocol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/sim"
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

// TestReplyParsingIsLinear: the parser visits each byte at most twice
// (two passes), whatever the braces. The first parser restarted at every
// '{': 256 KiB of braces took 47 s there, outside every step timeout.
func TestReplyParsingIsLinear(t *testing.T) {
	const n = 1 << 20
	for name, raw := range map[string]string{
		"opened":        strings.Repeat("{", n),
		"nested":        strings.Repeat("{", n/2) + strings.Repeat("}", n/2),
		"pairs":         strings.Repeat("{}", n/2),
		"quotes":        strings.Repeat(`{"`, n/2),
		"nested action": strings.Repeat("{", n/4) + `{"action":"do"}` + strings.Repeat("}", n/4),
	} {
		obj, visited := scanObject(raw)
		assert.LessOrEqual(t, visited, 2*len(raw), name)
		if name == "nested action" {
			assert.Equal(t, raw, obj, "the outermost object holding the action is the first to start")
		}
	}
	r, err := ParseReply(strings.Repeat("{", 1000)+`{"action":"do"}`, actions)
	require.NoError(t, err, "unclosed braces before the object")
	assert.Equal(t, "do", r.Action)
	r, err = ParseReply(`He said "hi {"action":"noop"}`, actions)
	require.NoError(t, err, "a stray quote in prose: the quote-blind pass finds it")
	assert.Equal(t, "noop", r.Action)
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

// FuzzParseSkillReply: any text gives a command that parses as a skill, or
// an ErrInvalid error, never a panic.
func FuzzParseSkillReply(f *testing.F) {
	f.Add(`{"action": "collect wood"}`)
	f.Add(`{"action": "goto 3,-4", "reason": "x"}`)
	f.Add(`{"action": "mine   IRON"}`)
	f.Add(`{"action": "goto landmark z"}`)
	r := sim.Extended()
	f.Fuzz(func(t *testing.T, raw string) {
		rep, err := ParseSkillReply(raw, r)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalid)
			return
		}
		c, err := skill.Parse(rep.Action, r)
		require.NoError(t, err)
		require.Equal(t, rep.Action, c.String(), "the command reads back as itself")
	})
}
