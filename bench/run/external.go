package run

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/render"
)

// External configures external players: "openai" (any OpenAI-compatible
// server) and "exec:CMD" (a program speaking JSON lines on stdio).
type External struct {
	Model       string
	BaseURL     string
	Temperature float64
	MaxTokens   int
	History     int
	CallTimeout time.Duration
	Retries     int
	StepTimeout time.Duration // exec: per message
	ImageSize   int           // PNG observations of this size (0: text only)
	Symbolic    bool
	NoNotice    bool // do not tell the player its reply was invalid
}

// isExternal reports whether an agent name is an external player.
func isExternal(name string) bool { return name == "openai" || strings.HasPrefix(name, "exec:") }

// newPlayer connects the external player of agent name; each worker
// keeps one (an exec process is reused across its episodes).
func newPlayer(name string, x External, worker int) (player.Player, error) {
	if name == "openai" {
		return player.NewOpenAI(player.OpenAIOptions{BaseURL: x.BaseURL, Model: x.Model, APIKey: os.Getenv("OPENAI_API_KEY"),
			Temperature: x.Temperature, MaxTokens: x.MaxTokens, History: x.History, Timeout: x.CallTimeout,
			Retries: x.Retries, Seed: uint64(worker)})
	}
	argv, err := player.SplitCommand(strings.TrimPrefix(name, "exec:"))
	if err != nil {
		return nil, err
	}
	return player.NewExec(player.ExecOptions{Command: argv, Timeout: x.StepTimeout})
}

// externalAgent wraps a worker's player for one task.
func (p *worker) externalAgent(t *task.Task) (*player.Agent, error) {
	if p.ext == nil {
		pl, err := newPlayer(p.cfg.Agent, p.cfg.External, p.index)
		if err != nil {
			return nil, err
		}
		p.ext = pl
	}
	var atlas *render.Atlas
	if p.cfg.External.ImageSize > 0 {
		if p.atlas == nil {
			a, err := render.LoadAtlas()
			if err != nil {
				return nil, err
			}
			p.atlas = a
		}
		atlas = p.atlas
	}
	return player.NewAgent(context.Background(), p.ext, t, player.AgentOptions{
		ImageSize: p.cfg.External.ImageSize, Symbolic: p.cfg.External.Symbolic, InvalidNotice: !p.cfg.External.NoNotice}, atlas)
}

// externalStats copies an external agent's accounting into a result.
// AgentStats are an external player's cost and probe scores (zero, and
// the probes -1, for built-in agents).
type AgentStats struct {
	InvalidOutputs     int     `json:"invalid_outputs"`      // external agents: replies played as noop
	ModelCalls         int     `json:"model_calls"`          // external agents
	Tokens             int     `json:"tokens"`               // external agents: prompt + completion
	PromptTokens       int     `json:"prompt_tokens"`        //
	CompletionTokens   int     `json:"completion_tokens"`    //
	LatencyMs          int     `json:"latency_ms"`           // external agents: total
	Retries            int     `json:"retries"`              // external agents: calls retried
	StateConsistency   float64 `json:"state_consistency"`    // beliefs that matched the state; -1: none scored
	WorldModelAccuracy float64 `json:"world_model_accuracy"` // predictions that came true; -1: none scored
	BeliefsScored      int     `json:"beliefs_scored"`       // the beliefs state_consistency rests on
	PredictionsScored  int     `json:"predictions_scored"`   // the predictions world_model_accuracy rests on
}

// notProbed is the stats of an agent that states no beliefs.
func notProbed() AgentStats { return AgentStats{StateConsistency: -1, WorldModelAccuracy: -1} }

func externalStats(res *Result, s player.Stats) {
	res.ModelCalls, res.Tokens, res.LatencyMs = s.Calls, s.PromptTokens+s.CompletionTokens, s.LatencyMs
	res.PromptTokens, res.CompletionTokens, res.Retries = s.PromptTokens, s.CompletionTokens, s.Retries
	res.InvalidOutputs = s.Invalid
	res.StateConsistency, res.WorldModelAccuracy = -1, -1
	res.BeliefsScored, res.PredictionsScored = s.BeliefChecks, s.ExpectChecks
	if s.BeliefChecks > 0 {
		res.StateConsistency = float64(s.BeliefCorrect) / float64(s.BeliefChecks)
	}
	if s.ExpectChecks > 0 {
		res.WorldModelAccuracy = float64(s.ExpectCorrect) / float64(s.ExpectChecks)
	}
}
