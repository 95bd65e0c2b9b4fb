package suite

import (
	"fmt"
	"reflect"
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

// checkSets refuses two sets of one field.
func checkSets(sets []Set) error {
	for i, a := range sets {
		for _, b := range sets[:i] {
			if a.overlaps(b) {
				return fmt.Errorf("--set %s and --set %s: %s set twice", b, a, a.Key)
			}
		}
	}
	return nil
}

// apply makes the overrides on the typed file, before it is validated:
// each set is decoded as the YAML it stands for, into every episodes
// block and scenario that takes its key (a scoped one into its scenario
// alone). It returns the label the suite's name gains: the sets, sorted,
// since keys are set once each and their order changes nothing; "" for
// none.
func (y *suiteYAML) apply(sets []Set, file string) (string, error) {
	if len(sets) == 0 {
		return "", nil
	}
	for _, set := range sets {
		value, err := set.node()
		if err != nil {
			return "", err
		}
		applied := 0
		if set.Scope == "" && slices.Contains(blockKeys, set.Key) {
			for i := range y.Episodes {
				b := &y.Episodes[i]
				if err := set.onto(reflect.ValueOf(b).Elem(), set.Key, b.Line, value); err != nil {
					return "", err
				}
				applied++
			}
		}
		if slices.Contains(scenarioKeys, set.Key) {
			for i := range y.Scenarios {
				sc := &y.Scenarios[i]
				if set.Scope != "" && sc.Name.V != set.Scope {
					continue
				}
				if err := sc.override(set, value); err != nil {
					return "", err
				}
				applied++
			}
		}
		if applied == 0 && set.Scope != "" {
			return "", fmt.Errorf("--set %s: %s has no scenario %s", set, file, set.Scope)
		}
		if applied == 0 {
			return "", fmt.Errorf("--set %s: %s has nothing to set it on (episodes blocks take %s; scenarios take %s)", set, file,
				strings.Join(blockKeys, ", "), strings.Join(scenarioKeys, ", "))
		}
	}
	var names []string
	for _, s := range sets {
		names = append(names, s.String())
	}
	slices.Sort(names)
	return strings.Join(names, " "), nil
}

// node is the set's value as YAML: a list of families or tiers may leave
// out its brackets; an empty value is the empty string.
func (s Set) node() (*yaml.Node, error) {
	v := s.Value
	if (s.Key == "families" || s.Key == "tiers") && !strings.HasPrefix(v, "[") {
		v = "[" + v + "]"
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(v), &doc); err != nil {
		return nil, fmt.Errorf("--set %s: %w", s, err)
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ""}, nil
}

// override sets a scenario's field. Its own knobs are recorded in its
// params, so that its label (and its results' row) says what changed; a
// tour is a goal, the first N waypoints of the corner tour; a grid or a
// size is the scenario's one map.
func (sc *scenarioYAML) override(set Set, value *yaml.Node) error {
	if slices.Contains(scenarioOwn, set.Key) {
		sc.Params = append(sc.Params, set.param())
		slices.Sort(sc.Params)
	}
	key := set.Key
	switch key {
	case "tour":
		key, value = "goal", mapping("waypoints", mapping("tour", value))
	case "grid", "size":
		sc.Map, sc.MapFile, sc.Grid, sc.Size = scalar[string]{}, scalar[string]{}, scalar[int]{}, scalar[int]{}
	}
	return set.onto(reflect.ValueOf(sc).Elem(), key, sc.Line, value)
}

// mapping is the YAML {key: value}.
func mapping(key string, value *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, value}}
}

// onto decodes value into the field of typed block v that key names
// (seeds.count: the count of its seeds, which it adds if absent). The
// value's nodes take the block's line, where the error of a value the
// block refuses points.
func (s Set) onto(v reflect.Value, key string, line int, value *yaml.Node) error {
	value = atLine(value, line)
	key, sub, nested := strings.Cut(key, ".")
	f := mustField(v.Type(), key)
	field := v.FieldByIndex(f.Index)
	var err error
	if nested {
		if field.IsNil() {
			field.Set(reflect.New(field.Type().Elem()))
		}
		sf := mustField(field.Type().Elem(), sub)
		err = within(key, within(sub, decode(value, field.Elem().FieldByIndex(sf.Index), sf.Tag)))
	} else {
		err = within(key, decode(value, field, f.Tag))
	}
	if f, ok := err.(*fault); ok {
		return fmt.Errorf("--set %s: field %s: %s", s, f.field, f.msg)
	}
	return err
}

// mustField is the field of t written as key: every settable key is one
// (TestSettableKeysAreFields).
func mustField(t reflect.Type, key string) reflect.StructField {
	f, ok := fieldNamed(t, key)
	if !ok {
		panic(fmt.Sprintf("suite: %s has no field %s", t, key))
	}
	return f
}

// atLine is a copy of the YAML n with every node at line.
func atLine(n *yaml.Node, line int) *yaml.Node {
	c := *n
	c.Line = line
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = atLine(k, line)
	}
	return &c
}
