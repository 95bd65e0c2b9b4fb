package run

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/longcraft/longcraft/bench/results"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/task"
)

// replyModel is an OpenAI-compatible server that answers every call with
// content, after delay.
func replyModel(t *testing.T, content string, delay time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// playOne plays spec with an OpenAI player answering content.
func playOne(t *testing.T, spec task.Spec, content string, cfg Config) results.Result {
	srv := replyModel(t, content, 0)
	cfg.Agent, cfg.Workers = "openai", 1
	cfg.External.Model, cfg.External.BaseURL = "fake", srv.URL
	var res results.Result
	require.NoError(t, Suite(context.Background(), []task.Spec{spec}, []int{0}, cfg, func(d Done) error {
		res = d.Result
		return nil
	}))
	return res
}

// TestProbesCannotBeGamed: saying nothing scores nothing, the last
// prediction counts, a position the player cannot know or reads in its
// observation is not scored, and a constant claim has no skill.
func TestProbesCannotBeGamed(t *testing.T) {
	partial := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 3, Budget: 20}
	full := partial
	full.Observability = task.Full

	// v1 scored an empty belief and an empty prediction 100%.
	r := playOne(t, partial, `{"action": "noop", "belief": {}, "expect": {}}`, Config{})
	assert.False(t, r.StateConsistency.OK, "an empty belief is not a correct one")
	assert.False(t, r.WorldModelAccuracy.OK, "an empty prediction is not a correct one")
	assert.Zero(t, r.BeliefsScored+r.PredictionsScored)

	// Coordinates (here the start's, right while the player stands
	// still) are never scored: under partial observability the player has
	// no frame for them, under full observability the text states them,
	// so the belief is a copy (v2 scored it 100%). The inventory is
	// stated in every observation: a copy too.
	pos := `{"action": "noop", "belief": {"x": 24, "y": 24, "inventory": {"wood": 0}}}`
	assert.False(t, playOne(t, partial, pos, Config{}).StateConsistency.OK)
	r = playOne(t, full, pos, Config{})
	assert.False(t, r.StateConsistency.OK, "a copy of the observation is not scored")
	assert.False(t, r.StateSkill.OK)
	assert.Equal(t, 20*3, r.BeliefCopies)
	// Where it is relative to its start, under partial observability,
	// is scored: standing still, "where I started" is right every time,
	// and so is the base rate, so it shows no skill.
	r = playOne(t, partial, `{"action": "noop", "belief": {"from_start": {"x": 0, "y": 0}}}`, Config{})
	assert.Equal(t, episode.Measured(1), r.StateConsistency)
	assert.Equal(t, episode.Measured(0), r.StateSkill, "a constant claim has no skill")
	assert.Equal(t, 20, r.BeliefClaims)

	// Always predicting "moved" while doing noop is always wrong, and
	// the last of the 20 predictions is scored too (v1 scored 19).
	r = playOne(t, partial, `{"action": "noop", "expect": {"outcome": "moved"}}`, Config{})
	assert.Equal(t, episode.Measured(0), r.WorldModelAccuracy)
	assert.Equal(t, episode.Measured(-1), r.WorldModelSkill, "every claim wrong where the baselines hit")
	assert.Equal(t, 20, r.PredictionsScored)
	// Predicting that nothing changes while nothing does is right, and
	// has no skill: the baselines say the same.
	r = playOne(t, partial, `{"action": "noop", "expect": {"outcome": "nothing", "inventory": {"diamond": 0}}}`, Config{})
	assert.Equal(t, episode.Measured(1), r.WorldModelAccuracy)
	assert.Equal(t, episode.Measured(0), r.WorldModelSkill)
	assert.Equal(t, [4]int{40, 40, 40, 40}, [4]int{r.PredictionClaims, r.PredictionClaimsRight, r.PredictionPersistence, r.PredictionBaseRate})
	one := partial
	one.Budget = 1
	r = playOne(t, one, `{"action": "noop", "expect": {"outcome": "nothing"}}`, Config{})
	assert.Equal(t, episode.Measured(1), r.WorldModelAccuracy, "a one-step episode's only prediction is scored")
}

// TestTimeoutIsCheckedEveryStep: with a player that takes 60 ms a step,
// a 250 ms timeout ends the episode after a handful of steps (v1 checked
// every 64 steps).
func TestTimeoutIsCheckedEveryStep(t *testing.T) {
	srv := replyModel(t, `{"action": "noop"}`, 60*time.Millisecond)
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 3, Budget: 200}
	cfg := Config{Agent: "openai", Workers: 1, Timeout: 250 * time.Millisecond,
		External: agent.External{Model: "fake", BaseURL: srv.URL}}
	var res results.Result
	start := time.Now()
	require.NoError(t, Suite(context.Background(), []task.Spec{spec}, []int{0}, cfg, func(d Done) error {
		res = d.Result
		return nil
	}))
	assert.Equal(t, "timeout", res.End)
	assert.Less(t, res.Steps, 10)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// TestConditionsAreNotPooled: the same family and tier under two
// conditions are two groups; results written before the conditions were
// recorded take them from the spec or the tier.
func TestConditionsAreNotPooled(t *testing.T) {
	rs := []results.Result{
		{Index: 0, Spec: task.Spec{Family: "obtain", Tier: "hard"}, Metrics: episode.Metrics{Success: true}},                                                        // old: the tier's
		{Index: 1, Spec: task.Spec{Family: "obtain", Tier: "hard"}, Observability: "partial", Feedback: "reason"},                                                   // the same condition
		{Index: 2, Spec: task.Spec{Family: "obtain", Tier: "hard", Observability: task.Full, Feedback: task.FeedbackFull}, Metrics: episode.Metrics{Success: true}}, // old, diagnostic
		{Index: 3, Spec: task.Spec{Family: "obtain", Tier: "hard"}, Observability: "full", Feedback: "full", Metrics: episode.Metrics{Success: true}},
	}
	s := results.Summarize("t", "a", rs)
	require.Len(t, s.Groups, 2)
	assert.Equal(t, [4]any{"partial", "reason", 2, 1}, [4]any{s.Groups[0].Observability, s.Groups[0].Feedback, s.Groups[0].Episodes, s.Groups[0].Successes})
	assert.Equal(t, [4]any{"full", "full", 2, 2}, [4]any{s.Groups[1].Observability, s.Groups[1].Feedback, s.Groups[1].Episodes, s.Groups[1].Successes})
	assert.Equal(t, 4, s.Overall.Episodes)
}
