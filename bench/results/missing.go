package results

import (
	"sort"

	"github.com/longcraft/longcraft/bench/task"
)

// CountMissing sets each group's (and the overall row's) Missing: the episodes planned (specs at
// suite positions indices) that have no result in have. A planned group
// with no result at all gets a row of its own, with no episodes, so that
// what was not played shows where it would have been.
func CountMissing(s *Summary, planned []task.Spec, indices []int, have []Result) {
	done := make(map[int]bool, len(have))
	for _, r := range have {
		done[r.Index] = true
	}
	for i, sp := range planned {
		if done[indices[i]] {
			continue
		}
		missingGroup(s, Result{Spec: sp}).Missing++
		s.Overall.Missing++
	}
	sort.SliceStable(s.Groups, func(i, j int) bool { return groupLess(s.Groups[i], s.Groups[j]) })
}

// missingGroup returns the group of s that r belongs to, adding it when
// there is none.
func missingGroup(s *Summary, r Result) *Group {
	k := KeyOf(r)
	// A planned spec has no result, so no ruleset the world resolved: any
	// ruleset of its key matches.
	same := func(g *Group) bool { gk := g.Key(); gk.Ruleset = k.Ruleset; return gk == k }
	for i := range s.Groups {
		if g := &s.Groups[i]; same(g) {
			return g
		}
	}
	// Played episodes record the condition the task resolved; a planned
	// spec may leave it to its tier or scenario: the family, tier and
	// budget then tell its group.
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Family == k.Family && g.Tier == k.Tier && g.Budget == k.Budget && g.Episodes > 0 {
			return g
		}
	}
	g := group(k.Family, k.Tier, nil)
	g.Observability, g.Feedback, g.Budget = k.Observability, k.Feedback, k.Budget
	g.Scenario, g.Params = k.Scenario, paramsOf(k)
	s.Groups = append(s.Groups, g)
	return &s.Groups[len(s.Groups)-1]
}

// groupLess is the one order of groups (KeyLess).
func groupLess(a, b Group) bool { return KeyLess(a.Key(), b.Key()) }

// Unfinished is the number of a summary's episodes that are not the
// agent's whole play: agent errors and missing episodes, over its groups.
func (s Summary) Unfinished() (agentErrors, missing int) {
	for _, g := range s.Groups {
		agentErrors += g.AgentErrors
		missing += g.Missing
	}
	if s.Partial && missing == 0 && s.Planned > s.Episodes {
		missing = s.Planned - s.Episodes // a summary written before groups counted them
	}
	return agentErrors, missing
}
