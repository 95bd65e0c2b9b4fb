package task

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"sort"

	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Families of tasks.
const (
	FamilyAchievements = "achievements"  // Crafter's open-ended mode
	FamilyObtain       = "obtain"        // obtain one item, stated alone
	FamilyCollect      = "collect"       // collect N of a raw material
	FamilyObtainReturn = "obtain_return" // obtain an item, then return to the start
	FamilyWaypoints    = "waypoints"     // visit landmarks in order
	FamilySurvive      = "survive"       // stay alive N steps
)

// Families returns every task family.
func Families() []string {
	return []string{FamilyAchievements, FamilyObtain, FamilyCollect, FamilyObtainReturn, FamilyWaypoints, FamilySurvive}
}

// Spec identifies one episode of a suite. Zero fields take the tier's
// defaults. A spec always generates the same task.
type Spec struct {
	Family        string        `yaml:"family" json:"family" msgpack:"family"`
	Tier          string        `yaml:"tier" json:"tier" msgpack:"tier"`
	Split         Split         `yaml:"split" json:"split" msgpack:"split"`
	Index         uint64        `yaml:"index" json:"index" msgpack:"index"`
	Budget        int           `yaml:"budget,omitempty" json:"budget,omitempty" msgpack:"budget,omitempty"`
	Feedback      Feedback      `yaml:"feedback,omitempty" json:"feedback,omitempty" msgpack:"feedback,omitempty"`
	Observability Observability `yaml:"observability,omitempty" json:"observability,omitempty" msgpack:"observability,omitempty"`
	// Scenario is the episode's hand-written scenario (Family is its
	// label, Tier TierScenario); nil for a generated family's episode.
	Scenario *Scenario `yaml:"scenario,omitempty" json:"scenario,omitempty" msgpack:"scenario,omitempty"`
}

// ID is the episode's stable id: a hash of its spec's fields, so that
// expanding a suite gives the same ids in every version.
func (s Spec) ID() string {
	h := fnv.New64a()
	fmt.Fprintf(h, "longcraft-episode-v1\x00%s\x00%s\x00%s\x00%d\x00%d\x00%s\x00%s",
		s.Family, s.Tier, s.Split, s.Index, s.Budget, s.Feedback, s.Observability)
	if s.Scenario != nil {
		// Everything the scenario says is part of the episode: two
		// scenarios of one name but another map are other episodes.
		fmt.Fprintf(h, "\x00scenario\x00%s", s.Scenario.canonical())
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], h.Sum64())
	return "ep-" + hex.EncodeToString(b[:])
}

// Task is a generated, certified task: everything an evaluator needs to
// run and score one episode.
type Task struct {
	Spec          Spec
	ID            string
	Seed          uint64 `json:",string"` // the world's seed (after any regeneration); a string in JSON, exact for float64 readers
	Attempts      int    // generations tried before certification
	Ruleset       string
	MapSize       int
	Goal          Goal
	Budget        int
	Feedback      Feedback
	Observability Observability
	View          LocalView // a scenario's; Longcraft's 9×9 for every family
	Start         [2]int
	Landmarks     [][2]int // positions by label
	Depth         int      // obtain: hops of the target's chain
	Achieve       int      // achievements: how many unlocked count as success
	Milestones    []string // achievements along the way, shallowest first
	// Variants describes the rule changes of this seed, for the evaluator
	// only: agents never see them.
	Variants []string
	// Certified is true when the planner reached the goal within the
	// budget, after PlannerSteps steps.
	Certified    bool
	PlannerSteps int
	// Actions is the action level (primitive unless a scenario says
	// skills); Decisions the decision budget at the skill level (0: none).
	Actions   ActionLevel
	Decisions int
	// SaltCommitment is the commitment of the salt the task's world seed
	// was derived from (salt.go); "" on public seeds.
	SaltCommitment string

	rules     *sim.Rules
	layout    *layout // a scenario's map, start and goal as its seed lays them out
	statement string  // free play's own statement; "" for a generated task
}

// FreePlay is a plain seeded world played as a task without a goal: an
// achievements goal that no count of achievements completes (Achieve 0),
// so it ends only at death or the budget and never succeeds. The HTTP
// server's plain worlds are played through it, so they follow the one
// episode rule (Judge) like every task.
func FreePlay(rules *sim.Rules, seed uint64, mapSize, budget int, fb Feedback, view Observability) *Task {
	t := &Task{ID: "free-play", Seed: seed, Ruleset: rules.Name, MapSize: mapSize, Goal: Goal{Kind: KindAchievements},
		Budget: budget, Feedback: fb, Observability: view, rules: rules}
	t.statement = fmt.Sprintf("Free play: no goal; each new achievement is worth 1 and each health point gained or lost 0.1. You have %d steps.", budget)
	return t
}

// Rules returns the task's ruleset (variants applied).
func (t *Task) Rules() *sim.Rules { return t.rules }

// Describe states the task as the agent reads it: the goal and the budget,
// nothing of the way there and nothing of the variants.
func (t *Task) Describe() string {
	if t.statement != "" {
		return t.statement
	}
	if t.Actions == ActionsSkills && t.Decisions > 0 {
		return fmt.Sprintf("Your task: %s. You have %d decisions (skills) and %d steps.", t.Goal.String(), t.Decisions, t.Budget)
	}
	return fmt.Sprintf("Your task: %s. You have %d steps.", t.Goal.String(), t.Budget)
}

// Certifier plays goal on w for at most budget steps with full knowledge
// and reports whether it reached the goal and in how many steps; the
// built-in planner's Solve is one.
type Certifier func(w *sim.World, goal Goal, budget int) (reached bool, steps int)

// MaxAttempts bounds regeneration when a task cannot be certified: no
// task is played on a world after more attempts (a check of a revealed
// salt refuses more).
const MaxAttempts = 20

// errUnfit marks a world that cannot hold its task; Generate moves on to
// the next world.
var errUnfit = errors.New("world unfit for the task")

// Generate builds the task of spec: its world seed from the split, family,
// tier and index; its rules (tier's ruleset and knobs, variants); its goal;
// and, if cert is not nil, certifies it, regenerating deterministically
// from a derived seed until the certifier solves it (at most 20 tries). A
// world whose goal already holds at step 0 is never used: it would be a
// free win.
func Generate(spec Spec, cert Certifier) (*Task, error) {
	return GenerateWith(spec, Certifiers{Primitive: cert})
}

// SkillCertifier plays a skill-level task t on w with full knowledge,
// within its decision and step budgets, and reports whether it reached
// the goal and in how many steps.
type SkillCertifier func(t *Task, w *sim.World) (reached bool, steps int)

// Certifiers certify tasks at each action level. With Primitive set and
// Skills nil, a skill-level task is an error: it cannot be certified.
type Certifiers struct {
	Primitive Certifier
	Skills    SkillCertifier
}

// GenerateWith is Generate with a certifier for each action level.
func GenerateWith(spec Spec, certs Certifiers) (*Task, error) {
	return generateFrom(spec, SeedFor(spec.Split, spec.Family, spec.Tier, spec.Index), certs)
}

// generateFrom is GenerateWith starting from world seed seed.
func generateFrom(spec Spec, seed uint64, certs Certifiers) (*Task, error) {
	cert := certs.Primitive
	t, tier, err := newTask(spec)
	if err != nil {
		return nil, err
	}
	freeWins := 0
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		t.Seed, t.Attempts = seed, attempt
		err := t.generate(tier)
		switch {
		case errors.Is(err, errUnfit):
			// This world cannot hold the task (say, the start is an
			// island too small for the landmarks): try the next one.
			seed = regenerated(seed)
			continue
		case err != nil:
			return nil, fmt.Errorf("task %s: %w", t.ID, err)
		}
		w, err := t.NewWorld()
		if err != nil {
			return nil, err
		}
		if prog := NewProgress(t.Goal, w); prog.Update(w) || prog.StagesReached() > 0 {
			// A goal (or a stage of it) that holds before the first step
			// is a free win, not a task: every agent would score it.
			if spec.Scenario != nil && !spec.Scenario.layoutVaries() {
				// A fixed map is the same on every seed: say so at once.
				return nil, fmt.Errorf("task %s: scenario %s: its goal already holds at step 0 up to stage %d: a free win, not a task", t.ID, spec.Scenario.Name, prog.StagesReached())
			}
			seed = regenerated(seed)
			freeWins++
			continue
		}
		if cert == nil || t.Goal.Kind == KindAchievements {
			return t, nil
		}
		ok, steps := false, 0
		if t.Actions == ActionsSkills {
			if certs.Skills == nil {
				return nil, fmt.Errorf("task %s: a skill-level task, and no skill-level certifier here", t.ID)
			}
			ok, steps = certs.Skills(t, w)
		} else {
			ok, steps = cert(w, t.Goal, t.Budget)
		}
		if ok {
			t.Certified, t.PlannerSteps = true, steps
			return t, nil
		}
		// Same split bit, a new world: the next attempt's seed.
		seed = regenerated(seed)
	}
	if spec.Scenario != nil && freeWins == MaxAttempts {
		return nil, fmt.Errorf("task %s: scenario %s: its goal (or a stage of it) held at step 0 on each of %d worlds: a free win, not a task", t.ID, spec.Scenario.Name, MaxAttempts)
	}
	if spec.Scenario != nil {
		return nil, fmt.Errorf("task %s: scenario %s: the planner cannot reach its goal within its budget on any of %d worlds: it is not a task any agent can be scored on", t.ID, spec.Scenario.Name, MaxAttempts)
	}
	return nil, fmt.Errorf("task %s: no certifiable world in %d attempts", t.ID, MaxAttempts)
}

// Rebuild regenerates the task of spec on a known world seed (the one a
// trace recorded, after any regeneration), without certifying it.
func Rebuild(spec Spec, seed uint64) (*Task, error) {
	t, tier, err := newTask(spec)
	if err != nil {
		return nil, err
	}
	t.Seed, t.Attempts = seed, 0
	if err := t.generate(tier); err != nil {
		return nil, fmt.Errorf("task %s: %w", t.ID, err)
	}
	return t, nil
}

// newTask checks spec and fills the task fields its tier decides.
func newTask(spec Spec) (*Task, Tier, error) {
	if spec.Scenario != nil {
		return newScenarioTask(spec)
	}
	tier, err := TierByName(spec.Tier)
	if err != nil {
		return nil, tier, fmt.Errorf("task %s: %w", spec.ID(), err)
	}
	if !spec.Split.Valid() {
		return nil, tier, fmt.Errorf("task %s: split %q (train or eval)", spec.ID(), spec.Split)
	}
	t := &Task{Spec: spec, ID: spec.ID(), Ruleset: tier.Ruleset, MapSize: tier.MapSize,
		Budget: tier.Budget, Feedback: tier.Feedback, Observability: tier.View}
	if spec.Budget > 0 {
		t.Budget = spec.Budget
	}
	if spec.Feedback != "" {
		if !spec.Feedback.Valid() {
			return nil, tier, fmt.Errorf("task %s: feedback %q (%s)", t.ID, spec.Feedback, FeedbackChoices())
		}
		t.Feedback = spec.Feedback
	}
	if spec.Observability != "" {
		if !spec.Observability.Valid() {
			return nil, tier, fmt.Errorf("task %s: observability %q (partial, full)", t.ID, spec.Observability)
		}
		t.Observability = spec.Observability
	}
	return t, tier, nil
}

// generate draws the rules and goal of t for seed t.Seed.
func (t *Task) generate(tier Tier) error {
	if t.Spec.Scenario != nil {
		return t.generateScenario()
	}
	t.Actions = ActionsPrimitive
	r, err := sim.RulesByName(tier.Ruleset)
	if err != nil {
		return fmt.Errorf("tier %s: %w", tier.Name, err)
	}
	r.Gen.Abundance, r.Gen.Hostility = tier.Abundance, tier.Hostility
	scaleHostility(r, tier.Hostility)
	if err := r.Compile(); err != nil {
		return err
	}
	t.Variants = nil
	if tier.Variants {
		if r, t.Variants, err = ApplyVariants(r, t.Seed, FamiliesFor(t.Spec.Split)); err != nil {
			return err
		}
	}
	t.rules = r
	rng := sim.RNG{State: sim.Mix64(t.Seed ^ 0x676f616c)} // "goal"
	t.Start = [2]int{tier.MapSize / 2, tier.MapSize / 2}
	t.Landmarks, t.Depth, t.Milestones = nil, 0, nil
	switch t.Spec.Family {
	case FamilyAchievements:
		t.Goal, t.Achieve = Goal{Kind: KindAchievements}, tier.Achieve
		t.Milestones = append(t.Milestones, r.Achievements...)
	case FamilyObtain, FamilyObtainReturn:
		item, plan, err := pickTarget(r, tier.MinDepth, tier.MaxDepth, t.Spec.Split, &rng)
		if err != nil {
			return err
		}
		t.Goal, t.Depth = Obtain(r.Items[item].Name, 1), plan.Depth
		for _, a := range plan.Achievements() {
			t.Milestones = append(t.Milestones, r.Achievements[a])
		}
		if t.Spec.Family == FamilyObtainReturn {
			t.Goal = Sequence(t.Goal, Reach(t.Start[0], t.Start[1]))
		}
	case FamilyCollect:
		// Raw materials that take finding: not the vitals, which start
		// full (drink 9), so "obtain 9 drink" would hold at step 0; not
		// saplings, which come from pressing do on the grass the player
		// starts on, so an agent that only ever does "do" would win.
		raw := []sim.Item{sim.ItemWood, sim.ItemStone, sim.ItemCoal}
		if t.Spec.Split == Train {
			raw = raw[:2] // coal is held out for evaluation (HeldOut)
		}
		item := raw[rng.Intn(len(raw))]
		n := tier.Collect
		plan, err := Dependencies(r, item)
		if err != nil {
			return err
		}
		t.Goal, t.Depth = Obtain(r.Items[item].Name, n), plan.Depth
		for _, a := range plan.Achievements() {
			t.Milestones = append(t.Milestones, r.Achievements[a])
		}
	case FamilyWaypoints:
		spots, err := t.landmarkSpots(tier.Landmarks, &rng)
		if err != nil {
			return err
		}
		t.Landmarks = spots
		order := make([]int, len(spots))
		for i := range order {
			order[i] = i
		}
		for i := len(order) - 1; i > 0; i-- { // shuffle
			j := rng.Intn(i + 1)
			order[i], order[j] = order[j], order[i]
		}
		t.Goal = Waypoints(order...)
		for _, l := range order {
			t.Milestones = append(t.Milestones, "visit landmark "+sim.LandmarkName(l))
		}
	case FamilySurvive:
		t.Goal = Survive(tier.Survive)
		if t.Spec.Budget > 0 && t.Spec.Budget < tier.Survive {
			// Raising it silently played another budget than the one asked.
			return fmt.Errorf("budget %d is shorter than the %s tier's survive goal (%d steps): no agent could succeed", t.Spec.Budget, tier.Name, tier.Survive)
		}
		if t.Budget < tier.Survive {
			t.Budget = tier.Survive
		}
	default:
		return fmt.Errorf("unknown family %q (%v)", t.Spec.Family, Families())
	}
	return t.Goal.Validate(r, len(t.Landmarks))
}

// HeldOut lists the goals only the eval split draws, so that a policy
// trained on the train split has never seen the kind of task it is scored
// on: obtaining a weapon (any sword), and collecting coal. Train tasks
// draw among the other items; eval tasks among all of them.
var HeldOut = struct {
	Targets []string // obtain and obtain_return
	Collect string
}{Targets: []string{"wood_sword", "stone_sword", "iron_sword"}, Collect: "coal"}

// heldOut reports whether item name is an obtain target held out of the
// train split.
func heldOut(name string) bool {
	for _, h := range HeldOut.Targets {
		if h == name {
			return true
		}
	}
	return false
}

// pickTarget draws an item whose chain depth lies in [lo, hi]; the train
// split never draws a held-out one.
func pickTarget(r *sim.Rules, lo, hi int, split Split, rng *sim.RNG) (sim.Item, *Plan, error) {
	type cand struct {
		item sim.Item
		plan *Plan
	}
	var cands []cand
	for i := range r.Items {
		if r.Items[i].Vital || sim.Item(i) == sim.ItemSapling || (split == Train && heldOut(r.Items[i].Name)) {
			continue
		}
		p, err := Dependencies(r, sim.Item(i))
		if err == nil && p.Depth >= lo && p.Depth <= hi {
			cands = append(cands, cand{sim.Item(i), p})
		}
	}
	if len(cands) == 0 {
		return 0, nil, fmt.Errorf("no item of the %s rules has a chain of %d to %d hops", r.Name, lo, hi)
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].item < cands[j].item })
	c := cands[rng.Intn(len(cands))]
	return c.item, c.plan, nil
}

// NewWorld builds the task's world: its size, rules and seed, with its
// landmarks placed.
func (t *Task) NewWorld() (*sim.World, error) {
	w, err := sim.New(sim.Config{Width: t.MapSize, Height: t.MapSize, Rules: t.rules})
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", t.ID, err)
	}
	if err := t.ResetWorld(w); err != nil {
		return nil, err
	}
	return w, nil
}

// ResetWorld resets w (built by NewWorld, or of the same shape) to the
// task's start.
func (t *Task) ResetWorld(w *sim.World) error {
	if err := w.SetRules(t.rules); err != nil {
		return fmt.Errorf("task %s: %w", t.ID, err)
	}
	if t.Spec.Scenario != nil {
		if err := t.placeScenario(w); err != nil {
			return fmt.Errorf("task %s: %w", t.ID, err)
		}
		return nil
	}
	w.Reset(t.Seed)
	for label, p := range t.Landmarks {
		if err := w.AddObject(sim.Object{X: int16(p[0]), Y: int16(p[1]), Kind: sim.ObjLandmark, Timer: int8(label)}); err != nil {
			return fmt.Errorf("task %s: landmark %s: %w", t.ID, sim.LandmarkName(label), err)
		}
	}
	return nil
}

// landmarkSpots picks n free grass tiles reachable on foot from the start,
// spread out: each at least 6 tiles (L1) from the start and the others.
func (t *Task) landmarkSpots(n int, rng *sim.RNG) ([][2]int, error) {
	w, err := sim.New(sim.Config{Width: t.MapSize, Height: t.MapSize, Rules: t.rules})
	if err != nil {
		return nil, err
	}
	w.Reset(t.Seed)
	reach := reachable(w)
	var spots [][2]int
	for try := 0; try < 2000 && len(spots) < n; try++ {
		x, y := rng.Intn(t.MapSize), rng.Intn(t.MapSize)
		if !reach.Reached(y*t.MapSize+x) || w.Material(x, y) != sim.MatGrass {
			continue
		}
		if _, occupied := w.ObjectAt(x, y); occupied {
			continue
		}
		ok := grid.Manhattan(x, y, t.Start[0], t.Start[1]) >= 6
		for _, s := range spots {
			ok = ok && grid.Manhattan(x, y, s[0], s[1]) >= 6
		}
		if ok {
			spots = append(spots, [2]int{x, y})
		}
	}
	if len(spots) < n {
		return nil, fmt.Errorf("%w: only %d of %d landmark spots found", errUnfit, len(spots), n)
	}
	return spots, nil
}

// reachable fills the tiles a player can walk to from its start, ignoring
// creatures.
func reachable(w *sim.World) *grid.Flood {
	g := grid.New(w.Width(), w.Height())
	r := w.Rules()
	px, py := w.Player()
	var f grid.Flood
	f.Run(g, g.Index(px, py), func(i int) bool {
		x, y := g.XY(i)
		return r.Materials[w.Material(x, y)].Walkable
	})
	return &f
}

// AchievementsMet says whether w has unlocked the achievements an
// achievements task counts as success (Achieve of them; free play, with
// Achieve 0, has no success). Such an episode plays on to death or the
// budget, as Crafter does.
func (t *Task) AchievementsMet(w *sim.World) bool {
	return t.Achieve > 0 && bits.OnesCount64(uint64(w.Achievements())) >= t.Achieve
}

// End says how an episode ended.
type End string

// The ends of an episode. Judge decides the first three for every host;
// the others are a host's own reasons to stop early.
const (
	EndGoal      End = "goal"      // the goal was reached
	EndDeath     End = "death"     // the player died
	EndBudget    End = "budget"    // the step budget (or the ruleset's step limit) ran out
	EndDecisions End = "decisions" // the decision budget of a skill-level task ran out
	// An external agent's token or cost budget (the episode's or the
	// run's) was reached: the runner's --max-episode-tokens,
	// --max-run-tokens, --max-run-cost.
	EndBudgetTokens End = "budget_tokens"
	EndBudgetCost   End = "budget_cost"
	EndNoProgress   End = "no_progress" // the runner's --no-progress
	EndTimeout      End = "timeout"     // the runner's --timeout
	EndAgentError   End = "agent_error" // an external player failed
	EndStopped      End = "stopped"     // recorded play ran out
)

// Judge is the one rule of an episode's end and success, which the runner,
// the HTTP server and the browser session apply after every step: a goal
// task ends when its goal is reached, and succeeds then; an achievements
// task plays on to death or the budget, as Crafter does, and succeeds when
// the tier's count of achievements is unlocked; every task ends at the
// player's death or when steps reach the budget (or the ruleset's step
// limit), and a skill-level task with a decision budget when decisions
// reach it. It returns "" while the episode goes on. prog must have been
// updated for this step.
func (t *Task) Judge(w *sim.World, prog *Progress, steps, decisions int) (end End, success bool) {
	if t.Goal.Kind == KindAchievements {
		success = t.AchievementsMet(w)
	} else if success, _ = prog.Reached(); success {
		return EndGoal, true
	}
	switch {
	case w.Dead():
		return EndDeath, success
	case steps >= t.Budget || w.Done():
		return EndBudget, success
	case t.Decisions > 0 && decisions >= t.Decisions:
		return EndDecisions, success
	}
	return "", success
}
