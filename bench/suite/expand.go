package suite

import (
	"fmt"

	"github.com/longcraft/longcraft/bench/task"
)

// Len returns the number of episodes the suite expands to.
func (s *Suite) Len() uint64 {
	var n uint64
	for _, b := range s.Blocks {
		n += uint64(len(b.Families)) * uint64(len(b.Tiers)) * b.Count
	}
	for _, b := range s.Scenarios {
		n += b.Count
	}
	return n
}

// Expand lists the suite's episodes in a fixed order: blocks in file
// order, then family, tier and index as listed; then the scenarios in
// file order, by index. The same file always
// expands to the same specs, whose ids (Spec.ID) hash their content.
func (s *Suite) Expand() []task.Spec {
	specs := make([]task.Spec, 0, s.Len())
	for _, b := range s.Blocks {
		for _, f := range b.Families {
			for _, t := range b.Tiers {
				for i := uint64(0); i < b.Count; i++ {
					specs = append(specs, task.Spec{Family: f, Tier: t, Split: b.Split, Index: b.From + i,
						Budget: b.Budget, Feedback: b.Feedback, Observability: b.Observability})
				}
			}
		}
	}
	for i := range s.Scenarios {
		specs = append(specs, s.Scenarios[i].specs(s.Scenarios[i].Count)...)
	}
	return specs
}

// unique checks that the suite lists every episode once: resume, merge and
// comparisons match episodes by id, so a spec listed twice would make two
// results of one episode.
func (s *Suite) unique() error {
	first := map[string]int{}
	check := func(line int, specs []task.Spec) error {
		for _, sp := range specs {
			id := sp.ID()
			if at, dup := first[id]; dup {
				return fmt.Errorf("%s:%d: episode %s/%s seed %d is also listed at line %d: a suite lists each episode once", s.file, line, sp.Family, sp.Tier, sp.Index, at)
			}
			first[id] = line
		}
		return nil
	}
	for _, b := range s.Blocks {
		if err := check(b.line, (&Suite{Blocks: []Block{b}}).Expand()); err != nil {
			return err
		}
	}
	// Scenario episodes differ from every family's (their tier), and two
	// scenario entries share an episode only when they play the same
	// scenario under the same settings on overlapping seeds: compared
	// entry by entry, since an id hashes the whole scenario (a map and
	// all) and a million of them would take seconds.
	canon := make([]string, len(s.Scenarios))
	for i := range s.Scenarios {
		first := s.Scenarios[i].specs(1)[0]
		first.Index = 0
		canon[i] = first.ID()
	}
	for i := range s.Scenarios {
		a := &s.Scenarios[i]
		for j := range s.Scenarios[:i] {
			b := &s.Scenarios[j]
			if canon[i] == canon[j] && a.From < b.From+b.Count && b.From < a.From+a.Count {
				at := max(a.From, b.From)
				return fmt.Errorf("%s:%d: scenario %s seed %d is also listed at line %d: a suite lists each episode once", s.file, a.line, a.Scenario.Label(), at, b.line)
			}
		}
	}
	return nil
}

// specs lists the first n episodes of a scenarios entry.
func (b *ScenarioBlock) specs(n uint64) []task.Spec {
	sc := b.Scenario
	n = min(n, b.Count)
	out := make([]task.Spec, 0, n)
	for i := uint64(0); i < n; i++ {
		out = append(out, task.Spec{Family: sc.Label(), Tier: task.TierScenario, Split: b.Split, Index: b.From + i,
			Budget: b.Budget, Feedback: b.Feedback, Observability: b.Observability, Scenario: &sc})
	}
	return out
}
