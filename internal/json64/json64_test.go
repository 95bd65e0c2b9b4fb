package json64

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A seed that float64 decoders round (to 18221634021153780000).
const bigSeed = 18221634021153779795

func TestUintWritesAStringAndReadsBothForms(t *testing.T) {
	out, err := json.Marshal(struct {
		Seed Uint `json:"seed"`
	}{bigSeed})
	require.NoError(t, err)
	assert.JSONEq(t, `{"seed":"18221634021153779795"}`, string(out))

	// What JSON.parse and jq see: the string, exact.
	var generic map[string]any
	require.NoError(t, json.Unmarshal(out, &generic))
	assert.Equal(t, "18221634021153779795", generic["seed"])

	for in, want := range map[string]uint64{
		`"18221634021153779795"`: bigSeed,
		`18221634021153779795`:   bigSeed, // the numeric form older files hold
		`"0"`:                    0,
		`18446744073709551615`:   1<<64 - 1,
		`null`:                   7, // left as it was
	} {
		u := Uint(7)
		require.NoError(t, json.Unmarshal([]byte(in), &u), in)
		assert.Equal(t, want, uint64(u), in)
	}
	for _, in := range []string{`"18446744073709551616"`, `-1`, `"-1"`, `1.5`, `1e3`, `"+3"`, `""`, `" 3"`, `true`, `"0x10"`} {
		var u Uint
		assert.Error(t, json.Unmarshal([]byte(in), &u), in)
	}
}

func TestInexactFindsWhatFloat64Rounds(t *testing.T) {
	for in, want := range map[string][]string{
		`{"seed": 18221634021153779795, "n": 3}`:           {"[0].seed = 18221634021153779795"},
		`{"seed": "18221634021153779795"}`:                 nil,
		`{"a": [9007199254740991, -9007199254740991]}`:     nil,
		`{"a": [9007199254740992]}`:                        {"[0].a[0] = 9007199254740992"},
		`{"x": 1.5e300, "y": 0.1}`:                         nil,
		"{\"a\": 1}\n{\"b\": {\"c\": -18221634021153779}}": {"[1].b.c = -18221634021153779"},
	} {
		got, err := Inexact([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := Inexact([]byte(`{"a":`))
	assert.Error(t, err)
}
