// Package player connects external players — LLM and VLM agents over an
// OpenAI-compatible API, programs in any language over stdio (exec) or
// HTTP — to Longcraft episodes through one observation/action protocol.
// The evaluator validates every action; a player never touches the state.
package player

import (
	"context"

	"github.com/longcraft/longcraft/bench/protocol"
)

// Usage is what one call to a player cost.
type Usage struct {
	Calls            int
	PromptTokens     int
	CompletionTokens int
	LatencyMs        int
	Retries          int
}

// Add accumulates u2 into u.
func (u *Usage) Add(u2 Usage) {
	u.Calls += u2.Calls
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.LatencyMs += u2.LatencyMs
	u.Retries += u2.Retries
}

// Player is one transport's connection to an external player. Reset
// starts an episode with the task statement alone: nothing that
// identifies the world (its seed regenerates the map, which would defeat
// partial observability). Act returns the player's raw reply to an
// observation. Errors end the episode (agent_error); a reply that does
// not parse is not an error: the evaluator counts it and plays noop.
type Player interface {
	Reset(ctx context.Context, task string) error
	Act(ctx context.Context, obs *protocol.Observation) (raw string, u Usage, err error)
	Close() error
}
