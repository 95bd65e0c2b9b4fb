package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/longcraft/longcraft/bench/results"
)

func TestMissingByScope(t *testing.T) {
	easy, hard := results.Group{Tier: "easy"}.Key().Label(), results.Group{Tier: "hard"}.Key().Label()
	for name, c := range map[string]struct {
		s    results.Summary
		want map[string]int
	}{
		"complete": {results.Summary{Groups: []results.Group{{Tier: "easy"}}}, map[string]int{easy: 0, allTiers: 0}},
		"counted by group": {results.Summary{Partial: true, Planned: 5, Episodes: 2,
			Groups: []results.Group{{Tier: "easy", Missing: 1}, {Tier: "hard", Missing: 2}}},
			map[string]int{easy: 1, hard: 2, allTiers: 3}},
		// A partial summary written before groups counted them: every
		// scope it played may hold them.
		"partial, uncounted": {results.Summary{Partial: true, Planned: 5, Episodes: 2,
			Groups: []results.Group{{Tier: "easy"}, {Tier: "hard"}}},
			map[string]int{easy: 3, hard: 3, allTiers: 3}},
	} {
		assert.Equal(t, c.want, missingByScope(c.s), name)
	}
}

func TestRefusal(t *testing.T) {
	assert.Empty(t, refusal("easy", unfinishedRun{"a", 0, 0}, unfinishedRun{"b", 0, 0}))
	assert.Equal(t, "b has 3 agent errors and 1 missing episode on easy", refusal("easy", unfinishedRun{"a", 0, 0}, unfinishedRun{"b", 3, 1}))
	assert.Equal(t, "a has 2 missing episodes; b has 1 agent error on all tiers", refusal(allTiers, unfinishedRun{"a", 0, 2}, unfinishedRun{"b", 1, 0}))
}
