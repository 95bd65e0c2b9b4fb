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
// succeed, and the things it remembers out of view (remember), (under
// full observability every belief would be a copy of the observation, so
// it states none). Its prediction comes from one of these models:
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
	// modelNone: no prediction.
	modelNone = ""
)

// What it claims to remember out of view:
const (
	// rememberSeen: for each material but the ground (grass, sand,
	// path), the nearest tile of it in the last view that showed one,
	// kept in its own frame (the offset from its start) and forgotten
	// when a later view shows the tile changed; claimed while out of
	// view. The agent's own memory: only what its views showed.
	rememberSeen = "seen"
	// rememberEdge: what the view shows at its edge, one tile past it in
	// each direction (the view extended, not remembered), which must
	// score no skill.
	rememberEdge = "edge"
	// rememberShifted: rememberSeen one tile east of where it saw each
	// thing, a memory that is near but not exact.
	rememberShifted = "shifted"
	// rememberNone: nothing.
	rememberNone = ""
)

// claimStyle is what a claimer claims: its prediction model, what it
// remembers, and whether it states where it is from its start.
type claimStyle struct {
	model, remember string
	position        bool
}

// claimer is the player.Player of a claiming agent. The world reaches it
// through claimingAgent, a test's side channel no transport has.
type claimer struct {
	policy agent.Agent
	style  claimStyle
	full   bool       // full observability: no belief stated
	win    sim.Window // the view its observation covers

	w     *sim.World
	last  *sim.Outcome
	clone *sim.World

	// Its memory: the offset from the start, the learned model, and
	// where it last saw each material (in its own frame).
	dx, dy  int
	learned map[learnedKey]map[string]int // what each key led to (an Expect's JSON), how often
	seen    [sim.MaxMaterials]sighting
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

// sighting is where the claimer last saw a material, from its start.
type sighting struct {
	x, y int
	ok   bool
}

func (c *claimer) Reset(context.Context, string) error {
	c.dx, c.dy, c.learned, c.decided, c.seen = 0, 0, map[learnedKey]map[string]int{}, false, [sim.MaxMaterials]sighting{}
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
		if c.decided && c.style.model == modelLearned {
			c.learn(w)
		}
	}
	c.look(w)
	a := c.policy.Act(w, c.last)
	reply := protocol.Reply{Action: r.Actions[a].Name}
	if !c.full {
		b := &protocol.Belief{}
		if c.style.position {
			b.FromStart = &protocol.Offset{X: c.dx, Y: c.dy}
		}
		switch c.style.remember {
		case rememberSeen:
			b.Remembered = c.recall(w)
		case rememberShifted:
			b.Remembered = c.recall(w)
			for i := range b.Remembered {
				b.Remembered[i].DX++
			}
		case rememberEdge:
			b.Remembered = c.extend(w)
		}
		if b.FromStart != nil || len(b.Remembered) > 0 {
			reply.Belief = b
		}
	}
	switch c.style.model {
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

// ground is what rememberSeen does not bother to remember.
func ground(m sim.Material) bool {
	return m == sim.MatNone || m == sim.MatGrass || m == sim.MatSand || m == sim.MatPath
}

// look updates the memory of materials from the view: a remembered tile
// now in view that no longer holds its material is forgotten, and the
// nearest tile of each material in view (as the text names it) is
// remembered.
func (c *claimer) look(w *sim.World) {
	px, py := w.Player()
	for m := range c.seen {
		s := &c.seen[m]
		ox, oy := s.x-c.dx, s.y-c.dy
		if s.ok && c.inView(ox, oy) && w.Material(px+ox, py+oy) != sim.Material(m) {
			s.ok = false
		}
	}
	var near [sim.MaxMaterials]int
	for oy := -c.win.HalfH; oy <= c.win.HalfH; oy++ {
		for ox := -c.win.HalfW; ox <= c.win.HalfW; ox++ {
			m := w.Material(px+ox, py+oy)
			if ground(m) {
				continue
			}
			d := abs(ox) + abs(oy) + 1
			if near[m] == 0 || d < near[m] {
				near[m], c.seen[m] = d, sighting{x: c.dx + ox, y: c.dy + oy, ok: true}
			}
		}
	}
}

// recall claims the remembered materials that lie out of view, at most
// protocol.MaxRemembered, by material.
func (c *claimer) recall(w *sim.World) []protocol.Thing {
	var things []protocol.Thing
	for m, s := range c.seen {
		ox, oy := s.x-c.dx, s.y-c.dy
		if s.ok && !c.inView(ox, oy) && len(things) < protocol.MaxRemembered {
			things = append(things, protocol.Thing{Kind: w.Rules().Materials[m].Name, DX: ox, DY: oy})
		}
	}
	return things
}

// extend claims that the tile one past the view's edge, east, west,
// north and south of the player and two tiles aside, holds what the edge
// tile holds.
func (c *claimer) extend(w *sim.World) []protocol.Thing {
	px, py := w.Player()
	hw, hh := c.win.HalfW, c.win.HalfH
	var things []protocol.Thing
	for _, e := range [][4]int{ // the edge tile, the tile past it
		{hw, 0, hw + 1, 0}, {-hw, 0, -hw - 1, 0}, {0, hh, 0, hh + 1}, {0, -hh, 0, -hh - 1},
		{hw, 2, hw + 1, 2}, {-hw, 2, -hw - 1, 2}, {2, hh, 2, hh + 1}, {2, -hh, 2, -hh - 1},
	} {
		if m := w.Material(px+e[0], py+e[1]); m != sim.MatNone {
			things = append(things, protocol.Thing{Kind: w.Rules().Materials[m].Name, DX: e[2], DY: e[3]})
		}
	}
	return things
}

func (c *claimer) inView(ox, oy int) bool { return abs(ox) <= c.win.HalfW && abs(oy) <= c.win.HalfH }

func abs(v int) int { return max(v, -v) }

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
// model, where it is and what it remembers having seen, as the runner
// plays an external player (the full outcome after each step, the last
// prediction scored at the end), and returns the result with its probe
// scores.
func playClaiming(t testing.TB, spec task.Spec, name, model string) results.Result {
	res, _ := playClaimingStyle(t, spec, name, claimStyle{model: model, remember: rememberSeen, position: true})
	return res
}

// playClaimingStyle is playClaiming claiming by style, also returning the
// player's accounting (its remembered things' part apart).
func playClaimingStyle(t testing.TB, spec task.Spec, name string, style claimStyle) (results.Result, player.Stats) {
	tk, frozen, err := suite.Frozen(spec) // an embedded suite's task as its lock has it
	if !frozen && err == nil {
		tk, err = task.Generate(spec, nil)
	}
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	pol, err := agent.New(name, tk, agent.Options{})
	require.NoError(t, err)
	c := &claimer{policy: pol, style: style, full: tk.Observability == task.Full, win: tk.View.Window()}
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
	res := results.Result{ID: spec.ID(), Spec: spec, Agent: name + "+" + style.model, Seed: tk.Seed,
		Observability: string(tk.Observability), Feedback: string(tk.Feedback), Ruleset: w.Rules().Name, Metrics: e.Metrics()}
	externalStats(&res, ag.Stats(), 0, 0)
	return res, ag.Stats()
}

// TestBuiltinProbeSkill plays the explorer and the planner as claiming
// agents and logs their probe figures (the closing note): the
// learned model is their own, the perfect model the metric's ceiling on
// their steps; claiming "nothing changes" must show no skill, and the
// learned model must fall between the two. What they remember of things
// out of view (the state skill's part about remembered things, alone)
// must show skill.
//
// -probe-suite NAME plays an embedded suite's primitive-level episodes
// instead of the 18-task sample (9 under -short) (go test ./bench/run -run
// TestBuiltinProbeSkill -v -probe-suite standard: 3.5 minutes on two
// cores).
func TestBuiltinProbeSkill(t *testing.T) {
	t.Parallel()
	var specs []task.Spec
	seeds := uint64(2)
	if testing.Short() {
		seeds = 1 // 9 tasks: make test runs this under the race detector
	}
	for _, fam := range []string{task.FamilyObtain, task.FamilyCollect, task.FamilyAchievements} {
		for _, tier := range []string{"easy", "medium", "hard"} {
			for i := range seeds {
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
		var remembered []results.Result
		for _, model := range []string{modelLearned, modelPerfect, modelNothing} {
			var rows []results.Result
			for _, spec := range specs {
				res, st := playClaimingStyle(t, spec, name, claimStyle{model: model, remember: rememberSeen, position: true})
				rows = append(rows, res)
				if model == modelLearned {
					remembered = append(remembered, rememberedPart(res, st))
				}
			}
			o := results.Summarize("probes", name+"+"+model, rows).Overall
			t.Logf("%-9s %-8s world-model skill %s, state skill %s, accuracy %.3f, effective %.3f",
				name, model, showSkill(o.WorldModelSkill), showSkill(o.StateSkill), o.Metrics["world_model_accuracy"].Mean, o.Metrics["effective_action_ratio"].Mean)
			require.NotNil(t, o.WorldModelSkill, "%s %s", name, model)
			skill[model] = o.WorldModelSkill
		}
		r := results.Summarize("probes", name+"+remembered", remembered).Overall
		var right, baseline, persistence, baseRate int
		for _, res := range remembered {
			right, baseline, persistence, baseRate = right+res.BeliefClaimsRight, baseline+res.BeliefBaseline, persistence+res.BeliefPersistence, baseRate+res.BeliefBaseRate
		}
		t.Logf("%-9s remembered things: state skill %s, claims right %.3f (episode mean); right %d, baseline %d (persistence %d, base rate %d)",
			name, showSkill(r.StateSkill), r.Metrics["state_consistency"].Mean, right, baseline, persistence, baseRate)
		require.NotNil(t, r.StateSkill, name)
		assert.Greater(t, r.StateSkill.Low, 0.0, "%s: remembering what it saw out of view shows skill", name)
		assert.LessOrEqual(t, skill[modelNothing].High, 0.0, "%s: claiming nothing changes has no skill", name)
		assert.Greater(t, skill[modelPerfect].Low, 0.9, "%s: a perfect model", name)
		assert.Greater(t, skill[modelLearned].Skill, skill[modelNothing].Skill, "%s: its own model beats claiming nothing changes", name)
		assert.Less(t, skill[modelLearned].Skill, skill[modelPerfect].Skill, "%s: and falls short of a perfect one", name)
	}
}

// rememberedPart is res with its belief figures those of its remembered
// things alone (st.Remembered), for a summary of them apart.
func rememberedPart(res results.Result, st player.Stats) results.Result {
	b := st.Remembered
	res.BeliefClaims, res.BeliefClaimsRight, res.BeliefPersistence, res.BeliefBaseRate, res.BeliefBaseline = b.Claims, b.Right, b.Persistence, b.BaseRate, b.Baseline
	res.StateSkill = episode.ProbeSkill(b.Right, b.Baseline, b.Claims)
	res.StateConsistency = episode.Measure{}
	if b.Claims > 0 {
		res.StateConsistency = episode.Measured(float64(b.Right) / float64(b.Claims))
	}
	return res
}

var probeSuite = flag.String("probe-suite", "", "TestBuiltinProbeSkill: an embedded suite to play instead of the sample")

// showSkill writes a probe skill with its claims and interval.
func showSkill(s *results.ProbeSkill) string {
	if s == nil {
		return "not measured"
	}
	return fmt.Sprintf("%+.3f [%+.3f, %+.3f] (%d claims, %d episodes)", s.Skill, s.Low, s.High, s.Claims, s.Episodes)
}
