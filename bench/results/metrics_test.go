package results

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/score"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the generated files (docs/metrics.md) instead of comparing")

const metricsDoc = "../../docs/metrics.md"

// TestMetricsDocumented: docs/metrics.md is what the declarations
// generate; -rewrite regenerates it for review.
func TestMetricsDocumented(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMetricsDoc(&b))
	if *rewrite {
		require.NoError(t, os.WriteFile(metricsDoc, b.Bytes(), 0o644))
	}
	doc, err := os.ReadFile(metricsDoc)
	require.NoError(t, err)
	assert.Equal(t, b.String(), string(doc), "docs/metrics.md is stale: go test ./bench/results -run TestMetricsDocumented -rewrite")
}

// TestEveryMetricIsDeclaredOnce: names are unique, every declaration is
// complete, and the summary aggregates exactly the declared metrics.
func TestEveryMetricIsDeclaredOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Metrics() {
		assert.False(t, seen[m.Name], "%s declared twice", m.Name)
		seen[m.Name] = true
		for field, v := range map[string]string{"title": m.Title, "unit": m.Unit, "range": m.Range, "definition": m.Definition, "not measured": m.NotMeasured} {
			assert.NotEmpty(t, v, "%s: %s", m.Name, field)
		}
		assert.NotNil(t, m.Of, m.Name)
	}
	r := Result{Spec: task.Spec{Scenario: &task.Scenario{Actions: task.ActionsSkills}}, Metrics: episode.Metrics{Steps: 10, Decisions: 4, SkillsFailed: 1, MilestonesOf: 2, Milestones: 1, Stages: 1, StagesTotal: 3, Exploration: episode.Exploration{Reachable: 100, TilesVisited: 10, VisitedShare: 0.1},
		Behaviour: episode.Behaviour{FailedActions: 1, Discovery: episode.Measured(0.5), RecoveryCost: episode.Measured(3)}},
		AgentStats: AgentStats{ModelCalls: 10, StateConsistency: episode.Measured(1), WorldModelAccuracy: episode.Measured(0), Cost: episode.Measured(0.01),
			StateSkill: episode.Measured(0.5), WorldModelSkill: episode.Measured(-0.5)}}
	g := group("f", "t", []Result{r})
	assert.Len(t, g.Metrics, len(Metrics()), "an episode measuring everything fills every declared metric")
	for name := range g.Metrics {
		assert.True(t, seen[name], "summary metric %s is not declared", name)
	}
}

// TestNotMeasuredIsNotANumber: an unmeasured value is null in
// results.jsonl, reads back as not measured (so does the -1 older results
// wrote), is left out of the group's statistics, and the group shows no
// statistic for it rather than a zero.
func TestNotMeasuredIsNotANumber(t *testing.T) {
	var r Result
	b, err := json.Marshal(r)
	require.NoError(t, err)
	for _, key := range []string{"precondition_discovery", "recovery_cost", "state_consistency", "world_model_accuracy"} {
		assert.Contains(t, string(b), `"`+key+`":null`)
	}
	var old Result
	require.NoError(t, json.Unmarshal([]byte(`{"precondition_discovery": -1, "recovery_cost": 4, "state_consistency": null}`), &old))
	assert.False(t, old.Discovery.OK)
	assert.Equal(t, episode.Measured(4), old.RecoveryCost)
	assert.False(t, old.StateConsistency.OK)

	measured := Result{Metrics: episode.Metrics{Steps: 5, Behaviour: episode.Behaviour{Discovery: episode.Measured(1)}}}
	g := group("f", "t", []Result{measured, {Metrics: episode.Metrics{Steps: 5}}})
	assert.Equal(t, Stat{Mean: 1, Median: 1, N: 1}, g.Metrics["precondition_discovery"], "the unmeasured episode is left out")
	_, ok := group("f", "t", []Result{{Metrics: episode.Metrics{Steps: 5}}}).Metrics["precondition_discovery"]
	assert.False(t, ok, "no episode measured it: no statistic, not 0")
}

func TestWilson(t *testing.T) {
	lo, hi := Wilson(0, 10)
	assert.InDelta(t, 0, lo, 1e-9)
	assert.InDelta(t, 0.2775, hi, 1e-3)
	lo, hi = Wilson(5, 10)
	assert.InDelta(t, 0.2366, lo, 1e-3)
	assert.InDelta(t, 0.7634, hi, 1e-3)
}

func TestMcNemarExact(t *testing.T) {
	assert.Equal(t, 1.0, McNemarExact(0, 0))
	assert.Equal(t, 1.0, McNemarExact(3, 3))
	// 10 discordant pairs all one way: 2 · 0.5^10.
	assert.InDelta(t, 2*math.Pow(0.5, 10), McNemarExact(10, 0), 1e-12)
	// b=9, c=1: 2 · (1 + 10) / 1024 (R: binom.test(1, 10)$p.value = 0.02148).
	assert.InDelta(t, 0.021484375, McNemarExact(9, 1), 1e-9)
	assert.Equal(t, McNemarExact(9, 1), McNemarExact(1, 9), "two-sided")
	assert.InDelta(t, 1.0, McNemarExact(500, 501), 1e-9)
}

func TestPairedBootstrap(t *testing.T) {
	diffs := make([]float64, 100)
	for i := range 40 {
		diffs[i] = 1 // 40 pairs won, 60 tied
	}
	mean, lo, hi := PairedBootstrap(diffs, 2000, 1)
	assert.InDelta(t, 0.4, mean, 1e-12)
	assert.Less(t, lo, 0.4)
	assert.Greater(t, hi, 0.4)
	assert.InDelta(t, 0.4-1.96*math.Sqrt(0.4*0.6/100), lo, 0.03, "about the normal interval")
	m2, lo2, hi2 := PairedBootstrap(diffs, 2000, 1)
	assert.Equal(t, [3]float64{mean, lo, hi}, [3]float64{m2, lo2, hi2}, "seeded: the same interval every time")
	_, lo, hi = PairedBootstrap(make([]float64, 50), 500, 1)
	assert.Equal(t, [2]float64{0, 0}, [2]float64{lo, hi})
}

func TestNewcombeDiff(t *testing.T) {
	// Newcombe (1998), table II, example (a): 56/70 − 48/80: 0.2000 [0.0524, 0.3339].
	d, lo, hi := NewcombeDiff(56, 70, 48, 80)
	assert.InDelta(t, 0.2, d, 1e-9)
	assert.InDelta(t, 0.0524, lo, 5e-4)
	assert.InDelta(t, 0.3339, hi, 5e-4)
}

// TestAchievementRates: the summary lists each Crafter achievement's
// unlock rate over the achievements episodes, the rates its Crafter score
// is the geometric mean of.
func TestAchievementRates(t *testing.T) {
	rs := []Result{
		{Index: 0, Spec: task.Spec{Family: "achievements", Tier: "easy"}, Metrics: episode.Metrics{Achievements: 1 | 1<<2, Unlocked: 2}},
		{Index: 1, Spec: task.Spec{Family: "achievements", Tier: "easy"}, Metrics: episode.Metrics{Achievements: 1, Unlocked: 1}},
		{Index: 2, Spec: task.Spec{Family: "obtain", Tier: "easy"}, Metrics: episode.Metrics{Achievements: 1 << 5, Unlocked: 1}},
	}
	s := Summarize("t", "a", rs, ClassicAchievements)
	require.Len(t, s.AchievementRates, ClassicAchievements)
	names := sim.Classic().Achievements
	var rates []float64
	for i, r := range s.AchievementRates {
		assert.Equal(t, names[i], r.Name)
		rates = append(rates, r.Percent)
	}
	assert.Equal(t, 100.0, s.AchievementRates[0].Percent)
	assert.Equal(t, 50.0, s.AchievementRates[2].Percent)
	assert.Zero(t, s.AchievementRates[5].Percent, "the obtain episode is not an achievements episode")
	assert.InDelta(t, score.Crafter(rates), s.CrafterScore, 1e-12)
}

func TestNewcombePaired(t *testing.T) {
	// Uncorrelated margins (ad − bc within n/2 of 0: φ taken as 0): the
	// interval is the independent-samples one on the same counts.
	d, lo, hi := NewcombePaired(10, 10, 10, 40) // a=10 b=10 c=10 d=10: ad−bc = 0
	d2, lo2, hi2 := NewcombeDiff(20, 40, 20, 40)
	assert.InDelta(t, d2, d, 1e-12)
	assert.InDelta(t, lo2, lo, 1e-12)
	assert.InDelta(t, hi2, hi, 1e-12)
	// Every discordant pair one way: not a point, unlike the bootstrap.
	d, lo, hi = NewcombePaired(0, 200, 0, 200)
	assert.Equal(t, 1.0, d)
	assert.Less(t, lo, 1.0)
	assert.Greater(t, lo, 0.9)
	assert.InDelta(t, 1.0, hi, 1e-12)
	// Swapping the runs negates the difference and mirrors the interval.
	d, lo, hi = NewcombePaired(14, 5, 0, 41) // Altman et al. (2000), table 6.2's counts
	nd, nlo, nhi := NewcombePaired(14, 0, 5, 41)
	assert.InDelta(t, -d, nd, 1e-12)
	assert.InDelta(t, -hi, nlo, 1e-12)
	assert.InDelta(t, -lo, nhi, 1e-12)
	assert.InDelta(t, 5.0/41, d, 1e-12)
	assert.Less(t, lo, d)
	assert.Greater(t, lo, 0.0, "5 discordant pairs, all one way: the interval excludes 0")
	t.Logf("Altman 6.2 counts: %.4f [%.4f, %.4f]", d, lo, hi)
	// Positive correlation narrows the interval against the uncorrelated one.
	_, clo, chi := NewcombePaired(30, 5, 1, 60)
	_, ulo, uhi := NewcombeDiff(35, 60, 31, 60)
	assert.Less(t, chi-clo, uhi-ulo)
}
