package suite

import (
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

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

// scenarioFields are the fields of a scenarios entry, for the unknown
// field message and the docs.
var scenarioFields = []string{"name", "ruleset", "map", "map_file", "grid", "size", "start", "objects", "landmarks",
	"inventory", "spawn", "abundance", "hostility", "variants", "vary", "fixed", "goal", "budget", "decisions", "actions",
	"feedback", "observability", "view", "reward", "split", "seeds", "params"}

// scenario reads one scenarios entry.
func (s *Suite) scenario(n *yaml.Node) (ScenarioBlock, error) {
	b := ScenarioBlock{line: n.Line, Split: task.Eval, Count: 1}
	sc := &b.Scenario
	sc.Ruleset = "classic"
	if n.Kind != yaml.MappingNode {
		return b, s.errf(n, "scenarios", "each scenario is a mapping")
	}
	seen := map[string]bool{}
	var goal *yaml.Node
	var paramsNode *yaml.Node
	grid := 0
	var mapNode *yaml.Node
	spawn := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := k.Value
		if seen[f] {
			return b, s.errf(k, f, "given twice")
		}
		seen[f] = true
		var err error
		switch f {
		case "name":
			if err = s.scalar(v, f, &sc.Name); err == nil && !scenarioName.MatchString(sc.Name) {
				err = s.errf(v, f, "%q: one word of letters, digits, - or _", sc.Name)
			}
		case "ruleset":
			if err = s.scalar(v, f, &sc.Ruleset); err == nil {
				if _, e := sim.RulesByName(sc.Ruleset); e != nil {
					err = s.errf(v, f, "%v", e)
				}
			}
		case "map":
			mapNode = v
			err = s.scalar(v, f, &sc.Map)
		case "map_file":
			mapNode = v
			var file string
			if err = s.scalar(v, f, &file); err == nil {
				var data []byte
				if data, err = s.readBeside(file); err != nil {
					err = s.errf(v, f, "%v", err)
				}
				sc.Map = string(data)
			}
		case "grid":
			mapNode = v
			if err = s.scalar(v, f, &grid); err == nil && (grid < 3 || grid > 256) {
				err = s.errf(v, f, "%d: an open grid is 3 to 256 tiles a side", grid)
			}
		case "size":
			if err = s.scalar(v, f, &sc.Size); err == nil && (sc.Size < 9 || sc.Size > 256) {
				err = s.errf(v, f, "%d: a generated world is 9 to 256 tiles a side", sc.Size)
			}
		case "start":
			var p [2]int
			if p, err = s.point(v, f); err == nil {
				sc.Start = &p
			}
		case "objects":
			err = s.objects(v, sc)
		case "landmarks":
			if v.Kind != yaml.SequenceNode {
				err = s.errf(v, f, "want a list of [x, y]")
				break
			}
			for _, c := range v.Content {
				p, e := s.point(c, f)
				if e != nil {
					return b, e
				}
				sc.Landmarks = append(sc.Landmarks, p)
			}
		case "inventory":
			if v.Kind != yaml.MappingNode {
				err = s.errf(v, f, "want {item: count, …}")
				break
			}
			if d := dupKey(v); d != nil {
				err = s.errf(d, "inventory."+d.Value, "given twice")
				break
			}
			sc.Inventory = map[string]int{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				var c int
				if err = s.scalar(v.Content[j+1], "inventory."+v.Content[j].Value, &c); err != nil {
					return b, err
				}
				sc.Inventory[v.Content[j].Value] = c
			}
		case "spawn":
			err = s.scalar(v, f, &spawn)
		case "abundance":
			err = s.scalar(v, f, &sc.Abundance)
		case "hostility":
			err = s.scalar(v, f, &sc.Hostility)
		case "variants":
			err = s.scalar(v, f, &sc.Variants)
		case "vary":
			err = s.vary(v, sc)
		case "fixed":
			err = s.scalar(v, f, &sc.Fixed)
		case "goal":
			goal = v
		case "budget":
			b.Budget, err = s.budget(v)
		case "decisions":
			if err = s.scalar(v, f, &sc.Decisions); err == nil && (sc.Decisions < 1 || sc.Decisions > 1_000_000) {
				err = s.errf(v, f, "%d: want 1 to 1,000,000 decisions", sc.Decisions)
			}
		case "actions":
			var a string
			if err = s.scalar(v, f, &a); err == nil && !task.ActionLevel(a).Valid() {
				err = s.errf(v, f, "%q: want primitive or skills", a)
			}
			sc.Actions = task.ActionLevel(a)
		case "feedback":
			b.Feedback, err = s.feedback(v)
		case "observability":
			b.Observability, err = s.observability(v)
		case "view":
			var lv string
			if err = s.scalar(v, f, &lv); err == nil && (lv == "" || !task.LocalView(lv).Valid()) {
				err = s.errf(v, f, "%q: want crafter (Crafter's 9×7 local view; leave it out for Longcraft's 9×9)", lv)
			}
			sc.View = task.LocalView(lv)
		case "reward":
			err = s.reward(v, sc)
		case "split":
			b.Split, err = s.split(v)
		case "seeds":
			b.From, b.Count, err = s.seeds(v)
		case "params":
			if !s.overrides {
				// Written by --set and --sweep only: a hand-written one
				// would label a scenario as something it is not.
				err = s.errf(k, f, "unknown field (%s)", strings.Join(scenarioFields[:len(scenarioFields)-1], ", "))
				break
			}
			paramsNode = v
			if v.Kind != yaml.SequenceNode {
				err = s.errf(v, f, "want a list")
				break
			}
			for _, c := range v.Content {
				var p string
				if err = s.scalar(c, f, &p); err != nil {
					break
				}
				sc.Params = append(sc.Params, p)
			}
		default:
			err = s.errf(k, f, "unknown field (%s)", strings.Join(scenarioFields[:len(scenarioFields)-1], ", "))
		}
		if err != nil {
			return b, err
		}
	}
	switch {
	case sc.Name == "":
		return b, s.errf(n, "name", "missing")
	case goal == nil:
		return b, s.errf(n, "goal", "missing")
	case b.Budget == 0:
		return b, s.errf(n, "budget", "missing (the step budget)")
	}
	maps := 0
	for _, f := range []string{"map", "map_file", "grid", "size"} {
		if seen[f] {
			maps++
		}
	}
	if maps > 1 {
		return b, s.errf(n, "map", "give one of map, map_file, grid and size")
	}
	if grid > 0 {
		// An open grass grid, the player at the start (default (0, 0)).
		start := [2]int{0, 0}
		if sc.Start != nil {
			start = *sc.Start
		}
		if start[0] < 0 || start[1] < 0 || start[0] >= grid || start[1] >= grid {
			return b, s.errf(n, "start", "(%d, %d) is outside the %d×%d grid", start[0], start[1], grid, grid)
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
	sc.NoSpawn = !spawn
	// Defaults written out are the defaults left out: the same scenario
	// has one id however it is written.
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
	g, achieve, err := s.goal(goal, sc)
	if err != nil {
		return b, err
	}
	sc.Goal, sc.Achieve = g, achieve
	if err := sc.Check(); err != nil {
		at := n
		if strings.HasPrefix(err.Error(), "map") && mapNode != nil {
			at = mapNode
		} else if strings.HasPrefix(err.Error(), "goal") {
			at = goal
		}
		return b, s.errf(at, "", "scenario %s: %v", sc.Name, err)
	}
	// An override's recorded value is the value as read (grid=8, not
	// 0x8 or 8.0): two spellings of one value are one label.
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
		default:
			return b, s.errf(paramsNode, "params", "%q: not an override of a scenario's own knobs", p)
		}
	}
	if sc.Goal.Kind == task.KindSurvive && b.Budget < sc.Goal.Steps {
		return b, s.errf(n, "budget", "%d is shorter than the survive goal (%d steps): no agent could succeed", b.Budget, sc.Goal.Steps)
	}
	return b, nil
}

// readBeside reads a file named relative to the suite's own file (inside
// the binary for an embedded suite).
func (s *Suite) readBeside(name string) ([]byte, error) {
	if s.embeddedName != "" {
		return embedded.ReadFile(path.Join("suites", path.Clean("/" + name)[1:]))
	}
	return readLimited(filepath.Join(filepath.Dir(s.path), name))
}

// maxMapFile bounds a map file: a 256×256 map is 66 KB.
const maxMapFile = 1 << 20

// readLimited reads a regular file of at most maxMapFile bytes, so that a
// suite naming /dev/zero or a huge file fails instead of hanging.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMapFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxMapFile {
		return nil, fmt.Errorf("%s: over %d bytes", path, maxMapFile)
	}
	return data, nil
}

// point reads [x, y].
func (s *Suite) point(n *yaml.Node, field string) ([2]int, error) {
	var p [2]int
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
		return p, s.errf(n, field, "want [x, y]")
	}
	for i := range p {
		if err := s.scalar(n.Content[i], field, &p[i]); err != nil {
			return p, err
		}
	}
	return p, nil
}

// objects reads [{kind: cow, at: [x, y]}, …].
func (s *Suite) objects(n *yaml.Node, sc *task.Scenario) error {
	if n.Kind != yaml.SequenceNode {
		return s.errf(n, "objects", "want a list of {kind: K, at: [x, y]}")
	}
	for _, c := range n.Content {
		if c.Kind != yaml.MappingNode {
			return s.errf(c, "objects", "want {kind: K, at: [x, y]}")
		}
		if d := dupKey(c); d != nil {
			return s.errf(d, "objects."+d.Value, "given twice")
		}
		var o task.Placed
		for i := 0; i+1 < len(c.Content); i += 2 {
			k, v := c.Content[i], c.Content[i+1]
			switch k.Value {
			case "kind":
				if err := s.scalar(v, "objects.kind", &o.Kind); err != nil {
					return err
				}
			case "at":
				p, err := s.point(v, "objects.at")
				if err != nil {
					return err
				}
				o.X, o.Y = p[0], p[1]
			default:
				return s.errf(k, "objects."+k.Value, "unknown field (kind, at)")
			}
		}
		sc.Objects = append(sc.Objects, o)
	}
	return nil
}

// vary reads [symmetry, start]: what the seed changes on a hand-written
// map, kept in the order of task.VaryChoices so that one set has one id
// however it is listed.
func (s *Suite) vary(n *yaml.Node, sc *task.Scenario) error {
	if n.Kind != yaml.SequenceNode {
		return s.errf(n, "vary", "want a list (%s)", strings.Join(task.VaryChoices(), ", "))
	}
	for _, c := range n.Content {
		var v string
		if err := s.scalar(c, "vary", &v); err != nil {
			return err
		}
		if !slices.Contains(task.VaryChoices(), v) {
			return s.errf(c, "vary", "%q: want %s", v, strings.Join(task.VaryChoices(), " or "))
		}
		if slices.Contains(sc.Vary, v) {
			return s.errf(c, "vary", "%s given twice", v)
		}
		sc.Vary = append(sc.Vary, v)
	}
	slices.SortFunc(sc.Vary, func(a, b string) int {
		return slices.Index(task.VaryChoices(), a) - slices.Index(task.VaryChoices(), b)
	})
	return nil
}

// reward reads {stage: 0.5, goal: 1.0}.
func (s *Suite) reward(n *yaml.Node, sc *task.Scenario) error {
	if n.Kind != yaml.MappingNode {
		return s.errf(n, "reward", "want {stage: R, goal: R}")
	}
	if d := dupKey(n); d != nil {
		return s.errf(d, "reward."+d.Value, "given twice")
	}
	rw := &task.Reward{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var x float64
		if err := s.scalar(v, "reward."+k.Value, &x); err != nil {
			return err
		}
		tenths := int(math.Round(x * 10))
		if x < 0 || math.Abs(x*10-float64(tenths)) > 1e-9 {
			return s.errf(v, "reward."+k.Value, "%v: rewards are tenths (0.5, 1, 2.3)", x)
		}
		switch k.Value {
		case "stage":
			rw.StageTenths = tenths
		case "goal":
			rw.GoalTenths = tenths
		default:
			return s.errf(k, "reward."+k.Value, "unknown field (stage, goal)")
		}
	}
	sc.Reward = rw
	return nil
}

// goal reads a goal of the goal language: a mapping of one kind.
//
//	{obtain: compass} {obtain: {item: wood, count: 3}}
//	{collect: {item: stone, count: 5}}   (a raw material)
//	{reach: [x, y]}
//	{waypoints: [[x, y], …]}  positions, in order
//	{waypoints: [A, C, B]}    landmarks, in order
//	{waypoints: {tour: N}}    the first N of the map's corner tour
//	{sequence: [goal, …]}
//	{survive: N}
//	{achievements: N}         N achievements count as success (0: open)
func (s *Suite) goal(n *yaml.Node, sc *task.Scenario) (task.Goal, int, error) {
	kinds := "obtain, collect, reach, waypoints, sequence, survive or achievements"
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return task.Goal{}, 0, s.errf(n, "goal", "want one of {%s: …}", kinds)
	}
	k, v := n.Content[0], n.Content[1]
	switch k.Value {
	case "obtain", "collect":
		g := task.Goal{Kind: task.KindObtain, Count: 1}
		if v.Kind == yaml.ScalarNode {
			g.Item = v.Value
		} else if v.Kind == yaml.MappingNode {
			if d := dupKey(v); d != nil {
				return g, 0, s.errf(d, "goal."+k.Value+"."+d.Value, "given twice")
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				switch f := v.Content[i].Value; f {
				case "item":
					g.Item = v.Content[i+1].Value
				case "count":
					if err := s.scalar(v.Content[i+1], "goal."+k.Value+".count", &g.Count); err != nil {
						return g, 0, err
					}
				default:
					return g, 0, s.errf(v.Content[i], "goal."+k.Value+"."+f, "unknown field (item, count)")
				}
			}
		} else {
			return g, 0, s.errf(v, "goal."+k.Value, "want an item or {item: I, count: N}")
		}
		if k.Value == "collect" {
			r, _ := sim.RulesByName(sc.Ruleset)
			if r != nil && !isRaw(r, g.Item) {
				return g, 0, s.errf(v, "goal.collect", "%q is not a raw material of the %s rules (collect is for what the world gives: %s); use obtain", g.Item, sc.Ruleset, strings.Join(raws(r), ", "))
			}
		}
		return g, 0, nil
	case "reach":
		p, err := s.point(v, "goal.reach")
		return task.Reach(p[0], p[1]), 0, err
	case "waypoints":
		switch v.Kind {
		case yaml.MappingNode:
			if len(v.Content) != 2 || v.Content[0].Value != "tour" {
				return task.Goal{}, 0, s.errf(v, "goal.waypoints", "want {tour: N}, a list of [x, y] or a list of landmarks")
			}
			var count int
			if err := s.scalar(v.Content[1], "goal.waypoints.tour", &count); err != nil {
				return task.Goal{}, 0, err
			}
			side := sc.Side()
			tour := Tour(side)
			if count < 1 || count > len(tour) {
				return task.Goal{}, 0, s.errf(v.Content[1], "goal.waypoints.tour", "%d: the tour of a %d×%d map has 1 to %d waypoints", count, side, side, len(tour))
			}
			var goals []task.Goal
			for _, p := range tour[:count] {
				goals = append(goals, task.Reach(p[0], p[1]))
			}
			return task.Sequence(goals...), 0, nil
		case yaml.SequenceNode:
			if len(v.Content) == 0 {
				return task.Goal{}, 0, s.errf(v, "goal.waypoints", "empty")
			}
			if v.Content[0].Kind == yaml.SequenceNode {
				var goals []task.Goal
				for _, c := range v.Content {
					p, err := s.point(c, "goal.waypoints")
					if err != nil {
						return task.Goal{}, 0, err
					}
					goals = append(goals, task.Reach(p[0], p[1]))
				}
				return task.Sequence(goals...), 0, nil
			}
			var order []int
			for _, c := range v.Content {
				if c.Kind != yaml.ScalarNode || len(c.Value) != 1 || c.Value[0] < 'A' || c.Value[0] > 'I' {
					return task.Goal{}, 0, s.errf(c, "goal.waypoints", "%q: a landmark is A to I", c.Value)
				}
				order = append(order, int(c.Value[0]-'A'))
			}
			return task.Waypoints(order...), 0, nil
		}
		return task.Goal{}, 0, s.errf(v, "goal.waypoints", "want a list of [x, y], a list of landmarks or {tour: N}")
	case "sequence":
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			return task.Goal{}, 0, s.errf(v, "goal.sequence", "want a non-empty list of goals")
		}
		var goals []task.Goal
		for _, c := range v.Content {
			g, _, err := s.goal(c, sc)
			if err != nil {
				return g, 0, err
			}
			if g.Kind == task.KindAchievements {
				return g, 0, s.errf(c, "goal.sequence", "achievements is open-ended: it cannot be a step")
			}
			goals = append(goals, g)
		}
		return task.Sequence(goals...), 0, nil
	case "survive":
		var steps int
		err := s.scalar(v, "goal.survive", &steps)
		return task.Survive(steps), 0, err
	case "achievements":
		var count int
		err := s.scalar(v, "goal.achievements", &count)
		return task.Goal{Kind: task.KindAchievements}, count, err
	}
	return task.Goal{}, 0, s.errf(k, "goal."+k.Value, "unknown goal (%s)", kinds)
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

// specs lists the first n episodes of a scenarios entry.
func (b *ScenarioBlock) specs(n uint64) []task.Spec {
	sc := b.Scenario
	n = min(n, b.Count)
	out := make([]task.Spec, 0, n)
	for i := uint64(0); i < n; i++ {
		out = append(out, task.Spec{Family: sc.Label(), Tier: task.TierScenario, Split: b.Split, Index: b.From + i,
			Budget: b.Budget, Feedback: b.Feedback, Observability: b.Observability, Scenario: &sc})
	}
	return out
}
