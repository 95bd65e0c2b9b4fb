package results

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
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
	r := Result{Metrics: episode.Metrics{Steps: 10, MilestonesOf: 2, Milestones: 1,
		Behaviour: episode.Behaviour{FailedActions: 1, Discovery: episode.Measured(0.5), RecoveryCost: episode.Measured(3)}},
		AgentStats: AgentStats{ModelCalls: 10, StateConsistency: episode.Measured(1), WorldModelAccuracy: episode.Measured(0)}}
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
