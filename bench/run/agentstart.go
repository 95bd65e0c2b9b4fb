package run

import (
	"fmt"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// AgentStartError stops a run whose agent failed its first episode
// before answering once (a command that does not exist, a model server
// that is not listening): every other episode would fail the same way and
// a table of zeros would look like a score. The failed episode gets no
// result, so once the agent is fixed --resume plays it.
type AgentStartError struct {
	Agent string
	ID    string // the episode
	Cause string // its agent_error
}

func (e *AgentStartError) Error() string {
	return fmt.Sprintf("agent %s could not play: its first episode (%s) failed at its first decision, before the agent played a step: %s; the run stopped, recording no result for it (fix the agent, then --resume)", e.Agent, e.ID, e.Cause)
}

// startWatch tells an agent that cannot start from one that failed
// later: until an episode of this invocation got a reply from the agent,
// an agent_error before the first decision stops the run.
type startWatch struct {
	agent    string
	answered bool
}

// check returns the error that stops the run at result r, or nil.
func (w *startWatch) check(r *results.Result) error {
	if w.answered {
		return nil
	}
	if r.End != string(task.EndAgentError) || r.Decisions > 0 || r.Steps > 0 {
		w.answered = r.Err == "" // a generation error says nothing of the agent
		return nil
	}
	return &AgentStartError{Agent: w.agent, ID: r.ID, Cause: r.AgentError}
}
