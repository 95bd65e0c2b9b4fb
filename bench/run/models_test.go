package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/fakemodel"
)

// balrogSpecs is the balrog-crafter suite with a short budget, for tests.
func balrogOptions(t *testing.T, url string, budget string, seeds string) Options {
	t.Helper()
	var sets []suite.Set
	for _, kv := range []string{"budget=" + budget, "seeds.count=" + seeds} {
		s, err := suite.ParseSet(kv)
		require.NoError(t, err)
		sets = append(sets, s)
	}
	return Options{Suite: "balrog-crafter", Agent: "openai", Out: filepath.Join(t.TempDir(), "run"), Traces: "all", Set: sets,
		Config: Config{Workers: 4, Certify: true, External: agent.External{Model: "fake", BaseURL: url, Retries: 3, History: 16, Reply: "json"}}}
}

// TestReplyModesEndToEnd plays episodes in each reply mode against the
// fake model and checks the request each mode sends and that replies in
// that form are understood.
func TestReplyModesEndToEnd(t *testing.T) {
	for _, mode := range []string{"json", "schema", "tools"} {
		t.Run(mode, func(t *testing.T) {
			m := fakemodel.Start(fakemodel.Options{Seed: 1})
			defer m.Close()
			o := balrogOptions(t, m.URL(), "20", "2")
			o.External.Reply = mode
			oc, err := Score(context.Background(), o, nil)
			require.NoError(t, err)
			require.True(t, oc.Complete)
			rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
			require.NoError(t, err)
			for _, r := range rs {
				assert.Empty(t, r.AgentError)
				assert.Zero(t, r.InvalidOutputs, "every reply understood in mode %s", mode)
				assert.Equal(t, player.PromptID(), r.Prompt, "the prompt's id in every result")
			}
			var req map[string]any
			require.NoError(t, json.Unmarshal(m.LastRequest(), &req))
			switch mode {
			case "json":
				assert.NotContains(t, req, "response_format")
				assert.NotContains(t, req, "tools")
			case "schema":
				rf := req["response_format"].(map[string]any)
				assert.Equal(t, "json_schema", rf["type"])
				schema := rf["json_schema"].(map[string]any)["schema"].(map[string]any)
				action := schema["properties"].(map[string]any)["action"].(map[string]any)
				assert.Contains(t, action["enum"], "make_wood_pickaxe", "the action enum")
				assert.Equal(t, []any{"action", "reason"}, schema["required"])
			case "tools":
				tools := req["tools"].([]any)
				require.Len(t, tools, 1)
				assert.Equal(t, "act", tools[0].(map[string]any)["function"].(map[string]any)["name"])
				assert.Equal(t, "required", req["tool_choice"])
			}
			def, err := results.ReadDefinition(o.Out)
			require.NoError(t, err)
			assert.Equal(t, mode, def.Reply)
			assert.Equal(t, player.PromptID(), def.Prompt)
		})
	}
}

// TestStructuredRepliesRefused: a server without structured outputs
// refuses --reply schema and tools; the run stops at its first episode
// (the agent cannot play) with an error that says what to do.
func TestStructuredRepliesRefused(t *testing.T) {
	for _, mode := range []string{"schema", "tools"} {
		m := fakemodel.Start(fakemodel.Options{RefuseStructured: true})
		o := balrogOptions(t, m.URL(), "20", "1")
		o.External.Reply = mode
		_, err := Score(context.Background(), o, nil)
		m.Close()
		var start *AgentStartError
		require.ErrorAs(t, err, &start)
		assert.Contains(t, start.Cause, "--reply "+mode)
		assert.Contains(t, start.Cause, "try --reply json")
		rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
		require.NoError(t, err)
		assert.Empty(t, rs, "no result for an episode the agent could not play")
	}
}

// TestNotesScratchpad: with --notes the model's notes come back in the
// next prompt (the fake counts them up) and are kept in the trace.
func TestNotesScratchpad(t *testing.T) {
	m := fakemodel.Start(fakemodel.Options{Notes: true})
	defer m.Close()
	o := balrogOptions(t, m.URL(), "15", "1")
	o.External.Notes = true
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	r, err := trace.Open(filepath.Join(o.Out, results.TraceFile))
	require.NoError(t, err)
	defer r.Close()
	ep, err := r.Episode(0)
	require.NoError(t, err)
	require.NotEmpty(t, ep.Notes)
	last := ep.Notes[len(ep.Notes)-1]
	assert.Equal(t, "seen 15", last.Scratch, "each step saw the previous step's notes")
}

// TestTokenBudgets: an episode budget ends episodes as budget_tokens; a
// run budget ends the run, and a resume with it starts nothing more.
func TestTokenBudgets(t *testing.T) {
	m := fakemodel.Start(fakemodel.Options{})
	defer m.Close()

	o := balrogOptions(t, m.URL(), "200", "2")
	o.MaxEpisodeTokens = 20_000
	_, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	for _, r := range rs {
		assert.Equal(t, "budget_tokens", r.End, "the episode's own budget: a result")
		assert.GreaterOrEqual(t, r.Tokens, 20_000)
		assert.Less(t, r.Tokens, 20_000+4_000, "it stops at the call that reached the budget")
	}

	o = balrogOptions(t, m.URL(), "200", "10")
	o.Workers = 2
	o.MaxRunTokens = 30_000
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, "budget_tokens", string(oc.BudgetSpent))
	assert.False(t, oc.Complete)
	rs, err = results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	require.Less(t, len(rs), 10, "the run stopped early")
	for _, r := range rs {
		assert.NotEqual(t, "budget_tokens", r.End, "an episode cut by the run's budget leaves no result (it would count as played)")
	}
	var spent struct {
		Tokens int `json:"tokens"`
	}
	data, err := os.ReadFile(filepath.Join(o.Out, SpendFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &spent))
	assert.GreaterOrEqual(t, spent.Tokens, 30_000, "the spend file counts the cut episodes' calls too")
	calls := m.Calls.Load()
	o.Resume = true
	oc, err = Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, "budget_tokens", string(oc.BudgetSpent))
	assert.Zero(t, oc.Played, "the budget is spent: the resume starts nothing")
	assert.Equal(t, calls, m.Calls.Load(), "and calls no model")

	o = balrogOptions(t, m.URL(), "200", "10")
	o.PriceIn, o.PriceOut, o.MaxRunCost = 10, 30, 0.2
	oc, err = Score(context.Background(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, "budget_cost", string(oc.BudgetSpent))
}

// TestBalrogProtocolAtScale plays the balrog-crafter protocol with the
// scripted fake model over a hundred short episodes and thousands of
// calls, with invalid replies and server errors, and checks the harness
// holds: every episode has a result and a trace, retries absorb the
// errors, invalid replies are counted, progression is reported with its
// standard error. Under -short (the race run) it plays 20 episodes; make
// test plays the 100 without the race detector (models-test).
func TestBalrogProtocolAtScale(t *testing.T) {
	episodes := 100
	if testing.Short() {
		episodes = 20
	}
	m := fakemodel.Start(fakemodel.Options{Seed: 7, InvalidRate: 0.05, ErrorRate: 0.03})
	defer m.Close()
	o := balrogOptions(t, m.URL(), "40", strconv.Itoa(episodes))
	o.Workers = 8
	o.External.Retries = 6
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	require.True(t, oc.Complete)
	assert.Equal(t, episodes, oc.Summary.Episodes)
	assert.GreaterOrEqual(t, m.Calls.Load(), int64(30*episodes))
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	invalid, retries := 0, 0
	for _, r := range rs {
		require.Empty(t, r.AgentError)
		invalid += r.InvalidOutputs
		retries += r.Retries
	}
	assert.Positive(t, invalid)
	assert.Positive(t, retries)
	require.Len(t, oc.Summary.OpenEnded, 1, "one ruleset")
	assert.Positive(t, oc.Summary.OpenEnded[0].Progression, "the scripted model unlocks achievements")
	assert.Positive(t, oc.Summary.OpenEnded[0].ProgressionSE)
	_, err = os.Stat(filepath.Join(o.Out, results.TraceFile))
	require.NoError(t, err)
}

// TestBudgetsNeedUsage: with a budget set, a server that reports no token
// usage stops the run at its first call with an error that says why,
// instead of letting the budget pass unkept.
func TestBudgetsNeedUsage(t *testing.T) {
	m := fakemodel.Start(fakemodel.Options{NoUsage: true})
	defer m.Close()
	o := balrogOptions(t, m.URL(), "50", "2")
	o.MaxRunTokens = 1_000_000
	_, err := Score(context.Background(), o, nil)
	var start *AgentStartError
	require.ErrorAs(t, err, &start)
	assert.Contains(t, start.Cause, "no token usage")
	rs, err := results.Read(filepath.Join(o.Out, results.ResultsFile))
	require.NoError(t, err)
	assert.Empty(t, rs)
}

// TestResumeCountsAbandonedSpend: the calls of episodes cancelled midway
// count against the run's budget on resume.
func TestResumeCountsAbandonedSpend(t *testing.T) {
	m := fakemodel.Start(fakemodel.Options{Delay: 2 * time.Millisecond})
	defer m.Close()
	o := balrogOptions(t, m.URL(), "400", "2")
	o.MaxRunTokens = 10_000_000
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for m.Calls.Load() < 40 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, _ = Score(ctx, o, nil)
	data, err := os.ReadFile(filepath.Join(o.Out, SpendFile))
	require.NoError(t, err)
	var spent struct {
		Tokens int `json:"tokens"`
	}
	require.NoError(t, json.Unmarshal(data, &spent))
	assert.Positive(t, spent.Tokens, "the cancelled episodes' calls are kept")
	s := newSpend(Config{MaxRunTokens: o.MaxRunTokens}, nil, o.Out)
	assert.Equal(t, spent.Tokens, s.Tokens, "a resume starts from them")
}
