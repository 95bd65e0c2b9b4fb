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
	replyStats(res, s.ReplyStats)
	// Cost is what the server's reported usage says: without usage (an exec
	// agent, a server that omits it) it is not measured, never $0.
	if (priceIn > 0 || priceOut > 0) && s.PromptTokens+s.CompletionTokens > 0 {
		res.Cost = episode.Measured((float64(s.PromptTokens)*priceIn + float64(s.CompletionTokens)*priceOut) / 1e6)
	}
}

// replyStats copies what an episode's played replies show into a result:
// its invalid outputs and probe figures, as the runner scored them in
// play and verify scores them again from the trace (player.Rescore).
func replyStats(res *results.Result, s player.ReplyStats) {
	res.InvalidOutputs = s.Invalid
	res.StateConsistency, res.WorldModelAccuracy = episode.Measure{}, episode.Measure{}
	res.BeliefsScored, res.PredictionsScored = s.BeliefChecks, s.ExpectChecks
	if s.BeliefChecks > 0 {
		res.StateConsistency = episode.Measured(float64(s.BeliefCorrect) / float64(s.BeliefChecks))
	}
	if s.ExpectChecks > 0 {
		res.WorldModelAccuracy = episode.Measured(float64(s.ExpectCorrect) / float64(s.ExpectChecks))
	}
	b, e := s.Beliefs, s.Predictions
	res.BeliefClaims, res.BeliefClaimsRight, res.BeliefPersistence, res.BeliefBaseRate, res.BeliefBaseline = b.Claims, b.Right, b.Persistence, b.BaseRate, b.Baseline
	res.BeliefCopies, res.StateSkill = s.BeliefCopies, episode.ProbeSkill(b.Right, b.Baseline, b.Claims)
	res.PredictionClaims, res.PredictionClaimsRight, res.PredictionPersistence, res.PredictionBaseRate, res.PredictionBaseline = e.Claims, e.Right, e.Persistence, e.BaseRate, e.Baseline
	res.WorldModelSkill = episode.ProbeSkill(e.Right, e.Baseline, e.Claims)
}
