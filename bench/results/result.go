// Package results owns what a scoring run leaves behind, as data: one
// Result per episode (a line of results.jsonl), the files of a run
// directory and how they are read and written, the metrics declared once
// (Metrics: name, definition, unit, aggregation, when not measured), the
// Summary that aggregates them by family, tier and condition, the terminal
// table and docs/metrics.md. The runner writes results, the report reads
// them; both derive every figure from these declarations.
//
// It sits on bench/episode (the per-episode metrics), bench/task,
// bench/score, internal/buildinfo (each line's build) and internal/json64
// (seeds as JSON strings): it must not import the runner, the agents, the report or
// any host, and it plays nothing.
package results

import (
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
)

// Result is the outcome of one episode: one line of results.jsonl.
type Result struct {
	Index int       `json:"index"` // position in the expanded suite
	ID    string    `json:"id"`
	Spec  task.Spec `json:"spec"`
	Agent string    `json:"agent"`
	Model string    `json:"model,omitempty"` // an external player's model (run.json and summary.json hold its other settings)
	// Prompt names the prompt a model played with: its version and the
	// hash of its template (bench/player.PromptID); "" for agents that
	// write their own.
	Prompt string `json:"prompt,omitempty"`
	Seed   uint64 `json:"seed,string"` // a string: float64 JSON readers round 64-bit seeds (UnmarshalJSON also reads a number)
	Goal   string `json:"goal"`
	Lock   string `json:"lock,omitempty"` // hash of the suite lock the task came from
	// SaltCommitment names the salt the world seed was derived from
	// (held-out seeds, bench/task/salt.go); "": public seeds.
	SaltCommitment string `json:"salt_commitment,omitempty"`
	// The conditions the agent played under (the spec's or its tier's):
	// summaries group by them, so no group pools different conditions.
	Observability string `json:"observability"`
	Feedback      string `json:"feedback"`
	Ruleset       string `json:"ruleset"`
	episode.Metrics
	AgentStats
	AgentError   string `json:"agent_error,omitempty"` // why an external agent ended the episode
	Certified    bool   `json:"certified"`
	PlannerSteps int    `json:"planner_steps"`
	Attempts     int    `json:"attempts"`
	Err          string `json:"error,omitempty"`
	// Build is the code that played the episode (the trace header's
	// record of it); zero in lines written before Longcraft recorded it.
	// A resumed run's lines may name several builds.
	Build buildinfo.Build `json:"build,omitzero"`
}

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
	Cost               episode.Measure `json:"cost_usd"`             // tokens at the run's prices; not measured without prices

	// The probes claim by claim (docs/metrics.md, state_skill and
	// world_model_skill): the fields claimed, those that held, those each
	// baseline got right on the same claims and the stronger of the two
	// field by field, and the skill over it; belief_copies counts the
	// belief claims left unscored because the observation stated them.
	BeliefClaims          int             `json:"belief_claims"`
	BeliefClaimsRight     int             `json:"belief_claims_right"`
	BeliefPersistence     int             `json:"belief_persistence_right"`
	BeliefBaseRate        int             `json:"belief_base_rate_right"`
	BeliefBaseline        int             `json:"belief_baseline_right"`
	BeliefCopies          int             `json:"belief_copies"`
	StateSkill            episode.Measure `json:"state_skill"`
	PredictionClaims      int             `json:"prediction_claims"`
	PredictionClaimsRight int             `json:"prediction_claims_right"`
	PredictionPersistence int             `json:"prediction_persistence_right"`
	PredictionBaseRate    int             `json:"prediction_base_rate_right"`
	PredictionBaseline    int             `json:"prediction_baseline_right"`
	WorldModelSkill       episode.Measure `json:"world_model_skill"`
}
