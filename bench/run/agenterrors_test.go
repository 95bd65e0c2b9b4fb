package run

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/report"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
)

// TestUnstartableAgent: an agent that cannot start (a command that does
// not exist, a model server not listening) stops the run at its first
// episode with the cause, records no result, and the summary is partial.
// Before, every episode was played as agent_error and the run ended whole
// with a 0 % table and "errors": 0.
func TestUnstartableAgent(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // nothing listens there now
	for name, o := range map[string]Options{
		"exec:/nonexistent": {Agent: "exec:/nonexistent"},
		"openai, no server": {Agent: "openai", Config: Config{External: agent.External{Model: "m", BaseURL: closed.URL + "/v1"}}},
	} {
		t.Run(name, func(t *testing.T) {
			o.Suite, o.Out, o.Traces, o.Seeds = "default", t.TempDir(), "all", 1
			o.Workers = 1
			oc, err := Score(context.Background(), o, nil)
			var start *AgentStartError
			require.ErrorAs(t, err, &start)
			assert.ErrorContains(t, err, "could not play")
			assert.NotEmpty(t, start.Cause)
			t.Log(err)
			assert.False(t, oc.Complete)
			rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
			require.NoError(t, err)
			assert.Empty(t, rs, "the failed episode has no result: a resume plays it")
			var s results.Summary
			data, err := os.ReadFile(filepath.Join(o.Out, results.SummaryFile))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &s))
			assert.True(t, s.Partial)
			_, missing := s.Unfinished()
			assert.Equal(t, 12, missing, "every planned episode is missing, group by group")
		})
	}
}

// TestAgentErrorsCounted: an agent that plays, then fails, finishes the
// run; the summary's errors and agent_errors count the failed episodes,
// and so do their groups.
func TestAgentErrorsCounted(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 25 { // the model server goes away for good
			http.Error(w, `{"error":{"message":"model unloaded"}}`, http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": `{"action": "noop"}`}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	t.Cleanup(srv.Close)
	budget, err := suite.ParseSet("budget=10")
	require.NoError(t, err)
	o := Options{Suite: "default", Agent: "openai", Out: t.TempDir(), Traces: "none", Seeds: 1, Tiers: []string{"easy"}, Set: []suite.Set{budget},
		Config: Config{Workers: 1, External: agent.External{Model: "fake", BaseURL: srv.URL + "/v1"}}}
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	require.True(t, oc.Complete)
	s := oc.Summary
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	failed, ungenerated := 0, 0 // survive cannot be generated with budget 10
	for _, r := range rs {
		if r.End == "agent_error" {
			failed++
		}
		if r.Err != "" {
			ungenerated++
		}
	}
	require.Len(t, rs, 6)
	require.True(t, failed > 0 && failed < 6, "the first episodes played, the later ones failed: %d failed", failed)
	assert.Equal(t, failed, s.AgentErrors)
	assert.Equal(t, failed+ungenerated, s.Errors, "errors counts them, and the episodes that could not be generated")
	assert.Equal(t, failed, s.Overall.AgentErrors)
	n := 0
	for _, g := range s.Groups {
		n += g.AgentErrors
		assert.Zero(t, g.Missing)
	}
	assert.Equal(t, failed, n, "and their groups")
	page, err := os.ReadFile(filepath.Join(o.Out, results.ReportFile))
	require.NoError(t, err)
	assert.Contains(t, string(page), fmt.Sprintf("<b>%d of 6 episodes ended agent_error</b>", failed))
	assert.Contains(t, string(page), `>agent errors</th>`, "report.html has the column")
	var table strings.Builder
	require.NoError(t, results.WriteTable(&table, s))
	assert.Contains(t, table.String(), "agent_err", "so does the terminal table")
}

// TestComparisonRefusesAgentErrors: the comparison page states no
// difference for a scope where either run has agent errors or missing
// episodes, and says why. Before, a run whose agent never started was
// compared as a 0 % agent: "explorer beats openai on all tiers: +81.8
// points, p < 0.001".
func TestComparisonRefusesAgentErrors(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 1 { // one reply, then the server fails for good
			http.Error(w, `{"error":{"message":"model unloaded"}}`, http.StatusBadRequest)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": `{"action": "noop"}`}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	t.Cleanup(srv.Close)
	base := Options{Suite: "default", Traces: "none", Seeds: 2, Config: Config{Workers: 1, Certify: true}}
	explorer, failing, unstarted := base, base, base
	explorer.Agent, explorer.Out = "explorer", t.TempDir()
	failing.Agent, failing.Out = "openai", t.TempDir()
	failing.External = agent.External{Model: "fake", BaseURL: srv.URL + "/v1"}
	unstarted.Agent, unstarted.Out = "exec:/nonexistent", t.TempDir()
	_, err := Score(context.Background(), explorer, nil)
	require.NoError(t, err)
	oc, err := Score(context.Background(), failing, nil)
	require.NoError(t, err)
	require.Equal(t, 24, oc.Summary.AgentErrors, "every episode failed, the first after one reply (so the run was not stopped as unstartable)")
	_, err = Score(context.Background(), unstarted, nil)
	var start *AgentStartError
	require.ErrorAs(t, err, &start)

	for _, other := range []Options{failing, unstarted} {
		c, err := report.Compare([]string{explorer.Out, other.Out}, report.CompareOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, c.Pairs)
		for _, p := range c.Pairs {
			assert.NotContains(t, p.Sentence, "beats", p.Sentence)
			assert.Contains(t, p.Sentence, "no difference stated", p.Sentence)
			assert.NotEmpty(t, p.Refused)
			t.Log(p.Sentence)
		}
		page := filepath.Join(t.TempDir(), "compare.html")
		require.NoError(t, report.WriteComparison(page, c))
		html, err := os.ReadFile(page)
		require.NoError(t, err)
		assert.Contains(t, string(html), "no difference stated")
		if other.Agent == "openai" {
			assert.Contains(t, string(html), "agent errors</b>", "the family × tier table shows them")
		} else {
			assert.Contains(t, string(html), "missing</b>", "the family × tier table shows them")
		}
	}
}
