package suite

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEmbeddedSuitesHaveLocks(t *testing.T) {
	for _, name := range Embedded() {
		s, err := Load(name)
		require.NoError(t, err)
		l, err := LoadLock(name)
		require.NoError(t, err, "run: longcraft suite lock --suite %s", name)
		require.NoError(t, l.Check(s, "relock"), name)
		assert.Len(t, l.Episodes, int(s.Len()))
	}
}

func TestLockRefusesWhatItDoesNotLock(t *testing.T) {
	s, err := Load("default")
	require.NoError(t, err)
	l, err := LoadLock("default")
	require.NoError(t, err)
	data, err := l.Marshal()
	require.NoError(t, err)

	// Round trip.
	again, err := ParseLock("x", data)
	require.NoError(t, err)
	assert.Equal(t, l, again)

	// An edited seed breaks the hash.
	edited := strings.Replace(string(data), `"planner_steps":0`, `"planner_steps":1`, 1)
	_, err = ParseLock("x", []byte(edited))
	assert.ErrorContains(t, err, "does not match its content")
	_, err = ParseLock("x", data[:len(data)/2])
	assert.Error(t, err, "a cut lock")

	// Made under another rules version: stale, with the way out.
	old := *again
	old.Rules = map[string]int{"classic": 1}
	err = old.Check(s, "longcraft suite lock --suite default")
	assert.ErrorContains(t, err, "locked under classic v1, this build has classic v2")
	assert.ErrorContains(t, err, "relock with `longcraft suite lock --suite default`")

	// Locked with other tier defaults (which episode ids do not show).
	tiers := *again
	tiers.Tiers = "0"
	assert.ErrorContains(t, tiers.Check(s, "relock"), "other tier definitions")

	// Another suite's episodes.
	std, err := Load("standard")
	require.NoError(t, err)
	assert.Error(t, l.Check(std, "relock"))
	short := *again
	short.Episodes = short.Episodes[1:]
	n := len(s.Expand())
	assert.ErrorContains(t, short.Check(s, "relock"), fmt.Sprintf("has %d episodes, its lock %d", n, n-1))

	// Rebuild: the locked task, without the planner; a goal the generator
	// no longer draws there is refused.
	specs := s.Expand()
	tk, err := l.Rebuild(3, specs[3])
	require.NoError(t, err)
	assert.Equal(t, l.Episodes[3].Seed, tk.Seed)
	assert.Equal(t, l.Episodes[3].PlannerSteps, tk.PlannerSteps)
	_, err = l.Rebuild(3, specs[4])
	assert.Error(t, err, "the wrong spec")
	bad := *again
	bad.Episodes = append([]Locked(nil), again.Episodes...)
	bad.Episodes[3].Goal = "obtain 1 diamond"
	_, err = bad.Rebuild(3, specs[3])
	assert.ErrorContains(t, err, "the lock is stale")

	// A suite file without a lock beside it has none.
	_, err = LoadLock(t.TempDir() + "/none.yaml")
	assert.ErrorIs(t, err, ErrNoLock)
}
