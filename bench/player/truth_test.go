package player

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// scripted answers every observation with the same reply.
type scripted string

func (scripted) Reset(context.Context, string) error { return nil }
func (s scripted) Act(context.Context, *protocol.Observation) (string, Usage, error) {
	return string(s), Usage{Calls: 1}, nil
}
func (scripted) Close() error { return nil }

// TestPredictionsScoredAgainstWhatHappened: at feedback none a blocked
// move reads as nothing happening, but the prediction is scored against
// the outcome in full that the host passes to Observed.
func TestPredictionsScoredAgainstWhatHappened(t *testing.T) {
	tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1, Feedback: task.FeedbackNone}, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	full := sim.Outcome{Action: sim.ActMoveLeft, Kind: sim.OutBlocked}
	seen := tk.Feedback.Filter(full)
	require.Equal(t, sim.OutNothing, seen.Kind, "at none a blocked move reads as nothing")
	for _, c := range []struct {
		predict string
		right   int
	}{{"blocked", 1}, {"nothing", 0}} {
		a, err := NewAgent(context.Background(), scripted(`{"action": "move_left", "expect": {"outcome": "`+c.predict+`"}}`), tk, AgentOptions{}, nil)
		require.NoError(t, err)
		a.Reset(0)
		a.Act(w, nil)     // predicts
		a.Observed(&full) // the host's full outcome
		a.Finish(w, &seen)
		assert.Equal(t, 1, a.Stats().ExpectChecks, c.predict)
		assert.Equal(t, c.right, a.Stats().ExpectCorrect, c.predict)
	}
}
