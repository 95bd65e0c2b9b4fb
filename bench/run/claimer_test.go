package run

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// A claimer plays a built-in agent (explorer, planner, random, …) as an
// external player that states beliefs and predictions, so that the
// probes, which only external players answer, can be measured on the
// built-in agents. It is scored by the evaluator's own code (player.Agent
// through externalStats), exactly as an exec or openai player is.
//
// Its belief is always from its own memory: under partial observability,
// where it is relative to its start, by adding up the moves it read
// succeed (under full observability every belief would be a copy of the
// observation, so it states none). Its prediction comes from one of these
// models:
const (
	// modelPerfect: a clone of the world, stepped with the chosen action —
	// a perfect world model, the reference a probe's skill tops out at on
	// that agent's steps. It reads the hidden state, so it measures the
	// metric, never an agent.
	modelPerfect = "perfect"
	// modelLearned: what happened most often when the agent took this
	// action towards this kind of tile (the faced one, or for a move the
	// one it moves onto: both stated by the observation), learned online
	// from the outcomes and inventories it read; untried, a move is
	// predicted to move and anything else to do nothing. The agent's own
	// model: it uses nothing the observation does not show.
	modelLearned = "learned"
	// modelNothing: "nothing changes" every step (the persistence
	// baseline itself, as a claim), which must score no skill.
	modelNothing = "nothing"
)

// claimer is the player.Player of a claiming agent. The world reaches it
// through claimingAgent, a test's side channel no transport has.
type claimer struct {
	policy agent.Agent
	model  string
	full   bool // full observability: no belief stated

	w     *sim.World
	last  *sim.Outcome
	clone *sim.World

	// Its memory: the offset from the start, and the learned model.
	dx, dy  int
	learned map[learnedKey]map[string]int // what each key led to (an Expect's JSON), how often
	// The previous decision, for learning from its outcome.
	prevKey learnedKey
	prevInv [sim.MaxItems]int
	decided bool
}

// learnedKey is what the learned model conditions on: the action and the
// faced tile's material and object kind, and whether it sleeps.
type learnedKey struct {
	action   sim.Action
	material sim.Material
	object   int
	asleep   bool // "You are asleep.": every action sleeps on
}

func (c *claimer) Reset(context.Context, string) error {
	c.dx, c.dy, c.learned, c.decided = 0, 0, map[learnedKey]map[string]int{}, false
	return nil
}

func (c *claimer) Close() error { return nil }

func (c *claimer) Act(_ context.Context, _ *protocol.Observation) (string, player.Usage, error) {
	w, r := c.w, c.w.Rules()
	if c.last != nil {
		if c.last.Kind == sim.OutMoved {
			ddx, ddy := r.Actions[c.last.Action].Dir.Offset()
			c.dx, c.dy = c.dx+ddx, c.dy+ddy
		}
		if c.decided && c.model == modelLearned {
			c.learn(w)
		}
	}
	a := c.policy.Act(w, c.last)
	reply := protocol.Reply{Action: r.Actions[a].Name}
	if !c.full {
		reply.Belief = &protocol.Belief{FromStart: &protocol.Offset{X: c.dx, Y: c.dy}}
	}
	switch c.model {
	case modelPerfect:
		reply.Expect = c.perfect(a)
	case modelLearned:
		reply.Expect = c.predictLearned(w, a)
	case modelNothing:
		reply.Expect = &protocol.Expect{Outcome: sim.OutNothing.String(), Inventory: map[string]int{"wood": 0}}
	}
	c.prevKey, c.decided = c.key(w, a), true
	for it := range r.Items {
		c.prevInv[it] = w.Inventory(sim.Item(it))
	}
	raw, err := json.Marshal(reply)
	return string(raw), player.Usage{Calls: 1}, err
}

// key is what the learned model conditions on, as the observation states
// it ("in front of you: …", and the view around): the action and the
// tile it acts on.
func (c *claimer) key(w *sim.World, a sim.Action) learnedKey {
	tx, ty := w.Target()
	if info := w.Rules().Actions[a]; info.Kind == sim.ActionMove {
		x, y := w.Player()
		dx, dy := info.Dir.Offset()
		tx, ty = x+dx, y+dy
	}
	k := learnedKey{action: a, object: -1, asleep: w.Sleeping()}
	if w.Inside(tx, ty) {
		k.material = w.Material(tx, ty)
	}
	if o, ok := w.ObjectAt(tx, ty); ok {
		k.object = int(o.Kind)
	}
	return k
}

// learn records what the previous decision did, as the agent read it.
func (c *claimer) learn(w *sim.World) {
	r := w.Rules()
	e := protocol.Expect{Outcome: c.last.Kind.String(), Inventory: map[string]int{}}
	for it := range r.Items {
		if d := w.Inventory(sim.Item(it)) - c.prevInv[it]; d != 0 && !r.Items[it].Vital {
			e.Inventory[r.Items[it].Name] = d
		}
	}
	raw, _ := json.Marshal(e)
	if c.learned[c.prevKey] == nil {
		c.learned[c.prevKey] = map[string]int{}
	}
	c.learned[c.prevKey][string(raw)]++
}

func (c *claimer) predictLearned(w *sim.World, a sim.Action) *protocol.Expect {
	if seen := c.learned[c.key(w, a)]; len(seen) > 0 {
		best, n := "", 0
		for raw, k := range seen {
			if k > n || k == n && raw < best {
				best, n = raw, k
			}
		}
		var e protocol.Expect
		_ = json.Unmarshal([]byte(best), &e)
		return &e
	}
	if w.Rules().Actions[a].Kind == sim.ActionMove {
		return &protocol.Expect{Outcome: sim.OutMoved.String()}
	}
	return &protocol.Expect{Outcome: sim.OutNothing.String()}
}

// perfect steps a copy of the world: the outcome and every count that
// changes.
func (c *claimer) perfect(a sim.Action) *protocol.Expect {
	if c.clone == nil {
		c.clone = c.w.Clone()
	} else {
		c.clone.CopyFrom(c.w)
	}
	out := c.clone.Step(a)
	r := c.w.Rules()
	e := &protocol.Expect{Outcome: out.Kind.String(), Inventory: map[string]int{}}
	for it := range r.Items {
		if d := c.clone.Inventory(sim.Item(it)) - c.w.Inventory(sim.Item(it)); d != 0 {
			e.Inventory[r.Items[it].Name] = d
		}
	}
	return e
}

// claimingAgent hands the claimer the world before each decision.
type claimingAgent struct {
	*player.Agent
	c *claimer
}

func (a claimingAgent) Act(w *sim.World, last *sim.Outcome) sim.Action {
	a.c.w, a.c.last = w, last
	return a.Agent.Act(w, last)
}

// playClaiming plays spec with the built-in agent name stating claims by
// model, as the runner plays an external player (the full outcome after
// each step, the last prediction scored at the end), and returns the
// result with its probe scores.
func playClaiming(t testing.TB, spec task.Spec, name, model string) results.Result {
	tk, frozen, err := suite.Frozen(spec) // an embedded suite's task as its lock has it
	if !frozen && err == nil {
		tk, err = task.Generate(spec, nil)
	}
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	pol, err := agent.New(name, tk, agent.Options{})
	require.NoError(t, err)
	c := &claimer{policy: pol, model: model, full: tk.Observability == task.Full}
	pa, err := player.NewAgent(context.Background(), c, tk, player.AgentOptions{}, nil)
	require.NoError(t, err)
	ag := claimingAgent{pa, c}
	pol.Reset(tk.Seed)
	ag.Reset(tk.Seed)
	e := episode.New(tk, w, episode.Options{})
	for !e.Over() {
		e.Step(ag.Act(w, e.Last()))
		ag.Observed(e.LastFull())
	}
	ag.Finish(w, e.Last())
	res := results.Result{ID: spec.ID(), Spec: spec, Agent: name + "+" + model, Seed: tk.Seed,
		Observability: string(tk.Observability), Feedback: string(tk.Feedback), Ruleset: w.Rules().Name, Metrics: e.Metrics()}
	externalStats(&res, ag.Stats(), 0, 0)
	return res
}

// TestBuiltinProbeSkill plays the explorer and the planner as claiming
// agents and logs their probe figures (the closing note): the
// learned model is their own, the perfect model the metric's ceiling on
// their steps; claiming "nothing changes" must show no skill, and the
// learned model must fall between the two.
//
// -probe-suite NAME plays an embedded suite's primitive-level episodes
// instead of the 18-task sample (go test ./bench/run -run
// TestBuiltinProbeSkill -v -probe-suite standard: 3.5 minutes on two
// cores).
func TestBuiltinProbeSkill(t *testing.T) {
	t.Parallel()
	var specs []task.Spec
	for _, fam := range []string{task.FamilyObtain, task.FamilyCollect, task.FamilyAchievements} {
		for _, tier := range []string{"easy", "medium", "hard"} {
			for i := range uint64(2) {
				specs = append(specs, task.Spec{Family: fam, Tier: tier, Split: task.Eval, Index: 200 + i, Budget: 300})
			}
		}
	}
	if *probeSuite != "" {
		s, err := suite.Load(*probeSuite)
		require.NoError(t, err)
		specs = nil
		for _, sp := range s.Expand() {
			if sp.Scenario == nil || sp.Scenario.Actions != task.ActionsSkills {
				specs = append(specs, sp)
			}
		}
	}
	for _, name := range []string{"explorer", "planner"} {
		skill := map[string]*results.ProbeSkill{}
		for _, model := range []string{modelLearned, modelPerfect, modelNothing} {
			var rows []results.Result
			for _, spec := range specs {
				rows = append(rows, playClaiming(t, spec, name, model))
			}
			o := results.Summarize("probes", name+"+"+model, rows).Overall
			t.Logf("%-9s %-8s world-model skill %s, state skill %s, accuracy %.3f, effective %.3f",
				name, model, showSkill(o.WorldModelSkill), showSkill(o.StateSkill), o.Metrics["world_model_accuracy"].Mean, o.Metrics["effective_action_ratio"].Mean)
			require.NotNil(t, o.WorldModelSkill, "%s %s", name, model)
			skill[model] = o.WorldModelSkill
		}
		assert.LessOrEqual(t, skill[modelNothing].High, 0.0, "%s: claiming nothing changes has no skill", name)
		assert.Greater(t, skill[modelPerfect].Low, 0.9, "%s: a perfect model", name)
		assert.Greater(t, skill[modelLearned].Skill, skill[modelNothing].Skill, "%s: its own model beats claiming nothing changes", name)
		assert.Less(t, skill[modelLearned].Skill, skill[modelPerfect].Skill, "%s: and falls short of a perfect one", name)
	}
}

var probeSuite = flag.String("probe-suite", "", "TestBuiltinProbeSkill: an embedded suite to play instead of the sample")

// showSkill writes a probe skill with its claims and interval.
func showSkill(s *results.ProbeSkill) string {
	if s == nil {
		return "not measured"
	}
	return fmt.Sprintf("%+.3f [%+.3f, %+.3f] (%d claims, %d episodes)", s.Skill, s.Low, s.High, s.Claims, s.Episodes)
}
