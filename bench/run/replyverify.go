package run

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
)

// deriveReplies is r's AgentStats with what its played replies show as
// the trace ep of task t (rebuilt by the replay) says: invalid outputs
// and every probe figure, scored again by player.Rescore, the scoring the
// runner played with (replyStats copies both into a line). The
// transport's figures (calls, tokens, latency, retries, cost) stay the
// line's word. So do the replies' figures of an episode whose trace left
// notes out (over its bound on an episode's notes: the replies are not
// all there), and the invalid outputs at the skill level, whose replies
// the trace keeps only per step, not per decision; the skill level makes
// no probe claims, so its probe figures are re-derived (as none).
// A built-in agent's trace has no notes: its line must claim none.
func deriveReplies(r *results.Result, ep *trace.Episode, t *task.Task) (results.AgentStats, []string) {
	if (r.BeliefsScored > 0 && r.BeliefClaims == 0) || (r.PredictionsScored > 0 && r.PredictionClaims == 0) {
		// Every scored belief or prediction makes a claim: a line with
		// scores and no claims predates the claim-by-claim probes, and
		// was scored by other rules (inventory beliefs, then scored, are
		// copies now).
		return r.AgentStats, []string{fmt.Sprintf("beliefs_scored %d and predictions_scored %d with belief_claims %d and prediction_claims %d: "+
			"its probes were scored by an older Longcraft, before beliefs and predictions were scored claim by claim against baselines; "+
			"this version cannot re-derive them from the trace, score the run again", r.BeliefsScored, r.PredictionsScored, r.BeliefClaims, r.PredictionClaims)}
	}
	var s player.ReplyStats
	skills := t.Actions == task.ActionsSkills
	if !skills {
		var complete bool
		var err error
		if s, complete, err = player.Rescore(t, ep); err != nil {
			return r.AgentStats, []string{"its recorded replies do not fit its steps: " + err.Error()}
		}
		if !complete {
			return r.AgentStats, nil
		}
	}
	var d results.Result
	replyStats(&d, s)
	if skills {
		d.InvalidOutputs = r.InvalidOutputs
	}
	traced := d.AgentStats
	// The transport's word.
	traced.ModelCalls, traced.Tokens, traced.PromptTokens, traced.CompletionTokens = r.ModelCalls, r.Tokens, r.PromptTokens, r.CompletionTokens
	traced.LatencyMs, traced.Retries, traced.Cost = r.LatencyMs, r.Retries, r.Cost
	var diffs []string
	line, derived := fieldsOf(r.AgentStats), fieldsOf(traced)
	for _, k := range slices.Sorted(maps.Keys(derived)) {
		if !reflect.DeepEqual(line[k], derived[k]) {
			diffs = append(diffs, fmt.Sprintf("%s %s in %s, %s by its trace's replies", k, show(line[k]), results.ResultsFile, show(derived[k])))
		}
	}
	return traced, diffs
}
