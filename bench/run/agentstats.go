package run

import (
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/player"
)

// externalStats copies an external agent's accounting into a result.
// AgentStats are an external player's cost and probe scores (zero, and
// the probes not measured, for built-in agents).
type AgentStats struct {
	InvalidOutputs     int             `json:"invalid_outputs"`      // external agents: replies played as noop
	ModelCalls         int             `json:"model_calls"`          // external agents
	Tokens             int             `json:"tokens"`               // external agents: prompt + completion
	PromptTokens       int             `json:"prompt_tokens"`        //
	CompletionTokens   int             `json:"completion_tokens"`    //
	LatencyMs          int             `json:"latency_ms"`           // external agents: total
	Retries            int             `json:"retries"`              // external agents: calls retried
	StateConsistency   episode.Measure `json:"state_consistency"`    // beliefs that matched the state; not measured when none was scored
	WorldModelAccuracy episode.Measure `json:"world_model_accuracy"` // predictions that came true; not measured when none was scored
	BeliefsScored      int             `json:"beliefs_scored"`       // the beliefs state_consistency rests on
	PredictionsScored  int             `json:"predictions_scored"`   // the predictions world_model_accuracy rests on
}

func externalStats(res *Result, s player.Stats) {
	res.ModelCalls, res.Tokens, res.LatencyMs = s.Calls, s.PromptTokens+s.CompletionTokens, s.LatencyMs
	res.PromptTokens, res.CompletionTokens, res.Retries = s.PromptTokens, s.CompletionTokens, s.Retries
	res.InvalidOutputs = s.Invalid
	res.BeliefsScored, res.PredictionsScored = s.BeliefChecks, s.ExpectChecks
	if s.BeliefChecks > 0 {
		res.StateConsistency = episode.Measured(float64(s.BeliefCorrect) / float64(s.BeliefChecks))
	}
	if s.ExpectChecks > 0 {
		res.WorldModelAccuracy = episode.Measured(float64(s.ExpectCorrect) / float64(s.ExpectChecks))
	}
}
