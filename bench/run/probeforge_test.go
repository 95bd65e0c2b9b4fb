package run

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
)

// TestVerifyRederivesTheProbes: the probe figures are the evaluator's
// scoring of the agent's beliefs and predictions against the world, and
// each played reply, belief and prediction included, is in the trace (a
// step's note keeps its raw reply). Here an agent that always believes
// it stands 5 east and 5 south of its start (a claim scored under partial
// observability) and always predicts nothing happens and a wood comes,
// while it moves left, scores low; a forger raises every probe figure,
// claim counts, accuracies and skills, in the lines and writes the
// summary of the forged lines. Verify must name the forged lines: it did
// not while it took the probe figures as the line's word.
func TestVerifyRederivesTheProbes(t *testing.T) {
	t.Parallel()
	srv := replyModel(t, `{"action": "move_left", "belief": {"from_start": {"x": 5, "y": 5}}, "expect": {"outcome": "nothing", "inventory": {"wood": 1}}}`, 0)
	o := scoreVerified(t, srv)

	path := filepath.Join(o.Out, results.ResultsFile)
	rs, err := results.Read(path)
	require.NoError(t, err)
	scored := 0
	for _, r := range rs {
		if r.BeliefClaimsRight < r.BeliefClaims && r.PredictionClaimsRight < r.PredictionClaims {
			scored++
		}
	}
	require.GreaterOrEqual(t, scored, 3, "the honest run scores wrong beliefs and predictions")

	// The forger: every scored claim right, the baselines' as they were.
	traced := map[string]bool{}
	forged := 0
	for i := range rs {
		r := &rs[i]
		traced[r.ID] = true
		if r.BeliefClaimsRight < r.BeliefClaims || r.PredictionClaimsRight < r.PredictionClaims {
			forged++
		}
		if r.BeliefClaims > 0 {
			r.BeliefClaimsRight, r.StateConsistency = r.BeliefClaims, episode.Measured(1)
			r.StateSkill = episode.ProbeSkill(r.BeliefClaims, r.BeliefBaseline, r.BeliefClaims)
		}
		if r.PredictionClaims > 0 {
			r.PredictionClaimsRight, r.WorldModelAccuracy = r.PredictionClaims, episode.Measured(1)
			r.WorldModelSkill = episode.ProbeSkill(r.PredictionClaims, r.PredictionBaseline, r.PredictionClaims)
		}
	}
	require.NoError(t, results.WriteSorted(path, rs))
	def, err := results.ReadDefinition(o.Out)
	require.NoError(t, err)
	require.NoError(t, results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), summarize(def, rs, traced)))

	v, err := Verify(o.Out)
	require.NoError(t, err)
	require.False(t, v.OK(), "verify accepts %d lines whose probe figures were raised (their traces hold every reply scored)", scored)
	require.Len(t, v.Lines, forged, "every forged line is named: %v", v.Lines)
	for _, field := range []string{"belief_claims_right", "state_consistency", "state_skill", "prediction_claims_right", "world_model_accuracy", "world_model_skill"} {
		require.Contains(t, v.Lines[0], field+" ")
	}
	require.NotEmpty(t, v.Summary, "the summary of the forged lines is not the traces'")
}
