package rollout

import (
	"context"
	"testing"

	"github.com/longcraft/longcraft/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRolloutIndependentOfWorkers(t *testing.T) {
	cfg := Config{Worlds: 24, Seed: 100, MaxSteps: 400, Workers: 1}
	one, err := Run(context.Background(), cfg, nil)
	require.NoError(t, err)
	cfg.Workers = 3
	three, err := Run(context.Background(), cfg, nil)
	require.NoError(t, err)
	require.Equal(t, one, three)
	for i, r := range one {
		assert.Equal(t, uint64(100+i), r.Seed)
		assert.Positive(t, r.Steps)
	}
}

func TestRolloutStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, Config{Worlds: 50, Workers: 2}, nil)
	require.ErrorIs(t, err, context.Canceled)
	s := Summarize(res, 22)
	assert.Less(t, s.Episodes, 50)
}

func TestSummarize(t *testing.T) {
	res := []Result{
		{Steps: 10, Died: true, Achievements: 1 | 1<<3, Reward: 2},
		{Steps: 30, Achievements: 1, Reward: 1},
		{}, // not played
	}
	s := Summarize(res, 4)
	assert.Equal(t, 2, s.Episodes)
	assert.Equal(t, 1, s.Deaths)
	assert.Equal(t, 40, s.Steps)
	assert.InDelta(t, 20.0, s.MeanLength, 1e-9)
	assert.InDelta(t, 1.5, s.MeanReward, 1e-9)
	assert.Equal(t, []float64{100, 0, 0, 50}, s.SuccessRates)
	assert.InDelta(t, 3.0/8*100, s.Progression, 1e-9)
}

// TestExplorerOutlivesRandom: the explorer is a survival baseline, well
// above uniform actions.
func TestExplorerOutlivesRandom(t *testing.T) {
	mean := func(policy string) float64 {
		res, err := Run(context.Background(), Config{Policy: policy, Worlds: 24, Seed: 900, MaxSteps: 1500}, nil)
		require.NoError(t, err)
		return Summarize(res, len(sim.Classic().Achievements)).MeanLength
	}
	random, explorer := mean("random"), mean("explorer")
	t.Logf("mean episode length: random %.0f, explorer %.0f", random, explorer)
	assert.Greater(t, explorer, 2*random)
}
