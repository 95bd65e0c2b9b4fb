package bench

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCrafterScore(t *testing.T) {
	for _, c := range []struct {
		rates []float64
		want  float64
	}{
		{nil, 0},
		{[]float64{0, 0, 0}, 0},
		{[]float64{100, 100}, 100},
		{[]float64{100, 0}, math.Sqrt(101) - 1}, // geometric mean of 1+s
		{[]float64{3, 3, 3, 3}, 3},
	} {
		assert.InDelta(t, c.want, CrafterScore(c.rates), 1e-9, "%v", c.rates)
	}
}

func TestProgression(t *testing.T) {
	assert.InDelta(t, 50.0, Progression([]int{11, 11}, 22), 1e-9)
	assert.InDelta(t, 25.0, Progression([]int{0, 11}, 22), 1e-9)
	assert.Zero(t, Progression(nil, 22))
}

func TestRolloutIndependentOfWorkers(t *testing.T) {
	cfg := RolloutConfig{Worlds: 24, Seed: 100, MaxSteps: 400, Workers: 1}
	one, err := Rollout(context.Background(), cfg, nil)
	require.NoError(t, err)
	cfg.Workers = 3
	three, err := Rollout(context.Background(), cfg, nil)
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
	res, err := Rollout(ctx, RolloutConfig{Worlds: 50, Workers: 2}, nil)
	require.ErrorIs(t, err, context.Canceled)
	s := Summarize(res, 22)
	assert.Less(t, s.Episodes, 50)
}

func TestSummarize(t *testing.T) {
	res := []EpisodeResult{
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
