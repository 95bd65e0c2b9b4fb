// Package suite reads benchmark suites: YAML files that list families ×
// tiers × seed ranges × budgets × observation and feedback settings, and
// expands them, deterministically, into episode specs.
package suite

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/longcraft/longcraft/bench/task"
)

// The embedded suites and their locks (suites/NAME.yaml, NAME.lock.json).
//
//go:embed suites
var embedded embed.FS

// Suite is a parsed suite.
type Suite struct {
	Name        string
	Description string
	Blocks      []Block
	Scenarios   []ScenarioBlock
	// Protocol, when the suite states one, is how external players are
	// run for its results to be comparable with a published evaluation:
	// score takes these as the defaults of the flags not given.
	Protocol *Protocol
	file     string // the name errors give the source
	// Where files a scenario names (map_file) are read from: beside the
	// suite's file, or inside the binary for an embedded suite.
	path, embeddedName string
	// overrides: the YAML is a suite rewritten by --set or --sweep, whose
	// scenarios may carry the params those wrote.
	overrides bool
}

// Block is one product of the suite: every family × tier × index.
type Block struct {
	Families      []string
	Tiers         []string
	Split         task.Split
	From, Count   uint64 // indices [From, From+Count)
	Budget        int
	Feedback      task.Feedback
	Observability task.Observability
	line          int
}

// maxEpisodes bounds a suite's expansion, so a typo cannot ask for
// billions of episodes.
const maxEpisodes = 1_000_000

// Embedded returns the names of the suites built into the binary.
func Embedded() []string {
	entries, _ := embedded.ReadDir("suites")
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// IsEmbedded reports whether name is an embedded suite.
func IsEmbedded(name string) bool {
	_, err := embedded.ReadFile("suites/" + name + ".yaml")
	return err == nil
}

// Load reads a suite: an embedded one by name ("default", "standard"), or
// a YAML file by path.
func Load(nameOrPath string) (*Suite, error) {
	data, file, err := read(nameOrPath)
	if err != nil {
		return nil, err
	}
	return parse(nameOrPath, file, data)
}

// parse is Parse for the suite read from nameOrPath, so that the files
// its scenarios name are found beside it.
func parse(nameOrPath, file string, data []byte) (*Suite, error) {
	return parseWith(nameOrPath, file, data, false)
}

func parseWith(nameOrPath, file string, data []byte, overrides bool) (*Suite, error) {
	s := &Suite{file: file, path: nameOrPath, overrides: overrides}
	if IsEmbedded(nameOrPath) {
		s.embeddedName = nameOrPath
	}
	return s.parse(data)
}

// read returns a suite's YAML and the name errors give it.
func read(nameOrPath string) ([]byte, string, error) {
	if data, err := embedded.ReadFile("suites/" + nameOrPath + ".yaml"); err == nil {
		return data, "suite " + nameOrPath, nil
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", fmt.Errorf("suite %q: not an embedded suite (%v) nor a file", nameOrPath, Embedded())
		}
		return nil, "", fmt.Errorf("suite %s: %w", nameOrPath, err)
	}
	return data, nameOrPath, nil
}

// Parse reads a suite from YAML; file names the source in errors, which
// give the line and field.
func Parse(file string, data []byte) (*Suite, error) {
	return (&Suite{file: file, path: file}).parse(data)
}

func (s *Suite) parse(data []byte) (*Suite, error) {
	file := s.file
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty suite", file)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return nil, s.errf(doc, "", "a suite is a mapping with name, description, episodes and scenarios")
	}
	if k := dupKey(doc); k != nil {
		return nil, s.errf(k, k.Value, "given twice")
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		switch k.Value {
		case "name":
			if err := s.scalar(v, "name", &s.Name); err != nil {
				return nil, err
			}
		case "description":
			if err := s.scalar(v, "description", &s.Description); err != nil {
				return nil, err
			}
		case "episodes":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				return nil, s.errf(v, "episodes", "want a non-empty list of blocks")
			}
			for _, b := range v.Content {
				blk, err := s.block(b)
				if err != nil {
					return nil, err
				}
				s.Blocks = append(s.Blocks, blk)
			}
		case "protocol":
			p, err := s.protocol(v)
			if err != nil {
				return nil, err
			}
			s.Protocol = p
		case "scenarios":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				return nil, s.errf(v, "scenarios", "want a non-empty list of scenarios")
			}
			for _, b := range v.Content {
				sb, err := s.scenario(b)
				if err != nil {
					return nil, err
				}
				s.Scenarios = append(s.Scenarios, sb)
			}
		default:
			return nil, s.errf(k, k.Value, "unknown field (name, description, protocol, episodes, scenarios)")
		}
	}
	if s.Name == "" {
		return nil, s.errf(doc, "name", "missing")
	}
	named := map[string]string{}
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		sp := sc.specs(1)[0]
		sp.Index = 0
		if id, ok := named[sc.Scenario.Label()]; ok && id != sp.ID() {
			return nil, s.errf(doc, "scenarios", "two different scenarios are named %q (line %d): each scenario's name is its results' row, so it names one scenario", sc.Scenario.Label(), sc.line)
		}
		named[sc.Scenario.Label()] = sp.ID()
	}
	if len(s.Blocks) == 0 && len(s.Scenarios) == 0 {
		return nil, s.errf(doc, "episodes", "missing (a suite lists episodes, scenarios or both)")
	}
	if n := s.Len(); n > maxEpisodes {
		return nil, s.errf(doc, "episodes", "%d episodes, at most %d", n, maxEpisodes)
	}
	if err := s.unique(); err != nil {
		return nil, err
	}
	return s, nil
}

// unique checks that the suite lists every episode once: resume, merge and
// comparisons match episodes by id, so a spec listed twice would make two
// results of one episode.
func (s *Suite) unique() error {
	first := map[string]int{}
	check := func(line int, specs []task.Spec) error {
		for _, sp := range specs {
			id := sp.ID()
			if at, dup := first[id]; dup {
				return fmt.Errorf("%s:%d: episode %s/%s seed %d is also listed at line %d: a suite lists each episode once", s.file, line, sp.Family, sp.Tier, sp.Index, at)
			}
			first[id] = line
		}
		return nil
	}
	for _, b := range s.Blocks {
		if err := check(b.line, (&Suite{Blocks: []Block{b}}).Expand()); err != nil {
			return err
		}
	}
	// Scenario episodes differ from every family's (their tier), and two
	// scenario entries share an episode only when they play the same
	// scenario under the same settings on overlapping seeds: compared
	// entry by entry, since an id hashes the whole scenario (a map and
	// all) and a million of them would take seconds.
	canon := make([]string, len(s.Scenarios))
	for i := range s.Scenarios {
		first := s.Scenarios[i].specs(1)[0]
		first.Index = 0
		canon[i] = first.ID()
	}
	for i := range s.Scenarios {
		a := &s.Scenarios[i]
		for j := range s.Scenarios[:i] {
			b := &s.Scenarios[j]
			if canon[i] == canon[j] && a.From < b.From+b.Count && b.From < a.From+a.Count {
				at := max(a.From, b.From)
				return fmt.Errorf("%s:%d: scenario %s seed %d is also listed at line %d: a suite lists each episode once", s.file, a.line, a.Scenario.Label(), at, b.line)
			}
		}
	}
	return nil
}

// dupKey returns the first key given twice in mapping n, or nil: YAML
// keeps the last, which would hide the first.
func dupKey(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; seen[k.Value] {
			return k
		} else {
			seen[k.Value] = true
		}
	}
	return nil
}

// errf formats an error naming the file, the node's line and the field.
func (s *Suite) errf(n *yaml.Node, field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		return fmt.Errorf("%s:%d: field %s: %s", s.file, n.Line, field, msg)
	}
	return fmt.Errorf("%s:%d: %s", s.file, n.Line, msg)
}

func (s *Suite) scalar(n *yaml.Node, field string, out any) error {
	if n.Kind != yaml.ScalarNode {
		return s.errf(n, field, "want a single value")
	}
	if err := n.Decode(out); err != nil {
		return s.errf(n, field, "%v", err)
	}
	return nil
}

// block reads one episodes block.
func (s *Suite) block(n *yaml.Node) (Block, error) {
	b := Block{line: n.Line, Split: task.Eval, Count: 1}
	if n.Kind != yaml.MappingNode {
		return b, s.errf(n, "episodes", "each block is a mapping")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := k.Value
		if seen[f] {
			return b, s.errf(k, f, "given twice")
		}
		seen[f] = true
		var err error
		switch f {
		case "families":
			err = s.list(v, f, &b.Families, task.Families())
		case "tiers":
			var names []string
			for _, t := range task.Tiers() {
				names = append(names, t.Name)
			}
			err = s.list(v, f, &b.Tiers, names)
		case "split":
			b.Split, err = s.split(v)
		case "seeds":
			b.From, b.Count, err = s.seeds(v)
		case "budget":
			b.Budget, err = s.budget(v)
		case "feedback":
			b.Feedback, err = s.feedback(v)
		case "observability":
			b.Observability, err = s.observability(v)
		default:
			err = s.errf(k, f, "unknown field (families, tiers, split, seeds, budget, feedback, observability)")
		}
		if err != nil {
			return b, err
		}
	}
	if len(b.Families) == 0 {
		return b, s.errf(n, "families", "missing")
	}
	if len(b.Tiers) == 0 {
		return b, s.errf(n, "tiers", "missing")
	}
	return b, nil
}

// list reads a list of names, each one of allowed.
func (s *Suite) list(n *yaml.Node, field string, out *[]string, allowed []string) error {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return s.errf(n, field, "want a non-empty list")
	}
	for _, c := range n.Content {
		var v string
		if err := s.scalar(c, field, &v); err != nil {
			return err
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == v
		}
		if !ok {
			return s.errf(c, field, "%q: want one of %v", v, allowed)
		}
		*out = append(*out, v)
	}
	return nil
}

// seeds reads {from: N, count: M}.
func (s *Suite) seeds(n *yaml.Node) (from, count uint64, err error) {
	count = 1
	if n.Kind != yaml.MappingNode {
		return 0, 0, s.errf(n, "seeds", "want {from: N, count: M}")
	}
	if k := dupKey(n); k != nil {
		return 0, 0, s.errf(k, "seeds."+k.Value, "given twice")
	}
	defer func() {
		if err == nil && from > math.MaxUint64-count {
			err = s.errf(n, "seeds", "from %d, count %d: the range passes the largest index", from, count)
		}
	}()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "from":
			if err := s.scalar(v, "seeds.from", &from); err != nil {
				return 0, 0, err
			}
		case "count":
			if err := s.scalar(v, "seeds.count", &count); err != nil {
				return 0, 0, err
			}
			if count < 1 || count > maxEpisodes {
				return 0, 0, s.errf(v, "seeds.count", "%d: want 1 to %d", count, maxEpisodes)
			}
		default:
			return 0, 0, s.errf(k, "seeds."+k.Value, "unknown field (from, count)")
		}
	}
	return from, count, nil
}

// The fields episodes blocks and scenarios share, read alike.

func (s *Suite) split(n *yaml.Node) (task.Split, error) {
	var sp string
	if err := s.scalar(n, "split", &sp); err != nil {
		return "", err
	}
	if !task.Split(sp).Valid() {
		return "", s.errf(n, "split", "%q: want train or eval", sp)
	}
	return task.Split(sp), nil
}

func (s *Suite) budget(n *yaml.Node) (int, error) {
	var b int
	if err := s.scalar(n, "budget", &b); err != nil {
		return 0, err
	}
	if b < 1 || b > 1_000_000 {
		return 0, s.errf(n, "budget", "%d: want 1 to 1,000,000 steps", b)
	}
	return b, nil
}

func (s *Suite) feedback(n *yaml.Node) (task.Feedback, error) {
	var fb string
	if err := s.scalar(n, "feedback", &fb); err != nil {
		return "", err
	}
	if !task.Feedback(fb).Valid() {
		return "", s.errf(n, "feedback", "%q: want %s", fb, task.FeedbackChoices())
	}
	return task.Feedback(fb), nil
}

func (s *Suite) observability(n *yaml.Node) (task.Observability, error) {
	var o string
	if err := s.scalar(n, "observability", &o); err != nil {
		return "", err
	}
	if !task.Observability(o).Valid() {
		return "", s.errf(n, "observability", "%q: want partial or full", o)
	}
	return task.Observability(o), nil
}

// Len returns the number of episodes the suite expands to.
func (s *Suite) Len() uint64 {
	var n uint64
	for _, b := range s.Blocks {
		n += uint64(len(b.Families)) * uint64(len(b.Tiers)) * b.Count
	}
	for _, b := range s.Scenarios {
		n += b.Count
	}
	return n
}

// Expand lists the suite's episodes in a fixed order: blocks in file
// order, then family, tier and index as listed; then the scenarios in
// file order, by index. The same file always
// expands to the same specs, whose ids (Spec.ID) hash their content.
func (s *Suite) Expand() []task.Spec {
	specs := make([]task.Spec, 0, s.Len())
	for _, b := range s.Blocks {
		for _, f := range b.Families {
			for _, t := range b.Tiers {
				for i := uint64(0); i < b.Count; i++ {
					specs = append(specs, task.Spec{Family: f, Tier: t, Split: b.Split, Index: b.From + i,
						Budget: b.Budget, Feedback: b.Feedback, Observability: b.Observability})
				}
			}
		}
	}
	for i := range s.Scenarios {
		specs = append(specs, s.Scenarios[i].specs(s.Scenarios[i].Count)...)
	}
	return specs
}

// Protocol is a published evaluation protocol a suite follows: the
// external player's settings it fixes (the suite's scenarios fix the
// rest: rules, map, budget, feedback, episode count).
type Protocol struct {
	Name      string `json:"name"`
	Reference string `json:"reference,omitempty"` // the citation
	// History is the past observation/reply pairs kept in a model's
	// prompt (0: not fixed).
	History     int      `json:"history,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	// InvalidNotice: tell the player its last reply was not understood.
	InvalidNotice *bool `json:"invalid_notice,omitempty"`
}

// protocol reads the suite's protocol mapping.
func (s *Suite) protocol(n *yaml.Node) (*Protocol, error) {
	if n.Kind != yaml.MappingNode {
		return nil, s.errf(n, "protocol", "want {name: N, history: H, temperature: T, max_tokens: M, invalid_notice: B, reference: R}")
	}
	if k := dupKey(n); k != nil {
		return nil, s.errf(k, "protocol."+k.Value, "given twice")
	}
	p := &Protocol{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := "protocol." + k.Value
		var err error
		switch k.Value {
		case "name":
			err = s.scalar(v, f, &p.Name)
		case "reference":
			err = s.scalar(v, f, &p.Reference)
		case "history":
			if err = s.scalar(v, f, &p.History); err == nil && (p.History < 0 || p.History > 10_000) {
				err = s.errf(v, f, "%d: want 0 to 10,000", p.History)
			}
		case "temperature":
			var t float64
			if err = s.scalar(v, f, &t); err == nil && (t < 0 || t > 2) {
				err = s.errf(v, f, "%v: want 0 to 2", t)
			}
			p.Temperature = &t
		case "max_tokens":
			if err = s.scalar(v, f, &p.MaxTokens); err == nil && p.MaxTokens < 0 {
				err = s.errf(v, f, "%d: negative", p.MaxTokens)
			}
		case "invalid_notice":
			var b bool
			err = s.scalar(v, f, &b)
			p.InvalidNotice = &b
		default:
			err = s.errf(k, f, "unknown field (name, reference, history, temperature, max_tokens, invalid_notice)")
		}
		if err != nil {
			return nil, err
		}
	}
	if p.Name == "" {
		return nil, s.errf(n, "protocol.name", "missing")
	}
	return p, nil
}
