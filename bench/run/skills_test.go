package run

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
)

// TestSkillEpisodeReplays plays the explorer-chain reference with the
// learner and checks that its trace replays bit-exactly twice over: from
// its primitive actions (trace.Run, through encode and decode, rebuilding
// the scenario from the trace alone), and from its recorded skill
// commands through a fresh episode (the same actions, the same final
// hash).
func TestSkillEpisodeReplays(t *testing.T) {
	s, err := suite.Load("explorer-chain")
	require.NoError(t, err)
	sp := s.Expand()[0]
	res, ep := PlayTrace(sp, Config{Agent: "explorer", Certify: true})
	require.Empty(t, res.Err)
	require.NotEmpty(t, ep.Decisions)
	assert.Equal(t, len(ep.Decisions), res.Decisions)
	assert.Equal(t, ep.Header.Task.Scenario.Name, "compass-8")

	data, err := trace.MarshalEpisode(ep)
	require.NoError(t, err)
	back, err := trace.UnmarshalEpisode(data)
	require.NoError(t, err)
	require.NotNil(t, back.Header.Task.Scenario, "the scenario travels with the trace")
	assert.Equal(t, sp.ID(), back.Header.Task.ID())
	assert.Equal(t, ep.Decisions, back.Decisions)
	_, err = trace.Run(back)
	require.NoError(t, err, "replay from the primitive actions")

	// Again from the commands alone.
	tk, err := task.Rebuild(*back.Header.Task, back.Header.Seed)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	rec := trace.NewRecorder(tk.Budget)
	e := episode.New(tk, w, episode.Options{Recorder: rec})
	for _, d := range back.Decisions {
		e.SkillText(d.Skill)
	}
	again := e.Trace()
	assert.Equal(t, back.Actions, again.Actions)
	assert.Equal(t, back.Final, again.Final)
	assert.Equal(t, back.Decisions, again.Decisions)
}

// TestReferenceSetupsSeparateTheAgents: the floor, middle and ceiling of
// both reference suites are in order, and the multigoal grid pays 0.5 a
// waypoint and 1.0 for the last.
func TestReferenceSetupsSeparateTheAgents(t *testing.T) {
	rate := func(name, agent string, family string) (float64, float64) {
		s, err := suite.Load(name)
		require.NoError(t, err)
		n, won, ret := 0, 0, 0.0
		for _, sp := range s.Expand() {
			if sp.Family != family {
				continue
			}
			res := Play(sp, Config{Agent: agent, Certify: true})
			require.Empty(t, res.Err)
			n++
			if res.Success {
				won++
			}
			reward, _ := taskReward(res)
			ret += reward
		}
		return float64(won) / float64(n), ret / float64(n)
	}
	random, _ := rate("explorer-chain", "random", "compass-8")
	learner, _ := rate("explorer-chain", "explorer", "compass-8")
	oracle, _ := rate("explorer-chain", "planner", "compass-8")
	assert.Less(t, random, learner)
	assert.Less(t, learner, oracle+1e-9)
	assert.Equal(t, 1.0, oracle)

	wRandom, _ := rate("multigoal-grid", "random", "grid")
	wPlanner, ret := rate("multigoal-grid", "planner", "grid")
	assert.Less(t, wRandom, wPlanner)
	assert.Equal(t, 1.0, wPlanner)
	assert.InDelta(t, 2.0, ret, 1e-9, "0.5 + 0.5 + 1.0")
}

// taskReward reads the task_reward metric of a result.
func taskReward(r results.Result) (float64, bool) {
	for _, m := range results.Metrics() {
		if m.Name == "task_reward" {
			return m.Of(r)
		}
	}
	panic("no task_reward metric")
}

// TestSkillTaskRefusesPrimitiveAgents: a skill-level task played by an
// agent that only moves is an error, not a silent noop run.
func TestSkillTaskRefusesPrimitiveAgents(t *testing.T) {
	tk := referenceTask(t)
	src, err := agent.Open("trace:x.lctrace", agent.Options{Recorded: &agent.Recorded{}})
	require.NoError(t, err)
	_, err = src.NewDecider(tk)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plays primitive actions only")
	for _, name := range []string{"random", "explorer", "noop", "planner"} {
		src, err := agent.Open(name, agent.Options{})
		require.NoError(t, err)
		_, err = src.NewDecider(tk)
		assert.NoError(t, err, name)
	}
}

// TestInvalidSkillsCostDecisions: an agent that answers nonsense forever
// ends at the decision budget, having taken no step.
func TestInvalidSkillsCostDecisions(t *testing.T) {
	tk := referenceTask(t)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	e := episode.New(tk, w, episode.Options{})
	for i := 0; i < 1000 && !e.Over(); i++ {
		r := e.SkillText("dance wildly")
		assert.Equal(t, "invalid", r.Reason)
	}
	assert.Equal(t, task.EndDecisions, e.End())
	assert.Equal(t, tk.Decisions, e.Decisions())
	assert.Zero(t, e.Steps())
	assert.False(t, e.Success())
}

// TestScenarioErrorsNameLineAndField: a scenario's mistakes are reported
// at their line, with the field.
func TestScenarioErrorsNameLineAndField(t *testing.T) {
	base := "name: s\nscenarios:\n  - name: x\n    grid: 6\n    budget: 50\n"
	for yaml, want := range map[string]string{
		base + "    goal: {reach: [9, 9]}\n":                            "(9, 9) is outside the 6×6 map",
		base + "    goal: {fly: 3}\n":                                   ":6: field goal.fly: unknown goal",
		base + "    goal: {collect: compass}\n":                         "not a raw material",
		base + "    goal: {reach: [1, 1]}\n    colour: red\n":           ":7: field colour: unknown field",
		base + "    goal: {reach: [1, 1]}\n    map: \"@.\"\n":           "give one of map, map_file, grid and size",
		base + "    goal: {survive: 100}\n":                             "shorter than the survive goal",
		base + "    goal: {waypoints: {tour: 9}}\n":                     "1 to 8 waypoints",
		base + "    goal: {reach: [1, 1]}\n    decisions: 5\n":          "a decision budget is for actions: skills",
		base + "    goal: {reach: [1, 1]}\n    reward: {stage: 0.25}\n": "rewards are tenths",
	} {
		_, err := suite.Parse("s.yaml", []byte(yaml))
		require.Error(t, err, yaml)
		assert.Contains(t, err.Error(), want, yaml)
		assert.True(t, strings.HasPrefix(err.Error(), "s.yaml:"), err.Error())
	}
}

// TestUnsolvableScenarioIsAnError: a scenario the planner cannot solve is
// refused, not skipped.
func TestUnsolvableScenarioIsAnError(t *testing.T) {
	s, err := suite.Parse("s.yaml", []byte("name: s\nscenarios:\n  - name: walled\n    map: |\n      @.#.\n      ..#.\n      ###.\n      ....\n    spawn: false\n    goal: {reach: [3, 3]}\n    budget: 50\n"))
	require.NoError(t, err)
	_, err = task.GenerateWith(s.Expand()[0], certifiers(Certify))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot reach its goal")
}

// TestScenarioIDsHashTheScenario: two scenarios of one name and another
// map are other episodes.
func TestScenarioIDsHashTheScenario(t *testing.T) {
	one, err := suite.Parse("a.yaml", []byte("name: s\nscenarios:\n  - name: x\n    grid: 6\n    goal: {reach: [5, 5]}\n    budget: 50\n"))
	require.NoError(t, err)
	two, err := suite.Parse("b.yaml", []byte("name: s\nscenarios:\n  - name: x\n    grid: 7\n    goal: {reach: [5, 5]}\n    budget: 50\n"))
	require.NoError(t, err)
	assert.NotEqual(t, one.Expand()[0].ID(), two.Expand()[0].ID())
}

// TestOpenAIPlaysSkills: a model behind an OpenAI-compatible server plays
// the explorer-chain reference at the skill level. The fake model reads
// the last skill's result in its prompt and follows the missing items,
// as a model should; it checks that the system prompt is the skill
// prompt, and answers garbage once: an invalid decision, which takes no
// step and still counts against the budget of 8.
func TestOpenAIPlaysSkills(t *testing.T) {
	// The fake model explores the way the oracle does on this seed (each
	// seed turns, mirrors and moves the map's layout).
	s, err := suite.Load("explorer-chain")
	require.NoError(t, err)
	sp := s.Expand()[0]
	_, oracle := PlayTrace(sp, Config{Agent: "planner", Certify: true})
	explore := ""
	for _, d := range oracle.Decisions {
		if strings.HasPrefix(d.Skill, "explore ") && explore == "" {
			explore = d.Skill
		}
	}
	require.NotEmpty(t, explore, "the oracle explores to find the crystal")
	var calls atomic.Int64
	var sawSkillPrompt atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		system, _ := req.Messages[0].Content.(string)
		if strings.Contains(system, "Each decision you choose one skill") && strings.Contains(system, "make <item>") {
			sawSkillPrompt.Store(true)
		}
		user, _ := req.Messages[len(req.Messages)-1].Content.(string)
		n := calls.Add(1)
		action := "make compass"
		switch {
		case n == 2:
			action = "" // garbage below
		case strings.Contains(user, `"reason":"not_found"`):
			action = explore
		case strings.Contains(user, `"missing":["crystal"]`):
			action = "collect crystal"
		case strings.Contains(user, `"missing":["anvil"]`):
			action = "place anvil"
		case strings.Contains(user, `"skill":"`+explore+`","ok":true`):
			action = "collect crystal"
		}
		content := `{"action": "` + action + `", "reason": "follow the feedback"}`
		if action == "" {
			content = "hmm"
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
		})
	}))
	defer srv.Close()
	res, ep := PlayTrace(sp, Config{Agent: "openai", Certify: true, External: agent.External{Model: "fake", BaseURL: srv.URL, Retries: 1, History: 0}})
	require.Empty(t, res.Err)
	require.Empty(t, res.AgentError)
	assert.True(t, sawSkillPrompt.Load(), "the skill-level system prompt")
	// The feedback leads it to the crystal and the anvil, but the garbage
	// reply cost the eighth decision, which the compass needed.
	assert.False(t, res.Success)
	assert.Equal(t, "decisions", res.End)
	require.Len(t, ep.Decisions, 8)
	assert.Equal(t, "place anvil", ep.Decisions[7].Skill)
	assert.Equal(t, "ok", ep.Decisions[7].Result)
	assert.Equal(t, 1, res.InvalidOutputs)
	assert.Equal(t, int(calls.Load()), res.ModelCalls)
	assert.Equal(t, res.ModelCalls, res.Decisions, "one call a decision")
	assert.Equal(t, "invalid", ep.Decisions[1].Result)
	assert.Equal(t, ep.Decisions[1].Step, ep.Decisions[2].Step, "an invalid decision takes no step")
}

// TestScenarioListedTwiceIsRefused: the same scenario on overlapping seeds
// would be one episode twice.
func TestScenarioListedTwiceIsRefused(t *testing.T) {
	entry := "  - name: x\n    grid: 6\n    goal: {reach: [5, 5]}\n    budget: 50\n    seeds: {from: %d, count: 5}\n"
	_, err := suite.Parse("s.yaml", []byte("name: s\nscenarios:\n"+fmt.Sprintf(entry, 0)+fmt.Sprintf(entry, 3)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s.yaml:8: scenario x seed 3 is also listed at line 3")
	_, err = suite.Parse("s.yaml", []byte("name: s\nscenarios:\n"+fmt.Sprintf(entry, 0)+fmt.Sprintf(entry, 5)))
	require.NoError(t, err, "disjoint seeds")
}

// TestTimeoutCountsZeroStepDecisions: skills that fail without a step
// cannot outlast --timeout, and a decision after the end changes nothing.
func TestTimeoutCountsZeroStepDecisions(t *testing.T) {
	tk := referenceTask(t)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	now := time.Unix(0, 0)
	e := episode.New(tk, w, episode.Options{Timeout: time.Second, Now: func() time.Time { now = now.Add(time.Hour); return now }})
	e.SkillText("make wood_pickaxe") // cannot start: no step taken
	assert.Equal(t, task.EndTimeout, e.End())
	d := e.Decisions()
	e.SkillText("make wood_pickaxe")
	assert.Equal(t, d, e.Decisions(), "no decision after the end")
}

// referenceTask is the explorer-chain reference's first task, certified
// as score makes it.
func referenceTask(t *testing.T) *task.Task {
	t.Helper()
	s, err := suite.Load("explorer-chain")
	require.NoError(t, err)
	tk, err := task.GenerateWith(s.Expand()[0], certifiers(Certify))
	require.NoError(t, err)
	return tk
}
