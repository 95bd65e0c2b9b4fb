package player

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// TestUnplayedReplyIsNotScored: a reply whose step the host never played
// (a timeout, a spent budget stopped the episode first) is in no trace,
// so it scores nothing: its belief is not scored, its prediction not
// judged against the step before it (as it was, with a count change of 0
// that no step made), and it is not an invalid output.
func TestUnplayedReplyIsNotScored(t *testing.T) {
	tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1}, nil)
	require.NoError(t, err)
	for _, reply := range []string{`{"action": "noop", "belief": {"from_start": {"x": 0, "y": 0}}, "expect": {"inventory": {"wood": 0}}}`, `no reply`} {
		w, err := tk.NewWorld()
		require.NoError(t, err)
		a, err := NewAgent(context.Background(), scripted(reply), tk, AgentOptions{}, nil)
		require.NoError(t, err)
		a.Reset(0)
		a.Act(w, nil) // then the host stops the episode
		a.Finish(w, nil)
		assert.Equal(t, ReplyStats{}, a.Stats().ReplyStats, reply)
		// Played, it counts.
		a.Reset(0)
		a.Act(w, nil)
		out := w.Step(sim.ActNoop)
		a.Observed(&out)
		a.Finish(w, &out)
		assert.NotEqual(t, ReplyStats{}, a.Stats().ReplyStats, reply)
	}
}

// TestRescoreReadsACutReplyAsInvalid: a reply over the parser's bound was
// invalid in play; the trace keeps it cut to its string bound, which the
// parser would read (its object comes first): Rescore knows it was cut.
func TestRescoreReadsACutReplyAsInvalid(t *testing.T) {
	tk, err := task.Generate(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1}, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	reply := `{"action": "noop", "belief": {"from_start": {"x": 0, "y": 0}}}`
	long := reply + strings.Repeat(" ", 2<<20)
	rec := trace.NewRecorder(2)
	rec.Begin(trace.Header{Task: &tk.Spec}, w)
	for _, raw := range []string{reply, long} {
		out := w.Step(sim.ActNoop)
		rec.Step(sim.ActNoop, &out, w)
		rec.Annotate(trace.Note{Raw: raw})
	}
	ep := rec.End(w, trace.Metrics{})
	require.True(t, trace.WasCut(ep.Notes[1].Raw))
	require.False(t, trace.WasCut(ep.Notes[0].Raw))
	s, complete, err := Rescore(tk, ep)
	require.NoError(t, err)
	require.True(t, complete)
	assert.Equal(t, 1, s.Invalid, "the cut reply")
	assert.Equal(t, 1, s.BeliefChecks, "the whole one")

	// A note that names another action than its step played is not its
	// reply.
	ep.Notes[0].Raw = `{"action": "move_left"}`
	_, _, err = Rescore(tk, ep)
	require.ErrorContains(t, err, "step 0 plays noop, but its recorded reply says move_left")
	// Notes left out: the replies cannot be scored again.
	ep.Notes = ep.Notes[:1]
	_, complete, err = Rescore(tk, ep)
	require.NoError(t, err)
	assert.False(t, complete)
}
