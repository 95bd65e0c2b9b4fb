package task

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/sim"
)

// TierScenario is the tier of every scenario's episodes: a scenario sets
// its own knobs, so no tier's defaults apply.
const TierScenario = "scenario"

// ActionLevel is what one decision of the agent is: a primitive action
// (one step) or a skill (bench/skill: several steps).
type ActionLevel string

// Action levels.
const (
	ActionsPrimitive ActionLevel = "primitive"
	ActionsSkills    ActionLevel = "skills"
)

// Valid reports whether l is a level.
func (l ActionLevel) Valid() bool { return l == ActionsPrimitive || l == ActionsSkills }

// Scenario is an episode written by hand instead of drawn by a family's
// generator: a goal in the goal language, a map (an ASCII map, or a
// generated world of a given size), the player's start, objects and
// landmarks at fixed places, an inventory, the ruleset and its knobs, the
// action level, and the reward. Suite files list them (bench/suite reads
// the YAML); a spec carries its scenario whole, so traces, results and
// locks rebuild it without the file.
type Scenario struct {
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	// Variants draws per-seed rule variants, as the hard tiers do.
	Variants bool `json:"variants,omitempty"`
	// Abundance and Hostility scale a generated world's resources and
	// creatures, in % of classic (0: 100).
	Abundance int `json:"abundance,omitempty"`
	Hostility int `json:"hostility,omitempty"`
	// NoSpawn turns off creature balancing: nothing spawns or despawns,
	// so the creatures are those of the map or the generator.
	NoSpawn bool `json:"no_spawn,omitempty"`
	// Map is an ASCII map (sim's format, square); "" means a generated
	// world of Size tiles a side.
	Map  string `json:"map,omitempty"`
	Size int    `json:"size,omitempty"`
	// Start moves the player there (nil: the map's @ or the generator's
	// start).
	Start     *[2]int        `json:"start,omitempty"`
	Objects   []Placed       `json:"objects,omitempty"`
	Landmarks [][2]int       `json:"landmarks,omitempty"` // A, B, … in order
	Inventory map[string]int `json:"inventory,omitempty"`
	Goal      Goal           `json:"goal"`
	// Achieve is how many achievements an achievements goal counts as a
	// success (0: open-ended, no success).
	Achieve int `json:"achieve,omitempty"`
	// Actions is the action level; Decisions the decision budget at the
	// skill level (0: none beyond the step budget).
	Actions   ActionLevel `json:"actions,omitempty"`
	Decisions int         `json:"decisions,omitempty"`
	Reward    *Reward     `json:"reward,omitempty"`
	// Vary lists what the seed changes on a hand-written map
	// (VaryChoices); Fixed declares a hand-written map that is one world
	// on every seed by design (scenario_vary.go).
	Vary  []string `json:"vary,omitempty"`
	Fixed bool     `json:"fixed,omitempty"`
	// View is the local view its agents get (LocalView): "" Longcraft's
	// 9×9, "crafter" Crafter's 9×7 (Crafter's and BALROG's protocols).
	View LocalView `json:"view,omitempty"`
	// Params are the overrides of the scenario's own fields a --set or
	// --sweep applied ("grid=8"), sorted; they are part of its name.
	Params []string `json:"params,omitempty"`
}

// Placed is an object at a fixed place: a creature (cow, zombie,
// skeleton) or a plant.
type Placed struct {
	Kind string `json:"kind"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
}

// Reward sets the weights of a scenario's task reward (the task_reward
// metric; Crafter's reward, the return, is unchanged): StageTenths for
// each stage of the goal but the last, GoalTenths when the whole goal is
// reached, in tenths so that sums stay exact. Without one, a stage is
// worth 0.5 and the goal 1.0.
type Reward struct {
	StageTenths int `json:"stage_tenths"`
	GoalTenths  int `json:"goal_tenths"`
}

// Label is the scenario's name as results group it: its name and the
// overrides applied to it ("grid grid=8").
func (s *Scenario) Label() string {
	l := s.Name
	for _, p := range s.Params {
		l += " " + p
	}
	return l
}

// canonical is the scenario's JSON, the form its episodes' ids hash.
func (s *Scenario) canonical() string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("scenario %s: %v", s.Name, err)) // plain data: cannot fail
	}
	return string(b)
}

// scenarioKind returns the kind of object a scenario may place by name:
// a kind of r the player can do something to (cow, zombie, skeleton and
// plant in classic; arrows and landmarks are not placed this way).
func scenarioKind(r *sim.Rules, name string) (sim.ObjectKind, bool) {
	k, ok := r.KindByName(name)
	return k, ok && r.Kind(k).Interact != sim.InteractNone
}

// scenarioKindNames lists the names scenarioKind accepts: "cow, zombie,
// skeleton or plant".
func scenarioKindNames(r *sim.Rules) string {
	var names []string
	for k := range r.Creatures {
		if _, ok := scenarioKind(r, r.Creatures[k].Name); ok {
			names = append(names, r.Creatures[k].Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// maxScenarioSide bounds a scenario's map side.
const maxScenarioSide = 256

// Side returns the side of the scenario's world.
func (s *Scenario) Side() int {
	if s.Map != "" {
		rows, err := sim.ParseASCII(s.Map)
		if err != nil {
			return 0
		}
		return len(rows)
	}
	if s.Size == 0 {
		return sim.DefaultSize
	}
	return s.Size
}

// Check validates the scenario as a whole: its ruleset and knobs, its map,
// that every position lies on the map, its goal against the rules and the
// landmarks, and its reward. Errors name the field.
func (s *Scenario) Check() error {
	r, err := s.rules()
	if err != nil {
		return err
	}
	if err := s.checkPlay(); err != nil {
		return err
	}
	side := s.Side()
	if err := s.checkMap(r, side); err != nil {
		return err
	}
	if err := s.checkPlaces(r, side); err != nil {
		return err
	}
	if err := s.checkInventory(r); err != nil {
		return err
	}
	if err := s.checkGoal(r, side); err != nil {
		return err
	}
	if rw := s.Reward; rw != nil && (rw.StageTenths < 0 || rw.GoalTenths < 0 || rw.StageTenths > 1000 || rw.GoalTenths > 1000) {
		return fmt.Errorf("reward: stage %.1f, goal %.1f: want 0 to 100", float64(rw.StageTenths)/10, float64(rw.GoalTenths)/10)
	}
	return nil
}

// checkPlay checks how the scenario is played: its actions, decision
// budget, view and varied knobs.
func (s *Scenario) checkPlay() error {
	if s.Actions != "" && !s.Actions.Valid() {
		return fmt.Errorf("actions %q: want primitive or skills", s.Actions)
	}
	if s.Decisions < 0 || (s.Decisions > 0 && s.Actions != ActionsSkills) {
		return fmt.Errorf("decisions %d: a decision budget is for actions: skills", s.Decisions)
	}
	if !s.View.Valid() {
		return fmt.Errorf("view %q: want crafter, or none for Longcraft's 9×9", s.View)
	}
	return s.checkVary()
}

// checkMap checks the scenario's map, which must be square, without
// landmark digits, and load under rules r; without one, its size.
func (s *Scenario) checkMap(r *sim.Rules, side int) error {
	if s.Map == "" {
		if side < 9 || side > maxScenarioSide {
			return fmt.Errorf("size %d: a generated world is 9 to %d tiles a side", side, maxScenarioSide)
		}
		return nil
	}
	rows, err := sim.ParseASCII(s.Map)
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	if len(rows) != len(rows[0]) {
		return fmt.Errorf("map: %d×%d; scenario maps are square (a trace records one side)", len(rows[0]), len(rows))
	}
	if s.Size != 0 {
		return fmt.Errorf("size: a scenario has a map or a size, not both")
	}
	if strings.ContainsAny(s.Map, "123456789") {
		return fmt.Errorf("map: a scenario's landmarks go in its landmarks: list, at [x, y], not in the map as digits")
	}
	w, err := sim.New(sim.Config{Width: side, Height: side, Rules: r})
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	w.Reset(0)
	if err := w.LoadASCII(s.Map); err != nil {
		return fmt.Errorf("map: %w", err)
	}
	return nil
}

// onMap says, naming field, when p lies outside a map of the given side.
func onMap(field string, p [2]int, side int) error {
	if p[0] < 0 || p[1] < 0 || p[0] >= side || p[1] >= side {
		return fmt.Errorf("%s: (%d, %d) is outside the %d×%d map", field, p[0], p[1], side, side)
	}
	return nil
}

// checkPlaces checks that the start, the objects and the landmarks lie on
// the map, and the objects' kinds.
func (s *Scenario) checkPlaces(r *sim.Rules, side int) error {
	if s.Start != nil {
		if err := onMap("start", *s.Start, side); err != nil {
			return err
		}
	}
	for i, o := range s.Objects {
		if _, ok := scenarioKind(r, o.Kind); !ok {
			return fmt.Errorf("objects[%d]: kind %q (%s)", i, o.Kind, scenarioKindNames(r))
		}
		if err := onMap(fmt.Sprintf("objects[%d]", i), [2]int{o.X, o.Y}, side); err != nil {
			return err
		}
	}
	if len(s.Landmarks) > 9 {
		return fmt.Errorf("landmarks: %d, at most 9 (A to I)", len(s.Landmarks))
	}
	for i, l := range s.Landmarks {
		if err := onMap("landmarks["+sim.LandmarkName(i)+"]", l, side); err != nil {
			return err
		}
	}
	return nil
}

// checkInventory checks the starting inventory's items and counts, in the
// items' name order so that the first error is always the same.
func (s *Scenario) checkInventory(r *sim.Rules) error {
	names := make([]string, 0, len(s.Inventory))
	for name := range s.Inventory {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		it, ok := r.ItemByName(name)
		if !ok {
			return fmt.Errorf("inventory: no item %q in the %s rules", name, r.Name)
		}
		if n := s.Inventory[name]; n < 0 || n > int(r.Items[it].Max) {
			return fmt.Errorf("inventory: %s %d outside 0 to %d", name, n, r.Items[it].Max)
		}
	}
	return nil
}

// checkGoal checks the goal against the rules and the landmarks, that
// every place it reaches lies on the map, and the achievements it counts.
func (s *Scenario) checkGoal(r *sim.Rules, side int) error {
	if err := s.Goal.Validate(r, len(s.Landmarks)); err != nil {
		return err
	}
	if err := reachesOnMap(&s.Goal, side); err != nil {
		return err
	}
	if s.Goal.Kind != KindAchievements && s.Achieve != 0 {
		return fmt.Errorf("achieve: only an achievements goal counts achievements")
	}
	if s.Achieve < 0 || s.Achieve > len(r.Achievements) {
		return fmt.Errorf("achieve %d: the %s rules have %d achievements", s.Achieve, r.Name, len(r.Achievements))
	}
	return nil
}

// reachesOnMap checks that every reach goal in g, at any depth, lies on
// the map.
func reachesOnMap(g *Goal, side int) error {
	if g.Kind == KindReach {
		if err := onMap("goal reach", [2]int{g.X, g.Y}, side); err != nil {
			return err
		}
	}
	for i := range g.Goals {
		if err := reachesOnMap(&g.Goals[i], side); err != nil {
			return err
		}
	}
	return nil
}

// rules builds the scenario's rules: its ruleset and its knobs (variants,
// which depend on the world's seed, are drawn by generateScenario).
func (s *Scenario) rules() (*sim.Rules, error) {
	r, err := sim.RulesByName(s.Ruleset)
	if err != nil {
		return nil, fmt.Errorf("ruleset: %w", err)
	}
	if s.Abundance < 0 || s.Abundance > 400 || s.Hostility < 0 || s.Hostility > 400 {
		return nil, fmt.Errorf("abundance %d, hostility %d: want 0 to 400 (%% of classic)", s.Abundance, s.Hostility)
	}
	if s.Abundance > 0 {
		r.Gen.Abundance = s.Abundance
	}
	if s.Hostility > 0 {
		r.Gen.Hostility = s.Hostility
		scaleHostility(r, s.Hostility)
	}
	if s.NoSpawn {
		for i := range r.Creatures {
			if b := r.Creatures[i].Balance; b != nil {
				b.SpawnP, b.DespawnP = 0, 0
			}
		}
	}
	if err := r.Compile(); err != nil {
		return nil, err
	}
	return r, nil
}

// scaleHostility scales the balanced numbers of the hostile creatures
// (zombies and skeletons in classic) to pct % of the ruleset's.
func scaleHostility(r *sim.Rules, pct int) {
	for i := range r.Creatures {
		if b := r.Creatures[i].Balance; b != nil && r.Creatures[i].Hostile {
			b.MinBase = b.MinBase * int32(pct) / 100
			b.MinLight = b.MinLight * int32(pct) / 100
			b.MaxBase = b.MaxBase * int32(pct) / 100
			b.MaxLight = b.MaxLight * int32(pct) / 100
		}
	}
}

// generateScenario fills t from its spec's scenario for world seed t.Seed.
func (t *Task) generateScenario() error {
	s := t.Spec.Scenario
	r, err := s.rules()
	if err != nil {
		return err
	}
	t.Variants = nil
	if s.Variants {
		if r, t.Variants, err = ApplyVariants(r, t.Seed, FamiliesFor(t.Spec.Split)); err != nil {
			return err
		}
	}
	t.rules = r
	t.MapSize, t.Ruleset = s.Side(), s.Ruleset
	l, err := s.layoutFor(t.Seed, r)
	if err != nil {
		return err
	}
	t.layout = &l
	t.Goal, t.Achieve = l.goal, s.Achieve
	t.Landmarks = l.landmarks
	t.Actions, t.Decisions = s.Actions, s.Decisions
	if t.Actions == "" {
		t.Actions = ActionsPrimitive
	}
	if t.Actions == ActionsSkills && t.Decisions == 0 {
		// A skill that cannot start takes no step: without a decision
		// budget an agent could fail forever at no cost.
		t.Decisions = t.Budget
	}
	t.Depth, t.Milestones = 0, nil
	if t.Goal.Kind == KindAchievements {
		t.Milestones = append(t.Milestones, r.Achievements...)
	}
	w, err := sim.New(sim.Config{Width: t.MapSize, Height: t.MapSize, Rules: r})
	if err != nil {
		return err
	}
	if err := t.placeScenario(w); err != nil {
		return err
	}
	px, py := w.Player()
	t.Start = [2]int{px, py}
	t.scenarioMilestones(w)
	return t.Goal.Validate(r, len(t.Landmarks))
}

// scenarioMilestones lists the achievements of the steps the goal's
// obtain leaves need from the scenario's start: the rules are followed
// back from each item with the amounts they use, against what the player
// holds and what stands on the map (a kit of three iron ingots and an iron
// pickaxe leaves out everything but the anvil, the crystal and the
// compass), shallowest first.
func (t *Task) scenarioMilestones(w *sim.World) {
	r := t.rules
	onMap := map[sim.Material]bool{}
	for y := 0; y < w.Height(); y++ {
		for x := 0; x < w.Width(); x++ {
			onMap[w.Material(x, y)] = true
		}
	}
	inv := make([]int, len(r.Items))
	for i := range inv {
		inv[i] = w.Inventory(sim.Item(i))
	}
	var steps []Step
	plans := map[sim.Item]*Plan{}
	step := func(n Node) (Step, bool) {
		for _, p := range plans {
			for _, st := range p.Steps {
				if st.Node == n {
					return st, true
				}
			}
		}
		return Step{}, false
	}
	budget := 200 // rules' steps applied at most: a guard, never reached by the embedded rules
	var need func(it sim.Item, n int)
	var station func(m sim.Material)
	need = func(it sim.Item, n int) {
		for inv[it] < n && budget > 0 {
			st, ok := step(Node{Item: it})
			if !ok {
				return // natural or unobtainable: the certificate says which
			}
			budget--
			steps = append(steps, st)
			switch {
			case st.Make != nil:
				for _, u := range st.Make.Uses {
					need(u.Item, int(u.Amount))
					inv[u.Item] -= int(u.Amount)
				}
				for _, m := range st.Make.Nearby {
					station(m)
				}
				inv[it] += int(st.Make.Gives.Amount)
			case st.Collect != nil:
				for _, tool := range st.Collect.Require {
					need(tool.Item, int(tool.Amount))
				}
				if st.Collect.Light && r.LightItem != sim.ItemHealth && !(r.LightMaterial != sim.MatNone && onMap[r.LightMaterial]) {
					need(r.LightItem, 1)
				}
				inv[it] += int(max(st.Collect.Receive.Amount, 1))
			default:
				return
			}
		}
	}
	station = func(m sim.Material) {
		if onMap[m] || budget <= 0 {
			return
		}
		st, ok := step(Node{Station: m})
		if !ok || st.Place == nil {
			return
		}
		budget--
		onMap[m] = true
		steps = append(steps, st)
		for _, u := range st.Place.Uses {
			need(u.Item, int(u.Amount))
			inv[u.Item] -= int(u.Amount)
		}
	}
	var obtain func(g *Goal)
	obtain = func(g *Goal) {
		if g.Kind == KindObtain {
			if it, ok := r.ItemByName(g.Item); ok {
				if plan, err := Dependencies(r, it); err == nil {
					plans[it] = plan
					t.Depth = max(t.Depth, plan.Depth)
					need(it, g.Count)
				}
			}
		}
		for i := range g.Goals {
			obtain(&g.Goals[i])
		}
	}
	obtain(&t.Goal)
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].Depth < steps[j].Depth })
	for _, st := range steps {
		if name := r.Achievements[st.Achievement]; !slices.Contains(t.Milestones, name) {
			t.Milestones = append(t.Milestones, name)
		}
	}
}

// placeScenario lays the scenario's map, start, objects, landmarks and
// inventory on w, which has just been reset.
func (t *Task) placeScenario(w *sim.World) error {
	s, l := t.Spec.Scenario, t.layout
	w.Reset(t.Seed)
	if s.Map != "" {
		if err := w.LoadASCII(l.mapText); err != nil {
			return fmt.Errorf("map: %w", err)
		}
	}
	// On a fixed map a place that does not fit never will: an error. On
	// a generated or varied world, the next world may fit (errUnfit).
	unfit := func(err error) error {
		if !s.layoutVaries() {
			return err
		}
		return fmt.Errorf("%w: %v", errUnfit, err)
	}
	if l.start != nil {
		if err := w.MovePlayer(l.start[0], l.start[1]); err != nil {
			return unfit(fmt.Errorf("start: %w", err))
		}
	}
	if l.facing != sim.DirNone {
		if err := w.SetFacing(l.facing); err != nil {
			return err
		}
	}
	for i, o := range l.objects {
		k, _ := scenarioKind(w.Rules(), o.Kind) // Check accepted the name
		obj := sim.Object{X: int16(o.X), Y: int16(o.Y), Kind: k}
		if err := w.AddObject(obj); err != nil {
			return unfit(fmt.Errorf("objects[%d] %s at (%d, %d): %w", i, o.Kind, o.X, o.Y, err))
		}
	}
	for label, p := range t.Landmarks {
		if err := w.AddObject(sim.Object{X: int16(p[0]), Y: int16(p[1]), Kind: sim.ObjLandmark, Timer: int8(label)}); err != nil {
			return unfit(fmt.Errorf("landmark %s: %w", sim.LandmarkName(label), err))
		}
	}
	names := make([]string, 0, len(s.Inventory))
	for name := range s.Inventory {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		it, _ := w.Rules().ItemByName(name)
		if err := w.SetInventory(it, s.Inventory[name]); err != nil {
			return err
		}
	}
	return nil
}

// newScenarioTask checks a scenario's spec and fills the fields the spec
// decides; generateScenario does the rest.
func newScenarioTask(spec Spec) (*Task, Tier, error) {
	id := spec.ID()
	s := spec.Scenario
	if spec.Tier != TierScenario || spec.Family != s.Label() {
		return nil, Tier{}, fmt.Errorf("task %s: a scenario's episode has family %q and tier %s, not %q/%q", id, s.Label(), TierScenario, spec.Family, spec.Tier)
	}
	if !spec.Split.Valid() {
		return nil, Tier{}, fmt.Errorf("task %s: split %q (train or eval)", id, spec.Split)
	}
	if err := s.Check(); err != nil {
		return nil, Tier{}, fmt.Errorf("task %s: scenario %s: %w", id, s.Name, err)
	}
	t := &Task{Spec: spec, ID: id, Budget: spec.Budget, Feedback: FeedbackFull, Observability: Partial, View: s.View}
	if t.Budget < 1 {
		return nil, Tier{}, fmt.Errorf("task %s: scenario %s: no budget", id, s.Name)
	}
	if spec.Feedback != "" {
		if !spec.Feedback.Valid() {
			return nil, Tier{}, fmt.Errorf("task %s: feedback %q (%s)", id, spec.Feedback, FeedbackChoices())
		}
		t.Feedback = spec.Feedback
	}
	if spec.Observability != "" {
		if !spec.Observability.Valid() {
			return nil, Tier{}, fmt.Errorf("task %s: observability %q (partial, full)", id, spec.Observability)
		}
		t.Observability = spec.Observability
	}
	if s.Goal.Kind == KindSurvive && t.Budget < s.Goal.Steps {
		return nil, Tier{}, fmt.Errorf("task %s: budget %d is shorter than the survive goal (%d steps): no agent could succeed", id, t.Budget, s.Goal.Steps)
	}
	return t, Tier{Name: TierScenario}, nil
}
