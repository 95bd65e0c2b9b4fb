package suite

import (
	"math"

	"github.com/longcraft/longcraft/bench/task"
)

// validate makes the Suite of its typed file y: each value checked and
// its default filled in, then the whole (validateWhole). Errors name the
// file, the line and the field.
func (s *Suite) validate(y *suiteYAML) error {
	s.Name, s.Description = y.Name.V, y.Description.V
	for i := range y.Episodes {
		b, err := s.block(&y.Episodes[i])
		if err != nil {
			return err
		}
		s.Blocks = append(s.Blocks, b)
	}
	if y.Protocol != nil {
		p, err := s.protocol(y.Protocol)
		if err != nil {
			return err
		}
		s.Protocol = p
	}
	for i := range y.Scenarios {
		sb, err := s.scenario(&y.Scenarios[i])
		if err != nil {
			return err
		}
		s.Scenarios = append(s.Scenarios, sb)
	}
	return s.validateWhole(y.Line)
}

// validateWhole checks what no one block shows: a name, something to
// play, one scenario a name, the bound, each episode once.
func (s *Suite) validateWhole(line int) error {
	if s.Name == "" {
		return s.errAt(line, "name", "missing")
	}
	named := map[string]string{}
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		sp := sc.specs(1)[0]
		sp.Index = 0
		if id, ok := named[sc.Scenario.Label()]; ok && id != sp.ID() {
			return s.errAt(line, "scenarios", "two different scenarios are named %q (line %d): each scenario's name is its results' row, so it names one scenario", sc.Scenario.Label(), sc.line)
		}
		named[sc.Scenario.Label()] = sp.ID()
	}
	if len(s.Blocks) == 0 && len(s.Scenarios) == 0 {
		return s.errAt(line, "episodes", "missing (a suite lists episodes, scenarios or both)")
	}
	if n := s.Len(); n > maxEpisodes {
		return s.errAt(line, "episodes", "%d episodes, at most %d", n, maxEpisodes)
	}
	return s.unique()
}

// block makes one episodes block.
func (s *Suite) block(y *blockYAML) (Block, error) {
	b := Block{line: y.Line}
	var tiers []string
	for _, t := range task.Tiers() {
		tiers = append(tiers, t.Name)
	}
	var err error
	if b.Families, err = s.names(y.Families, "families", task.Families()); err != nil {
		return b, err
	}
	if b.Tiers, err = s.names(y.Tiers, "tiers", tiers); err != nil {
		return b, err
	}
	sh, err := s.shared(y.Split, y.Seeds, y.Budget, y.Feedback, y.Observability)
	if err != nil {
		return b, err
	}
	b.Split, b.From, b.Count, b.Budget, b.Feedback, b.Observability = sh.split, sh.from, sh.count, sh.budget, sh.feedback, sh.observability
	if len(b.Families) == 0 {
		return b, s.errAt(y.Line, "families", "missing")
	}
	if len(b.Tiers) == 0 {
		return b, s.errAt(y.Line, "tiers", "missing")
	}
	return b, nil
}

// names checks a list of names, each one of allowed.
func (s *Suite) names(list []scalar[string], field string, allowed []string) ([]string, error) {
	var out []string
	for _, n := range list {
		ok := false
		for _, a := range allowed {
			ok = ok || a == n.V
		}
		if !ok {
			return nil, s.errAt(n.Line, field, "%q: want one of %v", n.V, allowed)
		}
		out = append(out, n.V)
	}
	return out, nil
}

// shared are the fields episodes blocks and scenarios share, read alike.
type shared struct {
	split         task.Split
	from, count   uint64
	budget        int
	feedback      task.Feedback
	observability task.Observability
}

// shared checks the shared fields, each where given: a block's and a
// scenario's defaults are the eval split, one seed from 0, and the tier's
// or task's budget, feedback and observability.
func (s *Suite) shared(split scalar[string], seeds *seedsYAML, budget scalar[int], feedback, observability scalar[string]) (shared, error) {
	out := shared{split: task.Eval, count: 1}
	var err error
	if split.Given {
		if out.split, err = s.split(split); err != nil {
			return out, err
		}
	}
	if seeds != nil {
		if out.from, out.count, err = s.seeds(seeds); err != nil {
			return out, err
		}
	}
	if budget.Given {
		if out.budget, err = s.budget(budget); err != nil {
			return out, err
		}
	}
	if feedback.Given {
		if out.feedback, err = s.feedback(feedback); err != nil {
			return out, err
		}
	}
	if observability.Given {
		if out.observability, err = s.observability(observability); err != nil {
			return out, err
		}
	}
	return out, nil
}

// seeds checks {from: N, count: M}.
func (s *Suite) seeds(y *seedsYAML) (from, count uint64, err error) {
	from, count = y.From.V, y.Count.or(1)
	if y.Count.Given && (count < 1 || count > maxEpisodes) {
		return 0, 0, s.errAt(y.Count.Line, "seeds.count", "%d: want 1 to %d", count, maxEpisodes)
	}
	if from > math.MaxUint64-count {
		return 0, 0, s.errAt(y.Line, "seeds", "from %d, count %d: the range passes the largest index", from, count)
	}
	return from, count, nil
}

func (s *Suite) split(y scalar[string]) (task.Split, error) {
	if !task.Split(y.V).Valid() {
		return "", s.errAt(y.Line, "split", "%q: want train or eval", y.V)
	}
	return task.Split(y.V), nil
}

func (s *Suite) budget(y scalar[int]) (int, error) {
	if y.V < 1 || y.V > 1_000_000 {
		return 0, s.errAt(y.Line, "budget", "%d: want 1 to 1,000,000 steps", y.V)
	}
	return y.V, nil
}

func (s *Suite) feedback(y scalar[string]) (task.Feedback, error) {
	if !task.Feedback(y.V).Valid() {
		return "", s.errAt(y.Line, "feedback", "%q: want %s", y.V, task.FeedbackChoices())
	}
	return task.Feedback(y.V), nil
}

func (s *Suite) observability(y scalar[string]) (task.Observability, error) {
	if !task.Observability(y.V).Valid() {
		return "", s.errAt(y.Line, "observability", "%q: want partial or full", y.V)
	}
	return task.Observability(y.V), nil
}

// protocol makes the suite's protocol.
func (s *Suite) protocol(y *protocolYAML) (*Protocol, error) {
	p := &Protocol{Name: y.Name.V, Reference: y.Reference.V, History: y.History.V, MaxTokens: y.MaxTokens.V}
	if p.History < 0 || p.History > 10_000 {
		return nil, s.errAt(y.History.Line, "protocol.history", "%d: want 0 to 10,000", p.History)
	}
	if y.Temperature.Given {
		t := y.Temperature.V
		if t < 0 || t > 2 {
			return nil, s.errAt(y.Temperature.Line, "protocol.temperature", "%v: want 0 to 2", t)
		}
		p.Temperature = &t
	}
	if p.MaxTokens < 0 {
		return nil, s.errAt(y.MaxTokens.Line, "protocol.max_tokens", "%d: negative", p.MaxTokens)
	}
	if y.InvalidNotice.Given {
		b := y.InvalidNotice.V
		p.InvalidNotice = &b
	}
	if p.Name == "" {
		return nil, s.errAt(y.Line, "protocol.name", "missing")
	}
	return p, nil
}
