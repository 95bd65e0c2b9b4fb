package run

import (
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/results"
)

// externalStats copies an external agent's accounting into a result.
func externalStats(res *results.Result, s player.Stats, priceIn, priceOut float64) {
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
	// Cost is what the server's reported usage says: without usage (an exec
	// agent, a server that omits it) it is not measured, never $0.
	if (priceIn > 0 || priceOut > 0) && s.PromptTokens+s.CompletionTokens > 0 {
		res.Cost = episode.Measured((float64(s.PromptTokens)*priceIn + float64(s.CompletionTokens)*priceOut) / 1e6)
	}
}
