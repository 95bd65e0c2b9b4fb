// Tests written by a second adversarial review (of --set, --sweep,
// grouping by budget and timings). Each failed on the code it reviewed;
// they stay as regression tests.

package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
)

// The comparison's family/tier rows are sorted by family, then by
// task.TierRank of what follows the "/" in the key: since the key gained
// " (... view, ... feedback, budget N)", that is never a tier name, every
// rank is len(tiers), and rows keep the order runs happened to list them
// (hard before easy here; budgets neither sorted).
func TestQuickReviewComparisonRowsInTierOrder(t *testing.T) {
	onlyHard := run(t, "a", "L", 10, 5, "hard")
	easy := run(t, "b", "L", 10, 7, "easy")
	c, err := Compare([]string{onlyHard, easy}, CompareOptions{})
	require.NoError(t, err)
	var ranks []int
	for _, k := range c.Keys {
		_, rest, _ := strings.Cut(k, "/")
		tier, _, _ := strings.Cut(rest, " ")
		ranks = append(ranks, task.TierRank(tier))
	}
	for i := 1; i < len(ranks); i++ {
		require.LessOrEqual(t, ranks[i-1], ranks[i], "rows out of tier order: %q", c.Keys)
	}
}
