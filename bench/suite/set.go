package suite

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// settable are the fields --set may override: every field of an episodes
// block, seeds by its two parts; and of a scenario, those and its own
// knobs (scenarioOwn).
var settable = []string{"families", "tiers", "split", "seeds.from", "seeds.count", "budget", "feedback", "observability",
	"grid", "size", "tour", "decisions", "actions"}

// blockKeys apply to episodes blocks, scenarioKeys to scenarios; the
// scenario's own knobs are recorded in its params, so its label (and its
// results' family) says what was changed.
var (
	blockKeys    = []string{"families", "tiers", "split", "seeds.from", "seeds.count", "budget", "feedback", "observability"}
	scenarioKeys = []string{"split", "seeds.from", "seeds.count", "budget", "feedback", "observability", "grid", "size", "tour", "decisions", "actions"}
	scenarioOwn  = []string{"grid", "size", "tour", "decisions", "actions"}
)

// Set is one override of a suite's blocks, key=value as --set writes it.
// The value is YAML (a list as "[a, b]" or "a,b"). A Scope names the one
// scenario it applies to (NAME:key=value); "" applies it everywhere.
type Set struct{ Scope, Key, Value string }

// ParseSet reads key=value, or NAME:key=value for scenario NAME alone.
func ParseSet(s string) (Set, error) {
	k, v, ok := strings.Cut(s, "=")
	scope, k := splitScope(strings.TrimSpace(k))
	if !ok || k == "" {
		return Set{}, fmt.Errorf("--set %q: want key=value or SCENARIO:key=value (keys: %s)", s, strings.Join(settable, ", "))
	}
	if !slices.Contains(settable, k) {
		return Set{}, fmt.Errorf("--set %s: unknown key (keys: %s)", s, strings.Join(settable, ", "))
	}
	if scope != "" && !slices.Contains(scenarioKeys, k) {
		return Set{}, fmt.Errorf("--set %s: a scenario takes %s", s, strings.Join(scenarioKeys, ", "))
	}
	return Set{scope, k, strings.TrimSpace(v)}, nil
}

// splitScope splits "NAME:key" into the scenario's name and the key.
func splitScope(k string) (scope, key string) {
	if a, b, ok := strings.Cut(k, ":"); ok {
		return strings.TrimSpace(a), strings.TrimSpace(b)
	}
	return "", k
}

func (s Set) String() string {
	if s.Scope != "" {
		return s.Scope + ":" + s.param()
	}
	return s.param()
}

// param is the override as a scenario's params record it: key=value.
func (s Set) param() string { return s.Key + "=" + s.Value }

// overlaps reports whether two sets change the same field somewhere.
func (s Set) overlaps(t Set) bool {
	return s.Key == t.Key && (s.Scope == t.Scope || s.Scope == "" || t.Scope == "")
}

// LoadWith is Load with overrides applied to every episodes block before
// it is read, so an override is validated as the YAML it stands for would
// be, and an error names the --set that caused it. The suite's name gains
// the overrides ("default budget=50"), so that results, summaries and
// locks never pass it off as the suite itself.
func LoadWith(nameOrPath string, sets []Set) (*Suite, error) {
	if len(sets) == 0 {
		return Load(nameOrPath)
	}
	for i, a := range sets {
		for _, b := range sets[:i] {
			if a.overlaps(b) {
				return nil, fmt.Errorf("--set %s and --set %s: %s set twice", b, a, a.Key)
			}
		}
	}
	data, file, err := read(nameOrPath)
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return Parse(file, data) // its own error
	}
	applied := make([]int, len(sets))
	for i := 0; i+1 < len(doc.Content); i += 2 {
		section := doc.Content[i].Value
		if (section != "episodes" && section != "scenarios") || doc.Content[i+1].Kind != yaml.SequenceNode {
			continue
		}
		keys := blockKeys
		if section == "scenarios" {
			keys = scenarioKeys
		}
		for _, blk := range doc.Content[i+1].Content {
			for j, set := range sets {
				if !slices.Contains(keys, set.Key) {
					continue
				}
				if set.Scope != "" && (section != "scenarios" || blk.Kind != yaml.MappingNode || field(blk, "name") == nil || field(blk, "name").Value != set.Scope) {
					continue
				}
				if err := override(blk, set); err != nil {
					return nil, err
				}
				applied[j]++
			}
		}
	}
	for j, set := range sets {
		if applied[j] == 0 && set.Scope != "" {
			return nil, fmt.Errorf("--set %s: %s has no scenario %s", set, file, set.Scope)
		}
		if applied[j] == 0 {
			return nil, fmt.Errorf("--set %s: %s has nothing to set it on (episodes blocks take %s; scenarios take %s)", set, file,
				strings.Join(blockKeys, ", "), strings.Join(scenarioKeys, ", "))
		}
	}
	out, err := yaml.Marshal(&root)
	if err != nil {
		return nil, fmt.Errorf("--set: %w", err)
	}
	// Keys are set once each, so their order changes nothing: the name
	// lists them sorted, and the same overrides in another order name the
	// same suite.
	var names []string
	for _, s := range sets {
		names = append(names, s.String())
	}
	slices.Sort(names)
	label := strings.Join(names, " ")
	s, err := parseWith(nameOrPath, file+" with --set "+label, out, true)
	if err != nil {
		return nil, err
	}
	s.Name += " " + label
	return s, nil
}

// override sets one field of a block mapping, adding it if absent.
func override(blk *yaml.Node, set Set) error {
	if blk.Kind != yaml.MappingNode {
		return nil // Parse reports it
	}
	var value yaml.Node
	v := set.Value
	if (set.Key == "families" || set.Key == "tiers") && !strings.HasPrefix(v, "[") {
		v = "[" + v + "]"
	}
	if err := yaml.Unmarshal([]byte(v), &value); err != nil {
		return fmt.Errorf("--set %s: %w", set, err)
	}
	node := &value
	if node.Kind == yaml.DocumentNode && len(node.Content) == 1 {
		node = node.Content[0]
	}
	if node.Kind == 0 { // an empty value
		node = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ""}
	}
	if slices.Contains(scenarioOwn, set.Key) {
		// The scenario's label records the change: its results are
		// another row than the scenario's own.
		params := field(blk, "params")
		if params == nil || params.Kind != yaml.SequenceNode {
			params = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			setField(blk, "params", params)
		}
		params.Content = append(params.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: set.param()})
		slices.SortFunc(params.Content, func(a, b *yaml.Node) int { return strings.Compare(a.Value, b.Value) })
	}
	switch set.Key {
	case "tour":
		// The goal becomes the first N waypoints of the corner tour.
		tour := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		setField(tour, "tour", node)
		wp := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		setField(wp, "waypoints", tour)
		setField(blk, "goal", wp)
		return nil
	case "grid", "size":
		// One map at a time: the new one replaces the scenario's.
		for _, k := range []string{"map", "map_file", "grid", "size"} {
			removeField(blk, k)
		}
	}
	key, sub, nested := strings.Cut(set.Key, ".")
	target := field(blk, key)
	if nested {
		if target == nil || target.Kind != yaml.MappingNode {
			target = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			setField(blk, key, target)
		}
		setField(target, sub, node)
		return nil
	}
	setField(blk, key, node)
	return nil
}

func field(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func removeField(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func setField(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// sweepable are the keys --sweep may range over: the ones that change
// every episode's spec, so no two values share an episode (a sweep over
// tiers or seeds would play some episodes twice).
var sweepable = []string{"budget", "feedback", "observability", "grid", "size", "tour", "decisions"}

// Sweep is one --sweep: a key and the values it takes, key=v1,v2,...
// (SCENARIO:key=v1,v2,... for one scenario alone).
type Sweep struct {
	Scope  string
	Key    string
	Values []string
}

// ParseSweep reads key=v1,v2,...
func ParseSweep(s string) (Sweep, error) {
	k, v, ok := strings.Cut(s, "=")
	scope, k := splitScope(strings.TrimSpace(k))
	if !ok || !slices.Contains(sweepable, k) {
		return Sweep{}, fmt.Errorf("--sweep %q: want key=v1,v2,... or SCENARIO:key=v1,v2,... with key one of %s (the fields that change every episode)", s, strings.Join(sweepable, ", "))
	}
	var values []string
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			if slices.Contains(values, x) {
				return Sweep{}, fmt.Errorf("--sweep %s: %s given twice", s, x)
			}
			values = append(values, x)
		}
	}
	if len(values) < 2 {
		return Sweep{}, fmt.Errorf("--sweep %s: give at least two values", s)
	}
	return Sweep{scope, k, values}, nil
}

func (s Sweep) String() string {
	kv := s.Key + "=" + strings.Join(s.Values, ",")
	if s.Scope != "" {
		return s.Scope + ":" + kv
	}
	return kv
}

// LoadSweep is LoadWith played once per combination of the sweeps'
// values, as one suite: the blocks of every combination, in order, so one
// run directory holds them all, with the swept fields in every episode's
// spec (and so in every result). Its name says what was swept.
func LoadSweep(nameOrPath string, sets []Set, sweeps []Sweep) (*Suite, error) {
	if len(sweeps) == 0 {
		return LoadWith(nameOrPath, sets)
	}
	for i, sw := range sweeps {
		for _, other := range sweeps[:i] {
			if (Set{Scope: sw.Scope, Key: sw.Key}).overlaps(Set{Scope: other.Scope, Key: other.Key}) {
				return nil, fmt.Errorf("--sweep %s: %s swept twice", sw, sw.Key)
			}
		}
		for _, set := range sets {
			if set.overlaps(Set{Scope: sw.Scope, Key: sw.Key}) {
				return nil, fmt.Errorf("--sweep %s and --set %s: one or the other", sw, set)
			}
		}
	}
	combos := [][]Set{nil}
	for _, sw := range sweeps {
		var next [][]Set
		for _, c := range combos {
			for _, v := range sw.Values {
				next = append(next, append(slices.Clone(c), Set{sw.Scope, sw.Key, v}))
			}
		}
		combos = next
	}
	var out *Suite
	for _, c := range combos {
		s, err := LoadWith(nameOrPath, append(slices.Clone(sets), c...))
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = &Suite{Description: s.Description, Protocol: s.Protocol, file: s.file, path: s.path, embeddedName: s.embeddedName}
		}
		// A sweep scoped to one scenario leaves the rest of the suite as
		// it is: each other block and scenario is played once, not once
		// per value.
		for _, b := range s.Blocks {
			if !slices.ContainsFunc(out.Blocks, func(o Block) bool { return sameBlock(o, b) }) {
				out.Blocks = append(out.Blocks, b)
			}
		}
		for _, sc := range s.Scenarios {
			if !slices.ContainsFunc(out.Scenarios, func(o ScenarioBlock) bool { return sameScenario(&o, &sc) }) {
				out.Scenarios = append(out.Scenarios, sc)
			}
		}
	}
	base, err := LoadWith(nameOrPath, sets)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, sw := range sweeps {
		names = append(names, sw.String())
	}
	out.Name = base.Name + " sweep " + strings.Join(names, " ")
	if n := out.Len(); n > maxEpisodes {
		return nil, fmt.Errorf("--sweep: %d episodes, at most %d", n, maxEpisodes)
	}
	// Two values that read as one (50 and 0x32) would play every episode
	// twice.
	if err := out.unique(); err != nil {
		return nil, fmt.Errorf("--sweep: two values make the same episodes: %w", err)
	}
	return out, nil
}

// sameBlock reports whether two episodes blocks list the same episodes.
func sameBlock(a, b Block) bool {
	a.line, b.line = 0, 0
	return slices.Equal(a.Families, b.Families) && slices.Equal(a.Tiers, b.Tiers) &&
		a.Split == b.Split && a.From == b.From && a.Count == b.Count && a.Budget == b.Budget &&
		a.Feedback == b.Feedback && a.Observability == b.Observability
}

// sameScenario reports whether two scenario entries list the same
// episodes: the same scenario under the same settings on the same seeds.
func sameScenario(a, b *ScenarioBlock) bool {
	return a.From == b.From && a.Count == b.Count && a.specs(1)[0].ID() == b.specs(1)[0].ID()
}
