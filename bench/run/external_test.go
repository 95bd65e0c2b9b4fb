package run

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/longcraft/longcraft/bench/results"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/task"
)

// fakeModel is an OpenAI-compatible server: it answers "do" and "move_left"
// in turn, with a belief about the inventory (wrong every fourth call) and a
// prediction, answers garbage every fifth call, and reports 10 prompt and 5
// completion tokens a call.
func fakeModel(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		content := `{"action": "do", "reason": "face it", "belief": {"from_start": {"x": 0, "y": 0}}, "expect": {"outcome": "nothing"}}`
		switch {
		case n%5 == 0:
			content = "I am not sure what to do."
		case n%4 == 0:
			content = `{"action": "move_left", "belief": {"from_start": {"x": 99, "y": 99}}}`
		case n%2 == 0:
			content = `{"action": "move_left"}`
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestOpenAIAgentEndToEnd(t *testing.T) {
	srv, calls := fakeModel(t)
	specs := []task.Spec{{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 0, Budget: 40},
		{Family: task.FamilyCollect, Tier: "easy", Split: task.Eval, Index: 1, Budget: 40}}
	cfg := Config{Agent: "openai", Workers: 2, Traces: true, PriceIn: 2.5, PriceOut: 10,
		External: agent.External{Model: "fake", BaseURL: srv.URL, Retries: 1, ImageSize: 64, Symbolic: true}}
	var rows []results.Result
	notes := 0
	err := Suite(context.Background(), specs, []int{0, 1}, cfg, func(d Done) error {
		rows = append(rows, d.Result)
		notes += len(d.Trace.Notes)
		assert.Equal(t, "openai (fake)", d.Trace.Header.Agent, "the trace names the model")
		assert.Equal(t, "fake", d.Result.Model, "and so does the results line")
		return nil
	})
	require.NoError(t, err)
	require.Len(t, rows, 2)
	totalCalls, totalTokens, invalid, steps := 0, 0, 0, 0
	// The server's replies follow one call counter shared by both
	// workers, so which episode hears the wrong beliefs (every fourth
	// call) depends on scheduling: one may hear none of them.
	leastConsistent := 1.0
	for _, r := range rows {
		require.Empty(t, r.AgentError)
		totalCalls += r.ModelCalls
		totalTokens += r.Tokens
		invalid += r.InvalidOutputs
		steps += r.Steps
		assert.Equal(t, 15*r.ModelCalls, r.Tokens, "tokens as the server reported them")
		require.True(t, r.Cost.OK, "prices given: cost measured")
		assert.InDelta(t, (float64(r.PromptTokens)*2.5+float64(r.CompletionTokens)*10)/1e6, r.Cost.Value, 1e-15)
		require.True(t, r.StateConsistency.OK)
		assert.GreaterOrEqual(t, r.StateConsistency.Value, 0.0)
		assert.LessOrEqual(t, r.StateConsistency.Value, 1.0)
		leastConsistent = min(leastConsistent, r.StateConsistency.Value)
		require.True(t, r.WorldModelAccuracy.OK)
		assert.GreaterOrEqual(t, r.WorldModelAccuracy.Value, 0.0)
	}
	assert.Less(t, leastConsistent, 1.0, "some beliefs were wrong")
	assert.Equal(t, int(calls.Load()), totalCalls, "every call the server answered is counted")
	assert.Equal(t, steps, totalCalls, "one call per step")
	assert.Equal(t, totalCalls/5, invalid, "every fifth reply was garbage")
	assert.Equal(t, steps, notes, "every step's exchange is in the trace")
	s := results.Summarize("t", "openai", rows)
	assert.Equal(t, totalCalls, s.Overall.Calls)
	assert.Equal(t, totalTokens, s.Overall.Tokens)
	require.True(t, s.Overall.Cost.OK)
	assert.InDelta(t, rows[0].Cost.Value+rows[1].Cost.Value, s.Overall.Cost.Value, 1e-15)
	if s.Overall.Successes == 0 {
		assert.False(t, s.Overall.CostPerSuccess.OK, "no success: cost per success not measured, not infinite")
	}
}

func TestOpenAIAgentErrorEndsTheEpisode(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such model", http.StatusNotFound)
	}))
	defer srv.Close()
	res := Play(task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Budget: 20},
		Config{Agent: "openai", External: agent.External{Model: "x", BaseURL: srv.URL}})
	assert.Equal(t, "agent_error", res.End)
	assert.Contains(t, res.AgentError, "404")
	assert.False(t, res.Success)
}

// buildAgent builds one of package player's test agents.
func buildAgent(t *testing.T, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", out, "../player/testdata/agents/"+name)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, string(b))
	return out
}

func TestExecAgentEndToEnd(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("no subprocesses under js/wasm")
	}
	good, crash := buildAgent(t, "good"), buildAgent(t, "crash")
	specs := []task.Spec{{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 0, Budget: 30},
		{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1, Budget: 30},
		{Family: task.FamilyWaypoints, Tier: "easy", Split: task.Eval, Index: 2, Budget: 30}}
	idx := []int{0, 1, 2}
	var rows []results.Result
	err := Suite(context.Background(), specs, idx, Config{Agent: "exec:" + good, Workers: 1}, func(d Done) error {
		rows = append(rows, d.Result)
		return nil
	})
	require.NoError(t, err)
	for _, r := range rows {
		assert.Empty(t, r.AgentError)
		assert.Equal(t, r.Steps, r.ModelCalls, "one message per step")
		assert.Zero(t, r.InvalidOutputs)
	}
	// A crashing agent ends its episodes as agent_error; the run goes on.
	rows = nil
	err = Suite(context.Background(), specs, idx, Config{Agent: "exec:" + crash, Workers: 1}, func(d Done) error {
		rows = append(rows, d.Result)
		return nil
	})
	require.NoError(t, err)
	require.Len(t, rows, 3)
	for _, r := range rows {
		assert.Equal(t, "agent_error", r.End)
		assert.Contains(t, r.AgentError, "exit status 3")
	}
}
