package suite

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
)

func sets(t *testing.T, kv ...string) []Set {
	t.Helper()
	var out []Set
	for _, s := range kv {
		set, err := ParseSet(s)
		require.NoError(t, err)
		out = append(out, set)
	}
	return out
}

// TestSetOverridesEveryBlock: --set changes every block's field as the
// YAML would, the suite's name says so, and bad values are refused naming
// the --set.
func TestSetOverridesEveryBlock(t *testing.T) {
	plain, err := Load("default")
	require.NoError(t, err)
	s, err := LoadWith("default", sets(t, "budget=50", "feedback=none", "seeds.count=1", "tiers=easy"))
	require.NoError(t, err)
	assert.Equal(t, "default budget=50 feedback=none seeds.count=1 tiers=easy", s.Name)
	specs := s.Expand()
	assert.Len(t, specs, len(task.Families()), "one seed of each family at easy")
	for _, sp := range specs {
		assert.Equal(t, 50, sp.Budget)
		assert.Equal(t, task.FeedbackNone, sp.Feedback)
		assert.Equal(t, "easy", sp.Tier)
	}
	assert.NotEqual(t, plain.Expand()[0].ID(), specs[0].ID(), "another spec: another task id")
	same, err := LoadWith("default", nil)
	require.NoError(t, err)
	assert.Equal(t, plain.Expand(), same.Expand(), "no override: the suite itself")

	for _, c := range []struct{ set, want string }{
		{"budget=abc", "--set budget=abc"},
		{"budget=0", "want 1 to 1,000,000 steps"},
		{"feedback=loud", "want full, reason or none"},
		{"tiers=Hard", `"Hard": want one of`},
	} {
		_, err := LoadWith("default", sets(t, c.set))
		assert.ErrorContains(t, err, c.want, c.set)
	}
	for _, bad := range []string{"budget", "=3", "colour=red"} {
		_, err := ParseSet(bad)
		assert.ErrorContains(t, err, "--set", bad)
	}
}

// TestSweepPlaysEveryValue: one suite holding the blocks of every value
// (every combination of several sweeps), each episode's spec carrying the
// swept field, no episode twice.
func TestSweepPlaysEveryValue(t *testing.T) {
	bud, err := ParseSweep("budget=100,200,400")
	require.NoError(t, err)
	fb, err := ParseSweep("feedback=full,none")
	require.NoError(t, err)
	s, err := LoadSweep("default", sets(t, "families=obtain", "seeds.count=1"), []Sweep{bud, fb})
	require.NoError(t, err)
	assert.Equal(t, "default families=obtain seeds.count=1 sweep budget=100,200,400 feedback=full,none", s.Name)
	specs := s.Expand()
	require.Len(t, specs, 2*3*2, "2 tiers × 3 budgets × 2 feedback levels")
	ids := map[string]bool{}
	count := map[[2]string]int{}
	for _, sp := range specs {
		ids[sp.ID()] = true
		count[[2]string{strconv.Itoa(sp.Budget), string(sp.Feedback)}]++
	}
	assert.Len(t, ids, len(specs), "no episode twice")
	assert.Len(t, count, 6)
	for _, bad := range []string{"tiers=easy,medium", "budget=100", "budget=1,1", "colour=a,b"} {
		_, err := ParseSweep(bad)
		assert.Error(t, err, bad)
	}
	_, err = LoadSweep("default", sets(t, "budget=50"), []Sweep{bud})
	assert.ErrorContains(t, err, "one or the other")
}

// TestSetOrderDoesNotMatter: the same overrides in another order are the
// same suite (a resume with them is accepted); a key set twice is refused.
func TestSetOrderDoesNotMatter(t *testing.T) {
	a, err := LoadWith("default", sets(t, "budget=200", "families=obtain"))
	require.NoError(t, err)
	b, err := LoadWith("default", sets(t, "families=obtain", "budget=200"))
	require.NoError(t, err)
	assert.Equal(t, a.Name, b.Name)
	assert.Equal(t, a.Expand(), b.Expand())
	_, err = LoadWith("default", sets(t, "budget=200", "budget=300"))
	assert.ErrorContains(t, err, "budget set twice")
}

// TestScopedSetAndSweep: SCENARIO:key changes that scenario alone, and a
// sweep scoped to it plays the rest of the suite once.
func TestScopedSetAndSweep(t *testing.T) {
	set, err := ParseSet("compass-8:decisions=12")
	require.NoError(t, err)
	s, err := LoadWith("explorer-chain", []Set{set})
	require.NoError(t, err)
	require.Len(t, s.Scenarios, 3)
	assert.Equal(t, 12, s.Scenarios[0].Scenario.Decisions)
	assert.Equal(t, "compass-8 decisions=12", s.Scenarios[0].Scenario.Label())
	assert.Equal(t, 24, s.Scenarios[1].Scenario.Decisions, "the others keep theirs")
	assert.Equal(t, "compass-24", s.Scenarios[1].Scenario.Label())

	_, err = ParseSet("compass-8:families=obtain")
	assert.ErrorContains(t, err, "a scenario takes")
	bad, err := ParseSet("nosuch:decisions=3")
	require.NoError(t, err)
	_, err = LoadWith("explorer-chain", []Set{bad})
	assert.ErrorContains(t, err, "has no scenario nosuch")
	all, err := ParseSet("decisions=9")
	require.NoError(t, err)
	_, err = LoadWith("explorer-chain", []Set{set, all})
	assert.ErrorContains(t, err, "set twice", "a scoped and a global set of one key")

	sw, err := ParseSweep("compass-8:decisions=4,8")
	require.NoError(t, err)
	s, err = LoadSweep("explorer-chain", nil, []Sweep{sw})
	require.NoError(t, err)
	var labels []string
	for _, sc := range s.Scenarios {
		labels = append(labels, sc.Scenario.Label())
	}
	assert.Equal(t, []string{"compass-8 decisions=4", "compass-24", "compass-64", "compass-8 decisions=8"}, labels)
	assert.Equal(t, uint64(40), s.Len())
}
