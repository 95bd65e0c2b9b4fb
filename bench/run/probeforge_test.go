package run

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// TestVerifyRederivesTheProbes: state_consistency and world_model_accuracy
// are the evaluator's scoring of the agent's beliefs and predictions
// against the world, and each reply, belief and prediction included, is
// in the trace (a note's raw reply). docs/verify.md lists them as "the
// player's word, from its transport", not re-derived: a forger who edits
// them in the lines and rewrites summary.json to match is accepted. Here
// an agent that always believes it holds 9 wood and always predicts a
// wood is forged to 100 % on both: verify must name the lines. It fails
// on the current code.
func TestVerifyRederivesTheProbes(t *testing.T) {
	t.Parallel()
	srv := replyModel(t, `{"action": "noop", "belief": {"inventory": {"wood": 9}}, "expect": {"inventory": {"wood": 1}}}`, 0)
	dir := t.TempDir()
	o := Options{Suite: "default", Agent: "openai", Out: filepath.Join(dir, "run"), Traces: "all",
		Families: []string{task.FamilyObtain}, Tiers: []string{"easy"},
		Config: Config{Certify: true, Workers: 1, External: agent.External{Model: "fake", BaseURL: srv.URL}}}
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	scored := 0
	for _, r := range rs {
		if r.StateConsistency.OK && r.StateConsistency.Value < 1 || r.WorldModelAccuracy.OK && r.WorldModelAccuracy.Value < 1 {
			scored++
		}
	}
	require.Positive(t, scored, "the honest run scores the wrong beliefs below 100 %%")
	editLines(t, o.Out, func(_ int, m map[string]any) bool {
		for _, k := range []string{"state_consistency", "world_model_accuracy"} {
			if _, ok := m[k].(map[string]any); ok || m[k] != nil {
				m[k] = 1
			}
		}
		return true
	})
	def, err := results.ReadDefinition(o.Out)
	require.NoError(t, err)
	forged, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	traced := map[string]bool{}
	raised := 0
	for _, r := range forged {
		traced[r.ID] = true
		if r.StateConsistency.OK && r.StateConsistency.Value == 1 && r.WorldModelAccuracy.OK && r.WorldModelAccuracy.Value == 1 {
			raised++
		}
	}
	require.GreaterOrEqual(t, raised, scored, "the forged lines read back at 100 %%")
	require.NoError(t, results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), summarize(def, forged, traced)))

	v, err := Verify(o.Out)
	require.NoError(t, err)
	require.False(t, v.OK(), "verify accepts %d lines whose probe scores were raised to 100 %% (their traces hold every reply scored)", scored)
}
