package trace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWasCut: a string fitString cut says so, one it kept whole does not,
// even one that merely mentions the marker.
func TestWasCut(t *testing.T) {
	for _, c := range []struct {
		s   string
		cut bool
	}{
		{fitString(strings.Repeat("x", maxString+1)), true},
		{fitString(strings.Repeat("é", maxString)), true},
		{fitString("short"), false},
		{"…[cut: 0 bytes over the trace's 1048576-byte limit]", false},
		{"…[cut: some bytes over the trace's 1048576-byte limit]", false},
		{"…[cut: 3 bytes over the trace's 1048576-byte limit] and more", false},
		// A reply that ends with the marker's very words, at a length no
		// cut leaves: a model may echo them.
		{`{"action": "noop"} …[cut: 5 bytes over the trace's 1048576-byte limit]`, false},
		// The length of a cut, the marker of another limit.
		{strings.Repeat("x", maxString-60) + "…[cut: 5 bytes over the trace's 99-byte limit]", false},
	} {
		assert.Equal(t, c.cut, WasCut(c.s), "%.60q", c.s[max(len(c.s)-60, 0):])
	}
}

// TestLeftOut: the note standing for the notes left out is known as such,
// a step's note is not, even one whose reasoning copies the marker.
func TestLeftOut(t *testing.T) {
	marker := droppedNote(9, 3, 3000)
	assert.True(t, LeftOut(&marker))
	copied := Note{Step: 9, Reasoning: marker.Reasoning, Raw: `{"action": "noop", "reason": "..."}`}
	assert.False(t, LeftOut(&copied))
	assert.False(t, LeftOut(&Note{Step: 9, Raw: `{"action": "noop"}`}))
	assert.False(t, LeftOut(&Note{}))
}
