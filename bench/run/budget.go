package run

import (
	"sync"

	"github.com/longcraft/longcraft/bench/agent/remote"
	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// spend is what the run's external agents have cost so far, against the
// run's budgets (--max-run-tokens, --max-run-cost). Every worker adds
// each call's tokens; once a budget is reached, the episodes in play end
// (budget_tokens, budget_cost) and no other starts. A resumed run starts
// from what its recorded results cost.
type spend struct {
	mu                sync.Mutex
	tokens            int
	cost              float64
	maxTokens         int
	maxCost           float64
	priceIn, priceOut float64
}

// newSpend returns the run's spend, counting the results already recorded.
func newSpend(cfg Config, have []results.Result) *spend {
	s := &spend{maxTokens: cfg.MaxRunTokens, maxCost: cfg.MaxRunCost, priceIn: cfg.PriceIn, priceOut: cfg.PriceOut}
	for _, r := range have {
		s.tokens += r.Tokens
		if r.Cost.OK {
			s.cost += r.Cost.Value
		}
	}
	return s
}

// add counts one call's tokens and returns the end its budget calls for
// ("" while there is budget left).
func (s *spend) add(prompt, completion int) task.End {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens += prompt + completion
	s.cost += (float64(prompt)*s.priceIn + float64(completion)*s.priceOut) / 1e6
	return s.endLocked()
}

// spent returns the end a reached budget calls for, or "".
func (s *spend) spent() task.End {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.endLocked()
}

func (s *spend) endLocked() task.End {
	switch {
	case s.maxTokens > 0 && s.tokens >= s.maxTokens:
		return task.EndBudgetTokens
	case s.maxCost > 0 && s.cost >= s.maxCost:
		return task.EndBudgetCost
	}
	return ""
}

// meter follows one episode's agent's cost call by call, charging the
// run's spend, and says when a budget ends the episode.
type meter struct {
	c         remote.Coster // nil: an agent that costs nothing
	last      player.Stats
	maxTokens int // --max-episode-tokens
	run       *spend
}

func (p *worker) meter(ag any) meter {
	c, _ := ag.(remote.Coster)
	return meter{c: c, maxTokens: p.cfg.MaxEpisodeTokens, run: p.cfg.spend}
}

// charge counts the calls since the last charge and returns the end a
// budget calls for, or "".
func (m *meter) charge() task.End {
	if m.c == nil {
		return ""
	}
	now := m.c.Stats()
	prompt, completion := now.PromptTokens-m.last.PromptTokens, now.CompletionTokens-m.last.CompletionTokens
	m.last = now
	end := task.End("")
	if m.run != nil && (m.run.maxTokens > 0 || m.run.maxCost > 0) {
		end = m.run.add(prompt, completion)
	}
	if end == "" && m.maxTokens > 0 && now.PromptTokens+now.CompletionTokens >= m.maxTokens {
		end = task.EndBudgetTokens
	}
	return end
}
