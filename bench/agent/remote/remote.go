// Package remote connects the agents that talk to another process: a
// model behind an OpenAI-compatible API (openai) and a program speaking
// JSON lines on stdio (exec:CMD), through bench/player's transports. The
// registry (bench/agent) lists them; a host that can run them passes
// Connector as agent.Options.Remote. It is apart so that the browser's
// build, which cannot, carries no HTTP client or process launcher.
package remote

import (
	"context"
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/sandbox"
	"github.com/longcraft/longcraft/render"
)

// Coster is an agent with a cost and probe scores (external players).
type Coster interface{ Stats() player.Stats }

// Connector makes openai and exec:CMD agents.
type Connector struct{}

// Check reports whether name's settings can make an agent: for an exec
// agent, that its command parses, its environment is there, and, unless
// NoSandbox, that its sandbox can be set up here (one is set up and torn
// down).
func (Connector) Check(name string, o agent.Options) error {
	if strings.HasPrefix(name, "exec:") {
		if _, err := player.SplitCommand(strings.TrimPrefix(name, "exec:")); err != nil {
			return fmt.Errorf("agent %s: %w", name, err)
		}
		if _, err := player.NewExec(player.ExecOptions{Command: []string{name}, Env: o.External.Env}); err != nil {
			return fmt.Errorf("agent %s: %w", name, err)
		}
		if !o.External.NoSandbox {
			if err := sandbox.Check(); err != nil {
				return fmt.Errorf("agent %s: %w", name, err)
			}
		}
	}
	return nil
}

// Open prepares name's agents; the connection is made on the first task.
func (Connector) Open(name string, o agent.Options) (agent.Maker, error) {
	return &externalMaker{name: name, o: o}, nil
}

// externalMaker connects a worker's external player on first use and
// wraps it for each task.
type externalMaker struct {
	name  string
	o     agent.Options
	p     player.Player
	atlas *render.Atlas
}

func (m *externalMaker) Make(t *task.Task) (agent.Agent, error) {
	return m.MakeIn(context.Background(), t)
}

// MakeIn makes the agent of t, whose calls use ctx (the episode's).
func (m *externalMaker) MakeIn(ctx context.Context, t *task.Task) (agent.Agent, error) {
	if m.p == nil {
		p, err := newPlayer(m.name, m.o.External, m.o.Worker)
		if err != nil {
			return nil, err
		}
		m.p = p
	}
	x := m.o.External
	if x.ImageSize > 0 && m.atlas == nil {
		a, err := render.LoadAtlas()
		if err != nil {
			return nil, err
		}
		m.atlas = a
	}
	return player.NewAgent(ctx, m.p, t, player.AgentOptions{ImageSize: x.ImageSize, Symbolic: x.Symbolic, InvalidNotice: !x.NoNotice, Notes: x.Notes}, m.atlas)
}

// MakeDecider makes the same external player for a skill-level task: it
// is offered skills and answers commands (player.Agent.Decide).
func (m *externalMaker) MakeDecider(t *task.Task) (agent.Decider, error) {
	return m.MakeDeciderIn(context.Background(), t)
}

// MakeDeciderIn is MakeDecider with the episode's context.
func (m *externalMaker) MakeDeciderIn(ctx context.Context, t *task.Task) (agent.Decider, error) {
	a, err := m.MakeIn(ctx, t)
	if err != nil {
		return nil, err
	}
	return a.(*player.Agent), nil
}

func (m *externalMaker) Close() error {
	if m.p == nil {
		return nil
	}
	err := m.p.Close()
	m.p = nil
	return err
}
