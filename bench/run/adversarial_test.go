package run

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
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
	seeds := uint64(2)
	if testing.Short() {
		seeds = 1 // 15 tasks: make test runs this under the race detector
	}
	for _, fam := range []string{task.FamilyObtain, task.FamilyCollect, task.FamilyObtainReturn, task.FamilyWaypoints, task.FamilyAchievements} {
		for _, tier := range []string{"medium", "hard", "expert"} {
			for i := range seeds {
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
	// An agent playing varied actions that claims, every step, to hold
	// no diamond and to expect no diamond: true every time, and known by
	// anyone (v2 scored it 100% consistent and 100% accurate).
	var diamond []string
	for _, a := range []string{"move_left", "do", "move_up", "noop", "move_right", "do", "move_down", "place_table", "sleep"} {
		diamond = append(diamond, fmt.Sprintf(`{"action": %q, "belief": {"inventory": {"diamond": 0}}, "expect": {"inventory": {"diamond": 0}}}`, a))
	}
	// The same agent, claiming every step to remember the same things at
	// the same offsets out of view: grass 10 tiles east, water 7 west and
	// 5 south, a tree 9 north.
	var constant []string
	for _, a := range []string{"move_left", "do", "move_up", "noop", "move_right", "do", "move_down", "place_table", "sleep"} {
		constant = append(constant, fmt.Sprintf(`{"action": %q, "belief": {"remembered": [{"kind": "grass", "dx": 10, "dy": 0}, {"kind": "water", "dx": -7, "dy": 5}, {"kind": "tree", "dx": 0, "dy": -9}]}}`, a))
	}
	probes := []string{"state_consistency", "state_skill", "world_model_accuracy", "world_model_skill"}
	agents := []struct {
		name   string
		agent  string
		script []string
		// copier: a model that copies its observation's inventory and
		// coordinates into its belief (copyModel).
		copier bool
		// claiming: the agent plays as a claimer with this model
		// (claimer_test.go), not through the runner's registry; style:
		// as a claimer claiming so.
		claiming string
		style    *claimStyle
		// full: the tasks under full observability.
		full bool
		// Probes that must not be measured; probes that must be, with
		// their ceiling, or their floor.
		unscored []string
		ceiling  map[string]float64
		floor    map[string]float64
		// reference: not an adversary (it may succeed by chance); the
		// random agent is the floor the others' effective actions are held to.
		reference bool
		// serial: one worker, so that a script of several replies (or the
		// copier's moves) plays them in turn within each episode (two
		// workers interleave them).
		serial bool
	}{
		{name: "random", agent: "random", reference: true},
		{name: "explorer", agent: "explorer", reference: true},
		{name: "noop", agent: "noop"},
		{name: "oscillating mover", script: []string{`{"action": "move_left"}`, `{"action": "move_right"}`}, serial: true},
		{name: "always do", script: []string{`{"action": "do"}`}},
		{name: "fixed plan", script: script},
		{name: "empty beliefs and predictions", script: []string{`{"action": "noop", "belief": {}, "expect": {}}`}, unscored: probes},
		{name: "always predicts moved", script: []string{`{"action": "do", "expect": {"outcome": "moved"}}`},
			ceiling: map[string]float64{"world_model_accuracy": 0, "world_model_skill": 0}},
		{name: "position it cannot see", script: []string{`{"action": "noop", "belief": {"x": 32, "y": 32}}`}, unscored: probes},
		{name: "always diamond: 0", script: diamond, unscored: []string{"state_consistency", "state_skill"},
			ceiling: map[string]float64{"world_model_skill": 0}},
		{name: "always remembers the same things", script: constant, serial: true, unscored: []string{"world_model_accuracy", "world_model_skill"},
			ceiling: map[string]float64{"state_skill": 0}},
		{name: "always remembers grass 10 east", script: []string{`{"action": "move_left", "belief": {"remembered": [{"kind": "grass", "dx": 10, "dy": 0}]}}`, `{"action": "move_up", "belief": {"remembered": [{"kind": "grass", "dx": 10, "dy": 0}]}}`,
			`{"action": "move_right", "belief": {"remembered": [{"kind": "grass", "dx": 10, "dy": 0}]}}`, `{"action": "move_down", "belief": {"remembered": [{"kind": "grass", "dx": 10, "dy": 0}]}}`},
			serial: true, unscored: []string{"world_model_accuracy", "world_model_skill"}, ceiling: map[string]float64{"state_skill": 0}},
		// The explorer (a reference: it may succeed), claiming what the
		// view shows at its edge one tile past it.
		{name: "remembers its view extended", style: &claimStyle{remember: rememberEdge}, reference: true, unscored: []string{"world_model_accuracy", "world_model_skill"},
			ceiling: map[string]float64{"state_skill": 0}},
		// The copier's moves come from one counter over all its requests:
		// with two workers, which episode gets which move followed the
		// workers' timing, and one interleaving in several (seen under
		// the race detector on a loaded machine) walked its cycle of
		// moves and "do" into 7 wood on a hard collect task. One worker
		// plays the same moves in every run.
		{name: "copies its observation", copier: true, unscored: probes, serial: true},
		{name: "copies its full observation", copier: true, full: true, unscored: probes, serial: true},
		{name: "garbage", script: []string{"I will win.", `{"act": "win"}`, "```json\n{}\n```"}},
		// An honest agent: the explorer, predicting by stepping a copy of
		// the world and stating where it is from its own moves.
		{name: "honest (perfect model)", claiming: modelPerfect, reference: true,
			floor: map[string]float64{"world_model_skill": 0.9, "state_skill": 0.5}},
		// The explorer, stating only the things it remembers seeing
		// that are out of view.
		{name: "honest (remembers what it saw)", style: &claimStyle{remember: rememberSeen}, reference: true,
			unscored: []string{"world_model_accuracy", "world_model_skill"}, floor: map[string]float64{"state_skill": 0.5}},
		// … and remembering each thing one tile east of where it was.
		// A tile is claimed exactly: near is not right.
		{name: "remembers one tile off", style: &claimStyle{remember: rememberShifted}, reference: true,
			unscored: []string{"world_model_accuracy", "world_model_skill"}, ceiling: map[string]float64{"state_skill": 0}},
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-32s %9s %7s %9s %12s %12s %14s %14s %8s\n", "agent", "success", "valid", "effective", "consistency", "world model", "state skill", "model skill", "invalid")
	effective := map[string]float64{}
	for _, ag := range agents {
		cfg := Config{Agent: ag.agent, Workers: 2}
		if ag.serial {
			cfg.Workers = 1
		}
		if ag.script != nil || ag.copier {
			srv := copyModel(t)
			if !ag.copier {
				srv = scriptModel(t, ag.script...)
			}
			cfg.Agent, cfg.External = "openai", agent.External{Model: "fake", BaseURL: srv.URL}
		}
		played := specs
		if ag.full {
			played = nil
			for _, sp := range specs {
				sp.Observability = task.Full
				played = append(played, sp)
			}
		}
		var rows []results.Result
		switch {
		case ag.claiming != "":
			for _, sp := range played {
				rows = append(rows, playClaiming(t, sp, "explorer", ag.claiming))
			}
		case ag.style != nil:
			for _, sp := range played {
				res, _ := playClaimingStyle(t, sp, "explorer", *ag.style)
				rows = append(rows, res)
			}
		default:
			require.NoError(t, Suite(context.Background(), played, idx, cfg, func(d Done) error {
				rows = append(rows, d.Result)
				return nil
			}), ag.name)
		}
		s := results.Summarize("adversarial", ag.name, rows)
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
		fmt.Fprintf(&table, "%-32s %4d/%-4d %7s %9s %12s %12s %14s %14s %8.0f\n", ag.name, o.Successes, o.Episodes,
			shown("valid_action_ratio"), shown("effective_action_ratio"),
			shown("state_consistency"), shown("world_model_accuracy"), shownSkill(o.StateSkill), shownSkill(o.WorldModelSkill), o.Metrics["invalid_outputs"].Mean)
		if ag.copier {
			copies := 0
			for _, r := range rows {
				copies += r.BeliefCopies
			}
			assert.Positive(t, copies, "%s: its beliefs are counted as copies", ag.name)
		}
		for _, k := range ag.unscored {
			_, ok := score(k)
			assert.False(t, ok, "%s: %s scored", ag.name, k)
		}
		for k, most := range ag.ceiling {
			v, ok := score(k)
			require.True(t, ok, "%s: %s not measured", ag.name, k)
			assert.LessOrEqual(t, v, most, "%s games %s", ag.name, k)
		}
		for k, least := range ag.floor {
			v, ok := score(k)
			require.True(t, ok, "%s: %s not measured", ag.name, k)
			assert.Greater(t, v, least, "%s: %s", ag.name, k)
		}
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
	}
	// Alternating two moves is nearly all valid actions (about 95%, more
	// than the explorer's) and must not count as more effective than
	// random play.
	assert.GreaterOrEqual(t, effective["random"], effective["oscillating mover"], "effective actions: random ≥ the oscillating mover")
	assert.Positive(t, effective["random"])
	t.Logf("%d tasks (obtain, collect, obtain_return, waypoints, achievements × medium, hard, expert × 2 eval seeds, 150 steps):\n%s", len(specs), table.String())
}

// shownSkill writes a group's probe skill as the table shows it.
func shownSkill(s *results.ProbeSkill) string {
	if s == nil {
		return "not measured"
	}
	return fmt.Sprintf("%+.2f (%d)", s.Skill, s.Claims)
}

// copyModel is an OpenAI-compatible server whose model copies what its
// observation states into its belief: the inventory line, the things in
// view the text lists (as remembered things), and the coordinates when
// the text gives them (full observability); it walks in turn east,
// south, west, north and does, so that they change.
func copyModel(t *testing.T) *httptest.Server {
	var n atomic.Int64
	inventory := regexp.MustCompile(`Inventory: ([^\n]*)\.`)
	at := regexp.MustCompile(`x=(\d+), y=(\d+)`)
	sighting := regexp.MustCompile(`(?m)^- ([a-z ]+): ([^(\n]*)`)
	actions := []string{"move_right", "move_down", "move_left", "move_up", "do"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		var text string
		_ = json.Unmarshal(req.Messages[len(req.Messages)-1].Content, &text)
		belief := map[string]any{}
		held := map[string]int{}
		if m := inventory.FindStringSubmatch(text); m != nil && m[1] != "empty" {
			for _, part := range strings.Split(m[1], ", ") {
				var k int
				var name string
				if _, err := fmt.Sscanf(part, "%d %s", &k, &name); err == nil {
					held[name] = k
				}
			}
		}
		belief["inventory"] = held
		var seen []map[string]any
		for _, m := range sighting.FindAllStringSubmatch(text, -1) {
			dx, dy := parseOffset(strings.TrimSpace(m[2]))
			seen = append(seen, map[string]any{"kind": m[1], "dx": dx, "dy": dy})
		}
		belief["remembered"] = seen
		if m := at.FindStringSubmatch(text); m != nil {
			x, _ := strconv.Atoi(m[1])
			y, _ := strconv.Atoi(m[2])
			belief["x"], belief["y"] = x, y
			belief["from_start"] = map[string]int{"x": 0, "y": 0}
		}
		reply, _ := json.Marshal(map[string]any{"action": actions[int(n.Add(1)-1)%len(actions)], "belief": belief})
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": string(reply)}}},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// parseOffset reads the text observation's offset ("2 north, 3 west").
func parseOffset(s string) (dx, dy int) {
	for _, part := range strings.Split(s, ", ") {
		var k int
		var dir string
		if _, err := fmt.Sscanf(part, "%d %s", &k, &dir); err != nil {
			continue
		}
		switch dir {
		case "east":
			dx = k
		case "west":
			dx = -k
		case "south":
			dy = k
		case "north":
			dy = -k
		}
	}
	return dx, dy
}
