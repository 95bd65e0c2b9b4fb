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
	view, fb := condition(r)
	b := budget(r)
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Family == r.Spec.Family && g.Tier == r.Spec.Tier && g.Observability == view && g.Feedback == fb && g.Budget == b {
			return g
		}
	}
	// Played episodes record the condition the task resolved; a planned
	// spec may leave it to its tier or scenario: the family, tier and
	// budget then tell its group.
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Family == r.Spec.Family && g.Tier == r.Spec.Tier && g.Budget == b && g.Episodes > 0 {
			return g
		}
	}
	g := group(r.Spec.Family, r.Spec.Tier, nil)
	g.Observability, g.Feedback, g.Budget = view, fb, b
	if sc := r.Spec.Scenario; sc != nil {
		g.Scenario = sc.Name
	}
	s.Groups = append(s.Groups, g)
	return &s.Groups[len(s.Groups)-1]
}

// groupLess is Summarize's order of groups: family, tier, view (partial
// first), feedback, budget.
func groupLess(a, b Group) bool {
	switch {
	case a.Family != b.Family:
		return LabelLess(a.Family, b.Family)
	case a.Tier != b.Tier:
		return task.TierRank(a.Tier) < task.TierRank(b.Tier)
	case a.Observability != b.Observability:
		return a.Observability > b.Observability
	case a.Feedback != b.Feedback:
		return feedbackRank(a.Feedback) < feedbackRank(b.Feedback)
	}
	return a.Budget < b.Budget
}

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
