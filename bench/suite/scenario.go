package suite

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// ScenarioBlock is one entry of a suite's scenarios: a hand-written
// scenario played on a range of seeds (the world's seed moves creatures
// and, for a generated world, makes the map).
type ScenarioBlock struct {
	Scenario      task.Scenario
	Split         task.Split
	From, Count   uint64
	Budget        int
	Feedback      task.Feedback
	Observability task.Observability
	line          int
}

// scenarioName is what a scenario's name may be: one word that a scoped
// --set (NAME:key=value) can name.
var scenarioName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// scenario makes one scenarios entry, in phases: its fields, each checked;
// what it must give; its map; the defaults written out made the defaults
// left out; its goal; the whole scenario's check; its params' labels.
func (s *Suite) scenario(y *scenarioYAML) (ScenarioBlock, error) {
	b := ScenarioBlock{line: y.Line}
	sc := &b.Scenario
	if err := s.scenarioRules(y, sc); err != nil {
		return b, err
	}
	if err := s.scenarioWorld(y, sc); err != nil {
		return b, err
	}
	if err := s.scenarioPlay(y, sc); err != nil {
		return b, err
	}
	sh, err := s.shared(y.Split, y.Seeds, y.Budget, y.Feedback, y.Observability)
	if err != nil {
		return b, err
	}
	b.Split, b.From, b.Count, b.Budget, b.Feedback, b.Observability = sh.split, sh.from, sh.count, sh.budget, sh.feedback, sh.observability
	if err := s.scenarioGiven(y, &b); err != nil {
		return b, err
	}
	if err := s.scenarioMap(y, sc); err != nil {
		return b, err
	}
	implicitDefaults(sc)
	if sc.Goal, sc.Achieve, err = s.goal(y.Goal, sc); err != nil {
		return b, err
	}
	if err := sc.Check(); err != nil {
		line := y.Line
		if l := y.mapLine(); strings.HasPrefix(err.Error(), "map") && l != 0 {
			line = l
		} else if strings.HasPrefix(err.Error(), "goal") {
			line = y.Goal.Line
		}
		return b, s.errAt(line, "", "scenario %s: %v", sc.Name, err)
	}
	labelParams(sc)
	if sc.Goal.Kind == task.KindSurvive && b.Budget < sc.Goal.Steps {
		return b, s.errAt(y.Line, "budget", "%d is shorter than the survive goal (%d steps): no agent could succeed", b.Budget, sc.Goal.Steps)
	}
	return b, nil
}

// scenarioRules checks the scenario's name and rules.
func (s *Suite) scenarioRules(y *scenarioYAML, sc *task.Scenario) error {
	sc.Name, sc.Ruleset = y.Name.V, y.Ruleset.or("classic")
	if y.Name.Given && !scenarioName.MatchString(sc.Name) {
		return s.errAt(y.Name.Line, "name", "%q: one word of letters, digits, - or _", sc.Name)
	}
	if y.Ruleset.Given {
		if _, err := sim.RulesByName(sc.Ruleset); err != nil {
			return s.errAt(y.Ruleset.Line, "ruleset", "%v", err)
		}
	}
	sc.Variants = y.Variants.V
	return nil
}

// scenarioWorld checks the world's fields: its map, what is placed on it
// and what the seed changes.
func (s *Suite) scenarioWorld(y *scenarioYAML, sc *task.Scenario) error {
	sc.Map = y.Map.V
	if y.MapFile.Given {
		data, err := s.src.readBeside(y.MapFile.V)
		if err != nil {
			return s.errAt(y.MapFile.Line, "map_file", "%v", err)
		}
		sc.Map = string(data)
	}
	if g := y.Grid; g.Given && (g.V < 3 || g.V > 256) {
		return s.errAt(g.Line, "grid", "%d: an open grid is 3 to 256 tiles a side", g.V)
	}
	sc.Size = y.Size.V
	if y.Size.Given && (sc.Size < 9 || sc.Size > 256) {
		return s.errAt(y.Size.Line, "size", "%d: a generated world is 9 to 256 tiles a side", sc.Size)
	}
	if y.Start != nil {
		p := y.Start.xy()
		sc.Start = &p
	}
	for _, o := range y.Objects {
		sc.Objects = append(sc.Objects, task.Placed{Kind: o.Kind.V, X: o.At.X.V, Y: o.At.Y.V})
	}
	for _, p := range y.Landmarks {
		sc.Landmarks = append(sc.Landmarks, p.xy())
	}
	if y.Inventory != nil {
		sc.Inventory = map[string]int{}
		for item, n := range y.Inventory {
			sc.Inventory[item] = n.V
		}
	}
	sc.NoSpawn = !y.Spawn.or(true)
	sc.Abundance, sc.Hostility, sc.Fixed = y.Abundance.V, y.Hostility.V, y.Fixed.V
	return s.vary(y.Vary, sc)
}

// vary checks [symmetry, start]: what the seed changes on a hand-written
// map, kept in the order of task.VaryChoices so that one set has one id
// however it is listed.
func (s *Suite) vary(y varyYAML, sc *task.Scenario) error {
	for _, v := range y {
		if !slices.Contains(task.VaryChoices(), v.V) {
			return s.errAt(v.Line, "vary", "%q: want %s", v.V, strings.Join(task.VaryChoices(), " or "))
		}
		if slices.Contains(sc.Vary, v.V) {
			return s.errAt(v.Line, "vary", "%s given twice", v.V)
		}
		sc.Vary = append(sc.Vary, v.V)
	}
	slices.SortFunc(sc.Vary, func(a, b string) int {
		return slices.Index(task.VaryChoices(), a) - slices.Index(task.VaryChoices(), b)
	})
	return nil
}

// scenarioPlay checks how the scenario is played: its action level and
// decisions, its view and its reward.
func (s *Suite) scenarioPlay(y *scenarioYAML, sc *task.Scenario) error {
	sc.Decisions = y.Decisions.V
	if y.Decisions.Given && (sc.Decisions < 1 || sc.Decisions > 1_000_000) {
		return s.errAt(y.Decisions.Line, "decisions", "%d: want 1 to 1,000,000 decisions", sc.Decisions)
	}
	sc.Actions = task.ActionLevel(y.Actions.V)
	if y.Actions.Given && !sc.Actions.Valid() {
		return s.errAt(y.Actions.Line, "actions", "%q: want primitive or skills", y.Actions.V)
	}
	sc.View = task.LocalView(y.View.V)
	if y.View.Given && (sc.View == "" || !sc.View.Valid()) {
		return s.errAt(y.View.Line, "view", "%q: want crafter (Crafter's 9×7 local view; leave it out for Longcraft's 9×9)", y.View.V)
	}
	if y.Reward != nil {
		rw := &task.Reward{}
		for _, r := range []struct {
			name string
			y    scalar[float64]
			out  *int
		}{{"stage", y.Reward.Stage, &rw.StageTenths}, {"goal", y.Reward.Goal, &rw.GoalTenths}} {
			if !r.y.Given {
				continue
			}
			x := r.y.V
			tenths := int(math.Round(x * 10))
			if x < 0 || math.Abs(x*10-float64(tenths)) > 1e-9 {
				return s.errAt(r.y.Line, "reward."+r.name, "%v: rewards are tenths (0.5, 1, 2.3)", x)
			}
			*r.out = tenths
		}
		sc.Reward = rw
	}
	sc.Params = slices.Clone(y.Params)
	return nil
}

// scenarioGiven checks that the scenario gives what it must (a name, a
// goal, a budget) and one map at most.
func (s *Suite) scenarioGiven(y *scenarioYAML, b *ScenarioBlock) error {
	switch {
	case b.Scenario.Name == "":
		return s.errAt(y.Line, "name", "missing")
	case y.Goal == nil:
		return s.errAt(y.Line, "goal", "missing")
	case b.Budget == 0:
		return s.errAt(y.Line, "budget", "missing (the step budget)")
	}
	if y.maps() > 1 {
		return s.errAt(y.Line, "map", "give one of map, map_file, grid and size")
	}
	return nil
}

// scenarioMap draws a grid's map and keeps a map as its rows alone.
func (s *Suite) scenarioMap(y *scenarioYAML, sc *task.Scenario) error {
	if grid := y.Grid.V; grid > 0 {
		// An open grass grid, the player at the start (default (0, 0)).
		start := [2]int{0, 0}
		if sc.Start != nil {
			start = *sc.Start
		}
		if start[0] < 0 || start[1] < 0 || start[0] >= grid || start[1] >= grid {
			return s.errAt(y.Line, "start", "(%d, %d) is outside the %d×%d grid", start[0], start[1], grid, grid)
		}
		var m strings.Builder
		for y := 0; y < grid; y++ {
			for x := 0; x < grid; x++ {
				if x == start[0] && y == start[1] {
					m.WriteByte('@')
				} else {
					m.WriteByte('.')
				}
			}
			m.WriteByte('\n')
		}
		sc.Map = m.String()
		sc.Start = nil
	}
	if sc.Map != "" {
		if rows, err := sim.ParseASCII(sc.Map); err == nil {
			// Keep the map as rows only: the same map with other blank
			// lines or trailing spaces is the same scenario.
			sc.Map = strings.Join(rows, "\n") + "\n"
		}
	}
	return nil
}

// implicitDefaults leaves out the defaults written out: the same
// scenario has one id however it is written.
func implicitDefaults(sc *task.Scenario) {
	if sc.Actions == task.ActionsPrimitive {
		sc.Actions = ""
	}
	if sc.Abundance == 100 {
		sc.Abundance = 0
	}
	if sc.Hostility == 100 {
		sc.Hostility = 0
	}
	if sc.Reward != nil && *sc.Reward == (task.Reward{StageTenths: 5, GoalTenths: 10}) {
		sc.Reward = nil
	}
}

// labelParams records an override's value as read (grid=8, not 0x8 or
// 8.0): two spellings of one value are one label.
func labelParams(sc *task.Scenario) {
	for i, p := range sc.Params {
		key, _, _ := strings.Cut(p, "=")
		switch key {
		case "grid":
			sc.Params[i] = fmt.Sprintf("grid=%d", sc.Side())
		case "size":
			sc.Params[i] = fmt.Sprintf("size=%d", sc.Size)
		case "tour":
			sc.Params[i] = fmt.Sprintf("tour=%d", len(sc.Goal.Goals))
		case "decisions":
			sc.Params[i] = fmt.Sprintf("decisions=%d", sc.Decisions)
		case "actions":
			a := sc.Actions
			if a == "" {
				a = task.ActionsPrimitive
			}
			sc.Params[i] = "actions=" + string(a)
		}
	}
}

// goal makes the goal of the goal language (goalYAML) the scenario's.
func (s *Suite) goal(y *goalYAML, sc *task.Scenario) (task.Goal, int, error) {
	switch y.Kind {
	case "obtain", "collect":
		g := task.Goal{Kind: task.KindObtain, Item: y.Item.Item.V, Count: y.Item.Count.or(1)}
		if y.Kind == "collect" {
			r, _ := sim.RulesByName(sc.Ruleset)
			if r != nil && !isRaw(r, g.Item) {
				return g, 0, s.errAt(y.Item.Line, "goal.collect", "%q is not a raw material of the %s rules (collect is for what the world gives: %s); use obtain", g.Item, sc.Ruleset, strings.Join(raws(r), ", "))
			}
		}
		return g, 0, nil
	case "reach":
		return task.Reach(y.Reach.X.V, y.Reach.Y.V), 0, nil
	case "waypoints":
		return s.waypoints(&y.Waypoints, sc)
	case "sequence":
		var goals []task.Goal
		for i := range y.Sequence {
			g, _, err := s.goal(&y.Sequence[i], sc)
			if err != nil {
				return g, 0, err
			}
			if g.Kind == task.KindAchievements {
				return g, 0, s.errAt(y.Sequence[i].Line, "goal.sequence", "achievements is open-ended: it cannot be a step")
			}
			goals = append(goals, g)
		}
		return task.Sequence(goals...), 0, nil
	case "survive":
		return task.Survive(y.Steps.V), 0, nil
	case "achievements":
		return task.Goal{Kind: task.KindAchievements}, y.Steps.V, nil
	}
	panic("suite: goal kind " + y.Kind + " decoded") // goalYAML refuses the others
}

// waypoints makes a waypoints goal: the first N of the map's tour, the
// positions or the landmarks, in order.
func (s *Suite) waypoints(y *waypointsYAML, sc *task.Scenario) (task.Goal, int, error) {
	var goals []task.Goal
	switch {
	case y.Tour != nil:
		side := sc.Side()
		tour := Tour(side)
		if count := y.Tour.V; count < 1 || count > len(tour) {
			return task.Goal{}, 0, s.errAt(y.Tour.Line, "goal.waypoints.tour", "%d: the tour of a %d×%d map has 1 to %d waypoints", count, side, side, len(tour))
		}
		for _, p := range tour[:y.Tour.V] {
			goals = append(goals, task.Reach(p[0], p[1]))
		}
	case y.Points != nil:
		for _, p := range y.Points {
			goals = append(goals, task.Reach(p.X.V, p.Y.V))
		}
	default:
		return task.Waypoints(y.Landmarks...), 0, nil
	}
	return task.Sequence(goals...), 0, nil
}

// Tour is the fixed order of waypoints of {waypoints: {tour: N}} on a
// side×side map whose player starts at (0, 0): the three far corners
// ((side-1, 0), (0, side-1), (side-1, side-1)), the centre, then the
// midpoints of the edges. The multigoal-grid suite's three waypoints are
// its first three.
func Tour(side int) [][2]int {
	e, m := side-1, side/2
	return [][2]int{{e, 0}, {0, e}, {e, e}, {m, m}, {m, 0}, {0, m}, {e, m}, {m, e}}
}

// isRaw reports whether item is what a collect rule gives.
func isRaw(r *sim.Rules, item string) bool { return slices.Contains(raws(r), item) }

func raws(r *sim.Rules) []string {
	var out []string
	for _, c := range r.Collect {
		out = append(out, r.Items[c.Receive.Item].Name)
	}
	return out
}
