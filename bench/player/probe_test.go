package player

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
)

// TestClaimsBaselines: persistence and the base rate are judged on the
// claims themselves, the base rate is the best constant in hindsight,
// and the stronger baseline is taken field by field.
func TestClaimsBaselines(t *testing.T) {
	c := claims{}
	// The outcome: true values 1 1 2 1 (mode 1: 3 right); persistence
	// said 0 1 1 2 (1 right); the agent was right thrice.
	for _, v := range [][3]int64{{1, 1, 0}, {1, 1, 1}, {2, 2, 1}, {3, 1, 2}} {
		c.add("outcome", v[0], v[1], v[2])
	}
	// A count that never changes: everyone is right.
	for range 4 {
		c.add("inventory.diamond", 0, 0, 0)
	}
	// A field persistence wins: the value is always the last one.
	for _, v := range [][2]int64{{5, 4}, {6, 5}, {7, 6}} {
		c.add("from_start", 0, v[0], v[1]+1)
	}
	assert.Equal(t, ClaimScore{Claims: 11, Right: 7, Persistence: 1 + 4 + 3, BaseRate: 3 + 4 + 1, Baseline: 3 + 4 + 3}, c.score())
}

// TestBeliefNote: the trace keeps a belief as its JSON, not as Go's
// print of its pointers (v2 wrote addresses for x and y).
func TestBeliefNote(t *testing.T) {
	tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1}, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	a, err := NewAgent(context.Background(), scripted(`{"action": "noop", "belief": {"x": 3, "y": 4, "from_start": {"x": 0, "y": -1}}}`), tk, AgentOptions{}, nil)
	require.NoError(t, err)
	a.Reset(0)
	a.Act(w, nil)
	n, ok := a.Note()
	require.True(t, ok)
	assert.JSONEq(t, `{"x": 3, "y": 4, "from_start": {"x": 0, "y": -1}}`, n.Belief)
}
