package fidelity

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// testEpisodes is the sample of TestFidelity, on seeds testSeed.. (make
// fidelity uses seeds 0..19,999, so the two are independent samples).
//
// How it was sized: a statistic's estimate over n episodes is close to
// normal with standard error s/√n, where s is the per-episode spread
// (Result.EpisodeSD). A faithful implementation, whose true value is
// Crafter's figure c, falls outside ±10% of c with probability
// erfc(0.1·c·√n / (s·√2)); summed over the eight statistics (a union
// bound) that must stay below 1/10,000. Measured over 20,000 episodes, the
// widest spread relative to Crafter's figure is the skeletons': s/c = 2.04
// (cows in view 0.90, zombies in view 0.75, the others less). Then n ≥
// (4.37 · 2.04 / 0.1)² ≈ 7,970, where 4.37 is the normal quantile of
// 1 − 10⁻⁴/16. 16,000 episodes leave room (the bound there is about
// 6·10⁻¹⁰); TestFidelity recomputes it from its own sample and fails if
// it exceeds 10⁻⁴. It does not cover the error of Crafter's own figures,
// 3,000 episodes each: one standard error is about 0.6% of the length,
// 3.7% of skeletons in view, 1–1.7% of the others.
const (
	testEpisodes = 16000
	testSeed     = 1_000_000
	tolerance    = 0.10
)

func TestFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("16,000 episodes: run without -short (make test runs it in its fidelity step, without -race)")
	}
	eps, err := Play(context.Background(), Config{Episodes: testEpisodes, Seed: testSeed}, nil)
	require.NoError(t, err)
	results := Measure(eps)
	var table strings.Builder
	require.NoError(t, WriteTable(&table, results, tolerance))
	t.Logf("%d episodes from seed %d:\n%s", testEpisodes, testSeed, table.String())
	for _, r := range results {
		assert.True(t, r.Within(tolerance), "%s = %.4g, Crafter %.4g: %+.1f%%, outside ±%.0f%%",
			r.Key, r.Value, r.Crafter, 100*r.RelDiff(), 100*tolerance)
	}
	// The sample is large enough by the bound in testEpisodes' comment, from
	// this sample's own spreads (each scaled to Crafter's rate where ours
	// is lower, since a count's spread grows with its rate).
	scaled := append([]Result(nil), results...)
	for i := range scaled {
		if scaled[i].Value > 0 && scaled[i].Value < scaled[i].Crafter {
			scaled[i].EpisodeSD *= math.Sqrt(scaled[i].Crafter / scaled[i].Value)
		}
	}
	p := FailureBound(scaled, tolerance, testEpisodes)
	t.Logf("a faithful implementation fails this test with probability below %.2g; %d episodes would do", p, SampleFor(scaled, tolerance, 1e-4))
	assert.Less(t, p, 1e-4)
}

func TestPlayIndependentOfWorkers(t *testing.T) {
	one, err := Play(context.Background(), Config{Episodes: 60, Seed: 7, Workers: 1}, nil)
	require.NoError(t, err)
	two, err := Play(context.Background(), Config{Episodes: 60, Seed: 7, Workers: 2}, nil)
	require.NoError(t, err)
	assert.Equal(t, one, two)
	a, b := Measure(one), Measure(two)
	for i := range a {
		assert.Equal(t, a[i].Value, b[i].Value, a[i].Key)
		assert.Equal(t, a[i].SE, b[i].SE, a[i].Key)
	}
}

func TestPlayCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	eps, err := Play(ctx, Config{Episodes: 10}, nil)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, eps)
	_, err = Play(context.Background(), Config{}, nil)
	assert.Error(t, err)
}

func TestStatsCount(t *testing.T) {
	// The player at (6, 4). In the 9×7 image area: the zombies at dx=−4
	// (row 4) and (dx, dy) = (1, 3), the adjacent one above the player, the
	// cow at (dx, dy) = (4, −3) and the skeleton at (−4, 3). Outside it: the
	// zombie at dx=+6 and the cow at dy=−4 (row 0).
	scene := `
......C......
..........C..
.............
......Z......
..Z...@.....Z
.............
.............
..S....Z.....
.............`
	r := sim.Classic()
	r.Creature.BalanceEvery = 1 << 30
	w, err := sim.New(sim.Config{Width: 13, Height: 9, Rules: r})
	require.NoError(t, err)
	w.Reset(1)
	require.NoError(t, w.LoadASCII(strings.TrimPrefix(scene, "\n")))
	want := map[string]int{
		"zombies_in_view": 3, "cows_in_view": 1, "skeletons_in_view": 1,
		"zombies_adjacent": 1, "zombies_alive": 4, "cows_alive": 2,
	}
	out := sim.Outcome{}
	for _, s := range Stats {
		if s.count == nil {
			continue
		}
		assert.Equal(t, want[s.Key], s.count(w, &out), s.Key)
	}
	hurt := sim.Outcome{HealthDelta: -2}
	for _, s := range Stats {
		if s.Key == "health_lost" {
			assert.Equal(t, 1, s.count(w, &hurt))
			assert.Equal(t, 0, s.count(w, &out))
		}
	}
}

func TestMeasure(t *testing.T) {
	// Two episodes: 10 steps with 3 zombies in view in all, 30 steps with
	// 1. The per-step ratio is 4/40; the mean length 20 with sd √200.
	eps := []Episode{{Steps: 10, Counts: make([]int64, len(Stats))}, {Steps: 30, Counts: make([]int64, len(Stats))}}
	k := -1
	for i, s := range Stats {
		if s.Key == "zombies_in_view" {
			k = i
		}
	}
	eps[0].Counts[k], eps[1].Counts[k] = 3, 1
	res := Measure(eps)
	assert.InDelta(t, 20, res[0].Value, 1e-12)
	assert.InDelta(t, math.Sqrt(200), res[0].EpisodeSD, 1e-9)
	assert.InDelta(t, 0.1, res[k].Value, 1e-12)
	// Residuals 3 − 0.1·10 = 2 and 1 − 0.1·30 = −2: sd √8, over the mean
	// length 20; the standard error divides by √2 episodes.
	assert.InDelta(t, math.Sqrt(8)/20, res[k].EpisodeSD, 1e-12)
	assert.InDelta(t, math.Sqrt(8)/20/math.Sqrt2, res[k].SE, 1e-12)
}
