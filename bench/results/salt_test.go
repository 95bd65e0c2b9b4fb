package results

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/longcraft/longcraft/bench/task"
)

// TestSummarySaltCommitment: a summary names the salt its results were
// played on, and says "mixed" when they were not all played on one
// (public seeds count as one more).
func TestSummarySaltCommitment(t *testing.T) {
	a, b := task.SaltCommitment([]byte("a")), task.SaltCommitment([]byte("b"))
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval}
	for name, tc := range map[string]struct {
		commitments []string
		want        string
	}{
		"public":            {[]string{"", ""}, ""},
		"one salt":          {[]string{a, a, a}, a},
		"two salts":         {[]string{a, b}, "mixed"},
		"public then salt":  {[]string{"", a}, "mixed"},
		"salt then public":  {[]string{a, ""}, "mixed"},
		"mixed, then again": {[]string{a, b, a}, "mixed"},
	} {
		var rs []Result
		for i, c := range tc.commitments {
			rs = append(rs, Result{Index: i, ID: task.SaltedID(spec.ID(), c), Spec: spec, SaltCommitment: c, Goal: "obtain 1 wood"})
		}
		assert.Equal(t, tc.want, Summarize("s", "noop", rs).SaltCommitment, name)
	}
}
