// Package suite reads benchmark suites: YAML files that list families ×
// tiers × seed ranges × budgets × observation and feedback settings, and
// expands them, deterministically, into episode specs; and their locks.
//
// A suite is read in one pass down these files: source.go reads its
// bytes (an embedded suite or a file), decode.go decodes them into the
// typed file of yaml.go (unknown fields and keys given twice refused),
// set.go and sweep.go apply --set and --sweep to that typed file,
// validate.go and scenario.go make the Suite of it, expand.go lists its
// episodes, and lock.go checks them against the suite's lock. It must
// not import agents, episodes or hosts.
package suite

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/longcraft/longcraft/bench/task"
)

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
	file     string // the name errors give the source, with its --set
	// Where files a scenario names (map_file) are read from.
	src source
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

// maxEpisodes bounds a suite's expansion, so a typo cannot ask for
// billions of episodes.
const maxEpisodes = 1_000_000

// Load reads a suite: an embedded one by name ("default", "standard"), or
// a YAML file by path.
func Load(nameOrPath string) (*Suite, error) { return LoadWith(nameOrPath, nil) }

// LoadWith is Load with overrides applied to the blocks and scenarios
// they name before those are validated, so an override is checked as the
// YAML it stands for would be, and an error names the --set that caused
// it. The suite's name gains the overrides ("default budget=50"), so that
// results, summaries and locks never pass it off as the suite itself.
func LoadWith(nameOrPath string, sets []Set) (*Suite, error) {
	src, doc, err := open(nameOrPath, sets)
	if err != nil {
		return nil, err
	}
	return src.build(doc, sets)
}

// open checks the overrides, then reads and parses the suite once: the
// first steps of LoadWith and LoadSweep.
func open(nameOrPath string, sets []Set) (source, *yaml.Node, error) {
	if err := checkSets(sets); err != nil {
		return source{}, nil, err
	}
	src, err := read(nameOrPath)
	if err != nil {
		return source{}, nil, err
	}
	doc, err := src.parse()
	return src, doc, err
}

// Parse reads a suite from YAML; file names the source in errors, which
// give the line and field.
func Parse(file string, data []byte) (*Suite, error) {
	src := source{data: data, file: file, path: file}
	doc, err := src.parse()
	if err != nil {
		return nil, err
	}
	return src.build(doc, nil)
}

// build makes the suite of a parsed document: decoded into the typed
// file, overridden by sets, validated. The document is left as it is, so
// a sweep builds each of its combinations from one read.
func (src source) build(doc *yaml.Node, sets []Set) (*Suite, error) {
	s := &Suite{file: src.file, src: src}
	y, err := decodeSuite(doc)
	if err != nil {
		return nil, s.located(err)
	}
	label, err := y.apply(sets, src.file)
	if err != nil {
		return nil, err
	}
	if label != "" {
		s.file += " with --set " + label
	}
	if err := s.validate(y); err != nil {
		return nil, err
	}
	if label != "" {
		s.Name += " " + label
	}
	return s, nil
}

// errAt formats an error naming the file, the line and the field.
func (s *Suite) errAt(line int, field, format string, args ...any) error {
	return s.located(&fault{line: line, field: field, msg: fmt.Sprintf(format, args...)})
}

// located names the suite's file in a fault: FILE:LINE: field F: …
func (s *Suite) located(err error) error {
	if f, ok := err.(*fault); ok {
		return fmt.Errorf("%s:%s", s.file, f)
	}
	return err
}
