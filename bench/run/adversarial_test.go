package run

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/longcraft/longcraft/bench/results"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/task"
)

// scriptModel is an OpenAI-compatible server that answers the replies of
// script in turn, across every episode: an agent replaying one fixed plan
// whatever it sees.
func scriptModel(t *testing.T, script ...string) *httptest.Server {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		content := script[int(n.Add(1)-1)%len(script)]
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestAdversarialAgents plays agents that try to score without playing
// on tasks past the easy tier (where a random agent succeeds about never):
// each must succeed on none, and the probes it games must not reward it.
func TestAdversarialAgents(t *testing.T) {
	t.Parallel()
	var specs []task.Spec
	for _, fam := range []string{task.FamilyObtain, task.FamilyCollect, task.FamilyObtainReturn, task.FamilyWaypoints, task.FamilyAchievements} {
		for _, tier := range []string{"medium", "hard", "expert"} {
			for i := range uint64(2) {
				specs = append(specs, task.Spec{Family: fam, Tier: tier, Split: task.Eval, Index: 100 + i, Budget: 150})
			}
		}
	}
	idx := make([]int, len(specs))
	for i := range idx {
		idx[i] = i
	}
	// A plan that obtains a wood pickaxe from a standing start facing a
	// tree, replayed blindly everywhere.
	plan := []string{"do", "do", "do", "place_table", "make_wood_pickaxe", "move_left", "do", "make_stone_pickaxe"}
	var script []string
	for _, a := range plan {
		script = append(script, fmt.Sprintf(`{"action": %q}`, a))
	}
	agents := []struct {
		name   string
		agent  string
		script []string
		// The probe it games, and its ceiling (the probe must be measured);
		// "both": neither probe may be measured.
		probe string
		max   float64
		// reference: not an adversary but the floor the others' effective
		// actions are held to (it may succeed by chance).
		reference bool
		// serial: one worker, so that a script of several replies plays
		// them in turn within each episode (two workers interleave them).
		serial bool
	}{
		{name: "random", agent: "random", reference: true},
		{name: "explorer", agent: "explorer", reference: true},
		{name: "noop", agent: "noop"},
		{name: "oscillating mover", script: []string{`{"action": "move_left"}`, `{"action": "move_right"}`}, serial: true},
		{name: "always do", script: []string{`{"action": "do"}`}},
		{name: "fixed plan", script: script},
		{name: "empty beliefs and predictions", script: []string{`{"action": "noop", "belief": {}, "expect": {}}`}, probe: "both"},
		{name: "always predicts moved", script: []string{`{"action": "do", "expect": {"outcome": "moved"}}`}, probe: "world_model_accuracy", max: 0},
		{name: "position it cannot see", script: []string{`{"action": "noop", "belief": {"x": 32, "y": 32}}`}, probe: "both"},
		{name: "garbage", script: []string{"I will win.", `{"act": "win"}`, "```json\n{}\n```"}},
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-30s %9s %7s %9s %12s %12s %8s\n", "agent", "success", "valid", "effective", "consistency", "world model", "invalid")
	effective := map[string]float64{}
	for _, ag := range agents {
		cfg := Config{Agent: ag.agent, Workers: 2}
		if ag.serial {
			cfg.Workers = 1
		}
		if ag.script != nil {
			srv := scriptModel(t, ag.script...)
			cfg.Agent, cfg.External = "openai", agent.External{Model: "fake", BaseURL: srv.URL}
		}
		var rows []results.Result
		require.NoError(t, Suite(context.Background(), specs, idx, cfg, func(d Done) error {
			rows = append(rows, d.Result)
			return nil
		}), ag.name)
		s := results.Summarize("adversarial", ag.name, rows, results.ClassicAchievements)
		o := s.Overall
		score := func(k string) (float64, bool) {
			st, ok := o.Metrics[k]
			return st.Mean, ok && st.N > 0
		}
		shown := func(k string) string {
			if v, ok := score(k); ok {
				return fmt.Sprintf("%.2f", v)
			}
			return "not measured"
		}
		effective[ag.name] = o.Metrics["effective_action_ratio"].Mean
		fmt.Fprintf(&table, "%-30s %4d/%-4d %7s %9s %12s %12s %8.0f\n", ag.name, o.Successes, o.Episodes,
			shown("valid_action_ratio"), shown("effective_action_ratio"),
			shown("state_consistency"), shown("world_model_accuracy"), o.Metrics["invalid_outputs"].Mean)
		if ag.reference {
			continue
		}
		var won []string
		for _, r := range rows {
			if r.Success {
				won = append(won, r.Spec.Family+"/"+r.Spec.Tier+": "+r.Goal)
			}
		}
		assert.Zero(t, o.Successes, "%s succeeded: %v", ag.name, won)
		switch ag.probe {
		case "both":
			_, consistency := score("state_consistency")
			_, accuracy := score("world_model_accuracy")
			assert.False(t, consistency, "%s: state consistency scored", ag.name)
			assert.False(t, accuracy, "%s: world-model accuracy scored", ag.name)
		case "":
		default:
			v, ok := score(ag.probe)
			require.True(t, ok, "%s: %s not measured", ag.name, ag.probe)
			assert.LessOrEqual(t, v, ag.max, "%s games %s", ag.name, ag.probe)
		}
	}
	// Alternating two moves is nearly all valid actions (about 95%, more
	// than the explorer's) and must not count as more effective than
	// random play.
	assert.GreaterOrEqual(t, effective["random"], effective["oscillating mover"], "effective actions: random ≥ the oscillating mover")
	assert.Positive(t, effective["random"])
	t.Logf("%d tasks (obtain, collect, obtain_return, waypoints, achievements × medium, hard, expert × 2 eval seeds, 150 steps):\n%s", len(specs), table.String())
}
