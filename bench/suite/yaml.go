package suite

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/longcraft/longcraft/bench/task"
)

// The suite file as written: what decode (decode.go) fills, field by
// field, before validate (validate.go, scenario.go) makes a Suite of it.
// Fields keep their lines for the errors; the yaml tags are the keys, in
// the order an unknown field's message lists them.

type suiteYAML struct {
	Name        scalar[string] `yaml:"name"`
	Description scalar[string] `yaml:"description"`
	Protocol    *protocolYAML  `yaml:"protocol"`
	Episodes    []blockYAML    `yaml:"episodes" want:"want a non-empty list of blocks" nonempty:"1" section:"1"`
	Scenarios   []scenarioYAML `yaml:"scenarios" want:"want a non-empty list of scenarios" nonempty:"1" section:"1"`
	Line        int
}

func (*suiteYAML) shape() string {
	return "a suite is a mapping with name, description, episodes and scenarios"
}

type blockYAML struct {
	Families      []scalar[string] `yaml:"families" want:"want a non-empty list" nonempty:"1"`
	Tiers         []scalar[string] `yaml:"tiers" want:"want a non-empty list" nonempty:"1"`
	Split         scalar[string]   `yaml:"split"`
	Seeds         *seedsYAML       `yaml:"seeds"`
	Budget        scalar[int]      `yaml:"budget"`
	Feedback      scalar[string]   `yaml:"feedback"`
	Observability scalar[string]   `yaml:"observability"`
	Line          int
}

func (*blockYAML) shape() string { return "each block is a mapping" }

type seedsYAML struct {
	From  scalar[uint64] `yaml:"from"`
	Count scalar[uint64] `yaml:"count"`
	Line  int
}

func (*seedsYAML) shape() string { return "want {from: N, count: M}" }

type protocolYAML struct {
	Name          scalar[string]  `yaml:"name"`
	Reference     scalar[string]  `yaml:"reference"`
	History       scalar[int]     `yaml:"history"`
	Temperature   scalar[float64] `yaml:"temperature"`
	MaxTokens     scalar[int]     `yaml:"max_tokens"`
	InvalidNotice scalar[bool]    `yaml:"invalid_notice"`
	Line          int
}

func (*protocolYAML) shape() string {
	return "want {name: N, history: H, temperature: T, max_tokens: M, invalid_notice: B, reference: R}"
}

type scenarioYAML struct {
	Name          scalar[string]         `yaml:"name"`
	Ruleset       scalar[string]         `yaml:"ruleset"`
	Map           scalar[string]         `yaml:"map"`
	MapFile       scalar[string]         `yaml:"map_file"`
	Grid          scalar[int]            `yaml:"grid"`
	Size          scalar[int]            `yaml:"size"`
	Start         *point                 `yaml:"start"`
	Objects       []objectYAML           `yaml:"objects" want:"want a list of {kind: K, at: [x, y]}"`
	Landmarks     []point                `yaml:"landmarks" want:"want a list of [x, y]"`
	Inventory     map[string]scalar[int] `yaml:"inventory" want:"want {item: count, …}"`
	Spawn         scalar[bool]           `yaml:"spawn"`
	Abundance     scalar[int]            `yaml:"abundance"`
	Hostility     scalar[int]            `yaml:"hostility"`
	Variants      scalar[bool]           `yaml:"variants"`
	Vary          varyYAML               `yaml:"vary"`
	Fixed         scalar[bool]           `yaml:"fixed"`
	Goal          *goalYAML              `yaml:"goal"`
	Budget        scalar[int]            `yaml:"budget"`
	Decisions     scalar[int]            `yaml:"decisions"`
	Actions       scalar[string]         `yaml:"actions"`
	Feedback      scalar[string]         `yaml:"feedback"`
	Observability scalar[string]         `yaml:"observability"`
	View          scalar[string]         `yaml:"view"`
	Reward        *rewardYAML            `yaml:"reward"`
	Split         scalar[string]         `yaml:"split"`
	Seeds         *seedsYAML             `yaml:"seeds"`
	// Params are written by --set and --sweep alone (set.go): a file's
	// own would label a scenario as something it is not.
	Params []string `yaml:"-"`
	Line   int
}

func (*scenarioYAML) shape() string { return "each scenario is a mapping" }

// maps counts the fields that each give the scenario its map: map,
// map_file, grid and size.
func (sc *scenarioYAML) maps() int {
	n := 0
	for _, given := range []bool{sc.Map.Given, sc.MapFile.Given, sc.Grid.Given, sc.Size.Given} {
		if given {
			n++
		}
	}
	return n
}

// mapLine is the line of the scenario's hand-written map (map, map_file
// or grid), 0 for none: where a fault of the map is.
func (sc *scenarioYAML) mapLine() int {
	switch {
	case sc.Map.Given:
		return sc.Map.Line
	case sc.MapFile.Given:
		return sc.MapFile.Line
	case sc.Grid.Given:
		return sc.Grid.Line
	}
	return 0
}

type objectYAML struct {
	Kind scalar[string] `yaml:"kind"`
	At   point          `yaml:"at"`
}

func (*objectYAML) shape() string { return "want {kind: K, at: [x, y]}" }

// varyYAML is [symmetry, start]: what the seed changes on a hand-written
// map.
type varyYAML []scalar[string]

func (*varyYAML) shape() string {
	return fmt.Sprintf("want a list (%s)", strings.Join(task.VaryChoices(), ", "))
}

type rewardYAML struct {
	Stage scalar[float64] `yaml:"stage"`
	Goal  scalar[float64] `yaml:"goal"`
}

func (*rewardYAML) shape() string { return "want {stage: R, goal: R}" }

// goalKinds are the kinds of goal, for the messages.
const goalKinds = "obtain, collect, reach, waypoints, sequence, survive or achievements"

// goalYAML is a goal of the goal language: a mapping of one kind.
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
type goalYAML struct {
	Kind      string // the one key
	Line      int
	Item      itemYAML      // obtain, collect
	Reach     point         // reach
	Waypoints waypointsYAML // waypoints
	Sequence  []goalYAML    // sequence
	Steps     scalar[int]   // survive; achievements' count
}

func (g *goalYAML) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return faultAt(n, "want one of {%s: …}", goalKinds)
	}
	k, v := n.Content[0], n.Content[1]
	g.Kind, g.Line = k.Value, n.Line
	var err error
	switch k.Value {
	case "obtain", "collect":
		err = g.Item.UnmarshalYAML(v)
	case "reach":
		err = g.Reach.UnmarshalYAML(v)
	case "waypoints":
		err = g.Waypoints.UnmarshalYAML(v)
	case "sequence":
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			return within(k.Value, faultAt(v, "want a non-empty list of goals"))
		}
		g.Sequence = make([]goalYAML, len(v.Content))
		for i, c := range v.Content {
			// A step's fault is named as a goal of its own (goal.obtain).
			if err := g.Sequence[i].UnmarshalYAML(c); err != nil {
				return err
			}
		}
	case "survive", "achievements":
		err = g.Steps.UnmarshalYAML(v)
	default:
		err = faultAt(k, "unknown goal (%s)", goalKinds)
	}
	return within(k.Value, err)
}

// itemYAML is an obtain or collect goal's item: a name, or {item: I,
// count: N} (count 1 when left out).
type itemYAML struct {
	Item  text        `yaml:"item"`
	Count scalar[int] `yaml:"count"`
	Line  int
}

func (it *itemYAML) UnmarshalYAML(n *yaml.Node) error {
	it.Line = n.Line
	switch n.Kind {
	case yaml.ScalarNode:
		return it.Item.UnmarshalYAML(n)
	case yaml.MappingNode:
		return decodeFields(n, reflect.ValueOf(it).Elem())
	}
	return faultAt(n, "want an item or {item: I, count: N}")
}

// waypointsYAML is one of its three forms: {tour: N}, positions or
// landmarks (a letter A to I each).
type waypointsYAML struct {
	Tour      *scalar[int]
	Points    []point
	Landmarks []int // 0 for A
}

func (w *waypointsYAML) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content) != 2 || n.Content[0].Value != "tour" {
			return faultAt(n, "want {tour: N}, a list of [x, y] or a list of landmarks")
		}
		w.Tour = &scalar[int]{}
		return within("tour", w.Tour.UnmarshalYAML(n.Content[1]))
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return faultAt(n, "empty")
		}
		if n.Content[0].Kind == yaml.SequenceNode {
			w.Points = make([]point, len(n.Content))
			for i, c := range n.Content {
				if err := w.Points[i].UnmarshalYAML(c); err != nil {
					return err
				}
			}
			return nil
		}
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode || len(c.Value) != 1 || c.Value[0] < 'A' || c.Value[0] > 'I' {
				return faultAt(c, "%q: a landmark is A to I", c.Value)
			}
			w.Landmarks = append(w.Landmarks, int(c.Value[0]-'A'))
		}
		return nil
	}
	return faultAt(n, "want a list of [x, y], a list of landmarks or {tour: N}")
}
