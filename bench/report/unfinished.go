package report

import (
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
)

// allTiers is the scope of a comparison over every tier.
const allTiers = "all tiers"

// missingByScope is a run's planned episodes without a result, by group
// (results.GroupKey.Label) and over all of them (allTiers). A partial
// run's summary written before groups counted them says only how many:
// every scope then gets that many, since any could hold them.
func missingByScope(s results.Summary) map[string]int {
	m := map[string]int{}
	for _, g := range s.Groups {
		m[g.Key().Label()] += g.Missing
		m[allTiers] += g.Missing
	}
	if _, missing := s.Unfinished(); missing > 0 && m[allTiers] == 0 {
		for _, g := range s.Groups {
			m[g.Key().Label()] = missing
		}
		m[allTiers] = missing
	}
	return m
}

// missingIn is what missingByScope counted in a scope (nil: all
// episodes). A planned group of no result has no ruleset (the world
// would have resolved it), so it counts under its key with any ruleset.
func missingIn(m map[string]int, scope *results.GroupKey) int {
	if scope == nil {
		return m[allTiers]
	}
	n := m[scope.Label()]
	if scope.Ruleset != "" {
		k := *scope
		k.Ruleset = ""
		n += m[k.Label()]
	}
	return n
}

// unfinishedRun is what a run lacks in a comparison's scope.
type unfinishedRun struct {
	label                string
	agentErrors, missing int
}

// refusal says why no difference is stated between two runs in a scope
// where either has agent errors or missing episodes ("" when neither
// has): an agent's failures and unplayed episodes are not its play, so a
// difference would measure them.
func refusal(scope string, runs ...unfinishedRun) string {
	var why []string
	for _, r := range runs {
		var parts []string
		if r.agentErrors > 0 {
			parts = append(parts, count(r.agentErrors, "agent error"))
		}
		if r.missing > 0 {
			parts = append(parts, count(r.missing, "missing episode"))
		}
		if len(parts) > 0 {
			why = append(why, r.label+" has "+strings.Join(parts, " and "))
		}
	}
	if len(why) == 0 {
		return ""
	}
	return strings.Join(why, "; ") + " on " + scope
}

// agentErrorsIn counts the results in scope that ended agent_error.
func agentErrorsIn(rs []results.Result, in func(*results.Result) bool) int {
	n := 0
	for i := range rs {
		if in(&rs[i]) && rs[i].End == string(task.EndAgentError) {
			n++
		}
	}
	return n
}

// refuse turns p into a comparison that states no difference, saying why.
func refuse(p *Paired, why string) {
	p.Refused = why
	p.Diff, p.Lo, p.Hi, p.P, p.Metrics = 0, 0, 0, 0, nil
	p.Sentence = fmt.Sprintf("%s vs %s on %s: no difference stated: %s (an episode the agent failed or did not play is not its play; fix the agent and play them again)",
		p.A, p.B, p.Scope, why)
}

// count says "1 agent error", "3 agent errors".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
