package suite

import (
	"fmt"
	"slices"
	"strings"
)

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
// spec (and so in every result). Its name says what was swept. The suite
// is read once; each combination is built from that reading.
func LoadSweep(nameOrPath string, sets []Set, sweeps []Sweep) (*Suite, error) {
	if len(sweeps) == 0 {
		return LoadWith(nameOrPath, sets)
	}
	if err := checkSweeps(sets, sweeps); err != nil {
		return nil, err
	}
	src, doc, err := open(nameOrPath, sets)
	if err != nil {
		return nil, err
	}
	var out *Suite
	for _, c := range combinations(sweeps) {
		s, err := src.build(doc, append(slices.Clone(sets), c...))
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = &Suite{Description: s.Description, Protocol: s.Protocol, file: s.file, src: s.src}
		}
		out.merge(s)
	}
	base, err := src.build(doc, sets)
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

// checkSweeps refuses a key swept twice, or both swept and set.
func checkSweeps(sets []Set, sweeps []Sweep) error {
	for i, sw := range sweeps {
		for _, other := range sweeps[:i] {
			if (Set{Scope: sw.Scope, Key: sw.Key}).overlaps(Set{Scope: other.Scope, Key: other.Key}) {
				return fmt.Errorf("--sweep %s: %s swept twice", sw, sw.Key)
			}
		}
		for _, set := range sets {
			if set.overlaps(Set{Scope: sw.Scope, Key: sw.Key}) {
				return fmt.Errorf("--sweep %s and --set %s: one or the other", sw, set)
			}
		}
	}
	return nil
}

// combinations lists the sets of every combination of the sweeps'
// values, the first sweep's values slowest.
func combinations(sweeps []Sweep) [][]Set {
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
	return combos
}

// merge adds one combination's blocks and scenarios. A sweep scoped to
// one scenario leaves the rest of the suite as it is: each other block
// and scenario is played once, not once per value.
func (out *Suite) merge(s *Suite) {
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
