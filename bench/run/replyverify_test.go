package run

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// scoreVerified scores the default suite's easy obtain tasks with the
// model served by srv, keeping every trace, and requires the honest run
// to verify: its reply figures scored again from the trace are what the
// runner scored.
func scoreVerified(t *testing.T, srv *httptest.Server) Options {
	t.Helper()
	o := Options{Suite: "default", Agent: "openai", Out: filepath.Join(t.TempDir(), "run"), Traces: "all",
		Families: []string{task.FamilyObtain}, Tiers: []string{"easy"},
		Config: Config{Certify: true, Workers: 1, External: agent.External{Model: "fake", BaseURL: srv.URL}}}
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	v, err := Verify(o.Out)
	require.NoError(t, err)
	require.True(t, v.OK(), "the honest run verifies: %v", v.Problems())
	return o
}

// TestVerifyRederivesEveryReplyFigure: a player whose replies vary (moves
// and collecting, beliefs right and wrong, copies, predictions of
// outcomes and counts, replies that do not parse or name no action) is
// scored in play and again by verify from its trace, with the same
// figures: the honest run verifies. A line whose invalid outputs or
// probe figures were edited is named; a line whose probes predate the
// claim-by-claim scoring is refused with a message saying so.
func TestVerifyRederivesEveryReplyFigure(t *testing.T) {
	t.Parallel()
	srv := scriptModel(t,
		`{"action": "move_left", "belief": {"from_start": {"x": 0, "y": 0}}, "expect": {"outcome": "moved"}}`,
		`I would rather not say.`,
		`{"action": "do", "belief": {"inventory": {"wood": 0}, "from_start": {"x": -1, "y": 0}}, "expect": {"outcome": "collected", "inventory": {"wood": 1}}}`,
		`{"action": "move_up", "belief": {"x": 3, "y": 4}, "expect": {"inventory": {"sapling": 0}}}`,
		`{"action": "fly", "belief": {"from_start": {"x": 9, "y": 9}}, "expect": {"outcome": "moved"}}`,
	)
	o := scoreVerified(t, srv)
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	var total results.AgentStats
	for _, r := range rs {
		total.InvalidOutputs += r.InvalidOutputs
		total.BeliefClaims += r.BeliefClaims
		total.BeliefClaimsRight += r.BeliefClaimsRight
		total.BeliefCopies += r.BeliefCopies
		total.PredictionClaims += r.PredictionClaims
		total.PredictionClaimsRight += r.PredictionClaimsRight
	}
	require.Positive(t, total.InvalidOutputs)
	require.Positive(t, total.BeliefCopies)
	require.Less(t, 0, total.BeliefClaimsRight)
	require.Less(t, total.BeliefClaimsRight, total.BeliefClaims, "some beliefs right, some wrong")
	require.Less(t, 0, total.PredictionClaimsRight)
	require.Less(t, total.PredictionClaimsRight, total.PredictionClaims, "some predictions right, some wrong")

	for _, c := range []struct {
		name  string
		edit  func(r *results.Result) bool
		named string
	}{
		{"fewer invalid outputs", func(r *results.Result) bool {
			r.InvalidOutputs--
			return r.InvalidOutputs >= 0
		}, "invalid_outputs "},
		{"more predictions scored", func(r *results.Result) bool {
			r.PredictionsScored++
			return r.PredictionClaims > 0
		}, "predictions_scored "},
		{"fewer copies", func(r *results.Result) bool {
			r.BeliefCopies = 0
			return true
		}, "belief_copies "},
		{"probes from before the claims", func(r *results.Result) bool {
			r.BeliefClaims, r.BeliefClaimsRight, r.BeliefPersistence, r.BeliefBaseRate, r.BeliefBaseline = 0, 0, 0, 0, 0
			return r.BeliefsScored > 0
		}, "scored by an older Longcraft"},
	} {
		forged := make([]results.Result, len(rs))
		copy(forged, rs)
		edited := 0
		for i := range forged {
			if c.edit(&forged[i]) {
				edited++
			} else {
				forged[i] = rs[i]
			}
		}
		require.Positive(t, edited, c.name)
		require.NoError(t, results.WriteSorted(filepath.Join(o.Out, results.ResultsFile), forged))
		v, err := Verify(o.Out)
		require.NoError(t, err)
		require.Len(t, v.Lines, edited, "%s: %v", c.name, v.Lines)
		for _, l := range v.Lines {
			assert.Contains(t, l, c.named, c.name)
		}
	}
}

// BenchmarkVerifyReplies checks a default-suite run (36 episodes) of an
// external player whose every step has a reply to score again, against
// BenchmarkVerify's built-in agent, whose traces have none: the cost of
// re-deriving the replies (a second world and pass over the steps, one
// parse a step).
func BenchmarkVerifyReplies(b *testing.B) {
	var calls atomic.Int64
	replies := []string{`{"action": "move_left", "belief": {"from_start": {"x": -1, "y": 0}}, "expect": {"outcome": "moved"}}`,
		`{"action": "do", "expect": {"inventory": {"wood": 1}}}`, `no reply`}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		content := replies[int(calls.Add(1)-1)%len(replies)]
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	b.Cleanup(srv.Close)
	dir := b.TempDir()
	o := killable(dir)
	o.Agent, o.External = "openai", agent.External{Model: "fake", BaseURL: srv.URL}
	_, err := Score(context.Background(), o, nil)
	require.NoError(b, err)
	benchVerify(b, dir)
}
