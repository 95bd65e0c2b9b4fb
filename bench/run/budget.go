package run

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	Tokens            int     `json:"tokens"`
	Cost              float64 `json:"cost_usd"`
	maxTokens         int
	maxCost           float64
	priceIn, priceOut float64
	path              string // where the spend is kept across invocations ("": nowhere)
}

// SpendFile is the run directory's record of what the run's budgets
// have paid for so far, abandoned episodes included.
const SpendFile = "spend.json"

// newSpend returns the run's spend: what the run directory's spend file
// says was paid for, or, without one, what the recorded results cost. The
// file counts the calls of episodes that left no result (cut by Ctrl-C or
// by the run's budget), which the results cannot.
func newSpend(cfg Config, have []results.Result, dir string) *spend {
	s := &spend{maxTokens: cfg.MaxRunTokens, maxCost: cfg.MaxRunCost, priceIn: cfg.PriceIn, priceOut: cfg.PriceOut}
	for _, r := range have {
		s.Tokens += r.Tokens
		if r.Cost.OK {
			s.Cost += r.Cost.Value
		}
	}
	if dir != "" && (s.maxTokens > 0 || s.maxCost > 0) {
		s.path = filepath.Join(dir, SpendFile)
		var kept spend
		if data, err := os.ReadFile(s.path); err == nil && json.Unmarshal(data, &kept) == nil {
			s.Tokens, s.Cost = max(s.Tokens, kept.Tokens), max(s.Cost, kept.Cost)
		}
	}
	return s
}

// add counts one call's tokens and returns the end its budget calls for
// ("" while there is budget left). With a spend file, the new total is
// written at once (a crash loses at most the call being made).
func (s *spend) add(prompt, completion int) task.End {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Tokens += prompt + completion
	s.Cost += (float64(prompt)*s.priceIn + float64(completion)*s.priceOut) / 1e6
	if s.path != "" {
		if data, err := json.Marshal(s); err == nil {
			tmp := s.path + ".tmp"
			if os.WriteFile(tmp, data, 0o644) == nil {
				_ = os.Rename(tmp, s.path)
			}
		}
	}
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
	case s.maxTokens > 0 && s.Tokens >= s.maxTokens:
		return task.EndBudgetTokens
	case s.maxCost > 0 && s.Cost >= s.maxCost:
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

// charged is what a charge found.
type charged struct {
	episode task.End // the episode's own budget is reached: it ends so, a result
	run     bool     // the run's budget is reached: the episode is abandoned, no result
	noUsage bool     // a call reported no tokens while a budget is set: it cannot be kept
}

// charge counts the calls since the last charge against the budgets.
func (m *meter) charge() charged {
	var c charged
	if m.c == nil {
		return c
	}
	now := m.c.Stats()
	prompt, completion := now.PromptTokens-m.last.PromptTokens, now.CompletionTokens-m.last.CompletionTokens
	calls := now.Calls - m.last.Calls
	m.last = now
	runBudget := m.run != nil && (m.run.maxTokens > 0 || m.run.maxCost > 0)
	if calls > 0 && prompt+completion == 0 && (runBudget || m.maxTokens > 0) {
		c.noUsage = true
		return c
	}
	if runBudget {
		c.run = m.run.add(prompt, completion) != ""
	}
	if m.maxTokens > 0 && now.PromptTokens+now.CompletionTokens >= m.maxTokens {
		c.episode = task.EndBudgetTokens
	}
	return c
}

// errNoUsage is why an episode ends when its server reports no usage.
const errNoUsage = "the server reported no token usage for a call: the --max-episode-tokens, --max-run-tokens and --max-run-cost budgets cannot be kept without it"
