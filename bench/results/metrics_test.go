package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/score"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/golden"
	"github.com/longcraft/longcraft/sim"
)

const metricsDoc = "../../docs/metrics.md"

// TestMetricsDocumented: docs/metrics.md is what the declarations
// generate; -rewrite regenerates it for review.
func TestMetricsDocumented(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMetricsDoc(&b))
	golden.File(t, metricsDoc, b.Bytes(), "docs/metrics.md is stale: it is generated from the metric declarations")
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
		Behaviour: episode.Behaviour{ValidActionRatio: episode.Measured(0.5), EffectiveActionRatio: episode.Measured(0.25), RepeatedFailures: episode.Measured(0), FailedActions: 1, Discovery: episode.Measured(0.5), RecoveryCost: episode.Measured(3)}},
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
	for _, key := range []string{"precondition_discovery", "recovery_cost", "state_consistency", "world_model_accuracy", "valid_action_ratio", "repeated_failure_rate"} {
		assert.Contains(t, string(b), `"`+key+`":null`)
	}
	// The line's metrics: every declared one, null where not measured.
	var line struct{ Metrics map[string]*float64 }
	require.NoError(t, json.Unmarshal(b, &line))
	for _, m := range Metrics() {
		v, ok := line.Metrics[m.Name]
		assert.True(t, ok, "metrics.%s in the line", m.Name)
		if _, measured := m.Of(r); measured {
			assert.NotNil(t, v, m.Name)
		} else {
			assert.Nil(t, v, "metrics.%s: not measured is null, not 0", m.Name)
		}
	}
	var old Result
	require.NoError(t, json.Unmarshal([]byte(`{"precondition_discovery": -1, "recovery_cost": 4, "state_consistency": null, "steps": 0, "valid_action_ratio": 0, "failed_actions": 0, "repeated_failure_rate": 0}`), &old))
	assert.False(t, old.Discovery.OK)
	assert.Equal(t, episode.Measured(4), old.RecoveryCost)
	assert.False(t, old.StateConsistency.OK)
	assert.False(t, old.ValidActionRatio.OK, "an old line's 0 for an episode of no step")
	assert.False(t, old.RepeatedFailures.OK, "an old line's 0 for an episode of no failed action")
	require.NoError(t, json.Unmarshal([]byte(`{"steps": 9, "valid_action_ratio": 0, "failed_actions": 2, "repeated_failure_rate": 0}`), &old))
	assert.Equal(t, episode.Measured(0), old.ValidActionRatio, "a measured 0 stays")
	assert.Equal(t, episode.Measured(0), old.RepeatedFailures)
	// A line whose metrics say other than its fields is named; a measured
	// -1 (a return) is a number in the metrics, not the old lines' "not
	// measured".
	lost, err := json.Marshal(Result{Index: 1, Metrics: episode.Metrics{Steps: 3, Return: -1}})
	require.NoError(t, err)
	tampered := bytes.Replace(b, []byte(`"steps":0`), []byte(`"steps":7`), 1)
	require.NotEqual(t, b, tampered)
	path := filepath.Join(t.TempDir(), ResultsFile)
	require.NoError(t, os.WriteFile(path, bytes.Join([][]byte{tampered, lost, []byte(`{"index": 2, "steps": 4}`)}, []byte("\n")), 0o644))
	disagree, err := DisagreeingMetrics(path)
	require.NoError(t, err)
	assert.Equal(t, map[int]string{0: "metrics.steps 0 in results.jsonl, its fields give 7"}, disagree, "only the edited line; an old line without metrics is not checked")

	measured := Result{Metrics: episode.Metrics{Steps: 5, Behaviour: episode.Behaviour{Discovery: episode.Measured(1)}}}
	g := group("f", "t", []Result{measured, {Metrics: episode.Metrics{Steps: 5}}})
	assert.Equal(t, Stat{Mean: 1, Median: 1, CI95: &[2]float64{1, 1}, N: 1}, g.Metrics["precondition_discovery"], "the unmeasured episode is left out")
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

// TestOpenEndedPerRuleset: Crafter's score, progression and the
// achievements' rates are computed per ruleset over its own achievements
// (Crafter's 22 for classic, its own count for extended), never pooled:
// an extended episode that unlocks all of its own is 100%, not more, and
// does not count in the classic line;
// varied rules are a line of their own; goal tasks count in none.
func TestOpenEndedPerRuleset(t *testing.T) {
	all := func(n int) uint64 { return 1<<n - 1 }
	ext := len(sim.Extended().Achievements) // derived: adding an achievement to extended needs no edit here
	ach := func(tier, rules string, mask uint64) Result {
		return Result{Spec: task.Spec{Family: "achievements", Tier: tier}, Ruleset: rules, Metrics: episode.Metrics{Achievements: mask, Unlocked: bits.OnesCount64(mask)}}
	}
	rs := []Result{
		ach("easy", "classic", 1|1<<2),
		ach("easy", "classic", 1),
		ach("hard", "extended+variants", all(ext)),
		ach("hard", "extended+variants", all(22)),
		{Spec: task.Spec{Family: "obtain", Tier: "easy"}, Ruleset: "classic", Metrics: episode.Metrics{Achievements: 1 << 5, Unlocked: 1}},
	}
	for i := range rs {
		rs[i].Index = i
	}
	s := Summarize("t", "a", rs)
	require.Len(t, s.OpenEnded, 2)
	classic, varied := s.OpenEnded[0], s.OpenEnded[1]

	assert.Equal(t, "classic", classic.Ruleset)
	assert.Equal(t, 22, classic.Achievements)
	assert.Equal(t, 2, classic.Episodes, "the obtain episode is not open-ended")
	require.Len(t, classic.AchievementRates, 22)
	names := sim.Classic().Achievements
	var rates []float64
	for i, r := range classic.AchievementRates {
		assert.Equal(t, names[i], r.Name)
		rates = append(rates, r.Percent)
	}
	assert.Equal(t, 100.0, classic.AchievementRates[0].Percent)
	assert.Equal(t, 50.0, classic.AchievementRates[2].Percent)
	assert.Zero(t, classic.AchievementRates[5].Percent, "the obtain episode is not open-ended")
	assert.InDelta(t, score.Crafter(rates), classic.CrafterScore, 1e-12)
	assert.InDelta(t, 100*(2.0+1)/(2*22), classic.Progression, 1e-12)

	assert.Equal(t, "extended+variants", varied.Ruleset)
	assert.Equal(t, ext, varied.Achievements)
	require.Len(t, varied.AchievementRates, ext)
	assert.Equal(t, sim.Extended().Achievements[ext-1], varied.AchievementRates[ext-1].Name)
	assert.Equal(t, 50.0, varied.AchievementRates[ext-1].Percent)
	assert.InDelta(t, 100*(float64(ext)+22)/(2*float64(ext)), varied.Progression, 1e-12, "over the ruleset's own, not Crafter's 22")
	assert.LessOrEqual(t, varied.Progression, 100.0)
	for _, l := range s.OpenEnded {
		assert.Empty(t, l.Err)
	}

	var table bytes.Buffer
	require.NoError(t, WriteTable(&table, s))
	assert.Contains(t, table.String(), "open-ended, classic rules (22 achievements): 2 episodes, Crafter score")
	assert.Contains(t, table.String(), fmt.Sprintf("open-ended, extended+variants rules (%d achievements): 2 episodes", ext))
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

// TestOldPooledSummaryIsNoted: a summary.json of the old format (one
// Crafter score pooled over the rulesets) reads as Pooled, so verify,
// merge and report refuse it by name; one written now does not.
func TestOldPooledSummaryIsNoted(t *testing.T) {
	var old, now Summary
	require.NoError(t, json.Unmarshal([]byte(`{"suite": "standard", "crafter_score": 76.19, "progression": 91, "progression_se": 2.99}`), &old))
	assert.True(t, old.Pooled)
	assert.Equal(t, "standard", old.Suite)
	b, err := json.Marshal(Summarize("standard", "a", []Result{{Spec: task.Spec{Family: "achievements", Tier: "easy"}, Ruleset: "classic"}}))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &now))
	assert.False(t, now.Pooled)
	var top map[string]any
	require.NoError(t, json.Unmarshal(b, &top))
	assert.NotContains(t, top, "crafter_score", "no pooled figure at the top")
	require.Len(t, now.OpenEnded, 1)
}
