package results

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/task"
)

// TestBootstrapMean: the interval brackets the mean, never leaves the
// values (steps of 1, 2 and 1980: a normal interval goes below 0), is
// the same on every call, and resamples clusters whole: ten plays of one
// world are one observation, so the interval is the mean alone.
func TestBootstrapMean(t *testing.T) {
	lo, hi := BootstrapMean([][]float64{{1}, {2}, {1980}}, 2000, 7)
	assert.GreaterOrEqual(t, lo, 1.0)
	assert.LessOrEqual(t, hi, 1980.0)
	assert.Less(t, lo, 661.0)
	assert.Greater(t, hi, 661.0)
	lo2, hi2 := BootstrapMean([][]float64{{1}, {2}, {1980}}, 2000, 7)
	assert.Equal(t, [2]float64{lo, hi}, [2]float64{lo2, hi2}, "seeded")
	lo, hi = BootstrapMean([][]float64{{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}}, 2000, 7)
	assert.Equal(t, [2]float64{0.5, 0.5}, [2]float64{lo, hi}, "one world: nothing to resample")
	lo, hi = BootstrapMean([][]float64{{0.1}, {0.1}, {0.1}}, 2000, 7)
	assert.Equal(t, [2]float64{0.1, 0.1}, [2]float64{lo, hi}, "equal values: no rounding past them")
}

// TestSummaryIntervalsIgnoreOrder: summary.json, intervals included, is
// the same whatever order the results come in (a resumed, sharded or
// parallel run writes it byte for byte the same).
func TestSummaryIntervalsIgnoreOrder(t *testing.T) {
	var rs []Result
	for i := range 30 {
		sp := task.Spec{Family: "obtain", Tier: []string{"easy", "hard"}[i%2], Split: task.Eval, Index: uint64(i)}
		rs = append(rs, Result{Index: i, ID: sp.ID(), Spec: sp, Seed: uint64(100 + i), Observability: "partial", Feedback: "full", Ruleset: "classic",
			Metrics: episode.Metrics{Steps: (i * 37) % 101, Return: float64(i%7) - 1.5, Success: i%3 == 0}})
	}
	a, err := json.Marshal(Summarize("s", "a", rs))
	require.NoError(t, err)
	slices.Reverse(rs)
	b, err := json.Marshal(Summarize("s", "a", rs))
	require.NoError(t, err)
	assert.JSONEq(t, string(a), string(b))
	assert.Contains(t, string(a), `"ci95":[`)
}
