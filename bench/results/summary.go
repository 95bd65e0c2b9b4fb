package results

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
)

// Stat is a metric's mean and median over the episodes that have it, and
// the 95% percentile bootstrap interval of the mean (over worlds; nil in a
// summary written before it had one, or when no episode measured it).
type Stat struct {
	Mean   float64     `json:"mean"`
	Median float64     `json:"median"`
	CI95   *[2]float64 `json:"ci95,omitempty"`
	N      int         `json:"n"`
}

// Group aggregates the episodes of one GroupKey (or all of them).
type Group struct {
	Family string `json:"family"`
	Tier   string `json:"tier"`
	// The condition every episode of the group played under ("" in the
	// overall row, which pools them).
	Observability string `json:"observability,omitempty"`
	Feedback      string `json:"feedback,omitempty"`
	// The step budget (a sweep over budgets plays one family × tier under
	// several: each is a group of its own).
	Budget int `json:"budget,omitempty"`
	// The ruleset its episodes played ("classic", "extended", …).
	Ruleset string `json:"ruleset,omitempty"`
	// A scenario's name, and the knobs a --set or --sweep changed
	// ("grid": "8"), which its family label lists too.
	Scenario string            `json:"scenario,omitempty"`
	Params   map[string]string `json:"params,omitempty"`
	Episodes int               `json:"episodes"`
	// NoSuccess: the group's tasks define no success (Crafter's free
	// play: an achievements goal that no count completes), so its success
	// rate and interval are not figures of it: null in summary.json, and
	// neither the table nor the report shows them.
	NoSuccess bool            `json:"no_success,omitempty"`
	Successes int             `json:"successes"`
	Rate      float64         `json:"success_rate"`
	Low       float64         `json:"success_low"`  // 95% Wilson interval
	High      float64         `json:"success_high"` //
	Ends      map[string]int  `json:"ends"`         // goal, death, budget, no_progress, timeout, error
	Metrics   map[string]Stat `json:"metrics"`
	Failed    []string        `json:"failed"` // ids of the episodes that did not reach their goal
	// AgentErrors counts the episodes that ended agent_error (the agent
	// failed: no reply, a crash, a timeout), Missing the episodes planned
	// in the group that have no result (a partial run): figures of a group
	// with either are not the agent's whole play (CountMissing sets it).
	AgentErrors int `json:"agent_errors"`
	Missing     int `json:"missing,omitempty"`
	// Worlds is the number of distinct worlds the episodes played on when
	// it is fewer than the episodes (a fixed map's seeds are one world);
	// the interval is then over the worlds (worlds.go). FixedMap: one of
	// them is a scenario's fixed map.
	Worlds   int  `json:"worlds,omitempty"`
	FixedMap bool `json:"fixed_map,omitempty"`
	// External agents' cost: totals over the group, and tokens per success
	// (null, not measured, when nothing succeeded).
	Calls            int             `json:"model_calls"`
	Tokens           int             `json:"tokens"`
	LatencyMs        int             `json:"latency_ms"`
	TokensPerSuccess episode.Measure `json:"tokens_per_success"`
	// Cost at the run's prices (--price-in, --price-out): the group's
	// total and per success; not measured without prices.
	Cost           episode.Measure `json:"cost_usd"`
	CostPerSuccess episode.Measure `json:"cost_per_success_usd"`
	// The exchanges the probes rest on: beliefs and predictions scored
	// (an empty one is not).
	BeliefsScored     int `json:"beliefs_scored"`
	PredictionsScored int `json:"predictions_scored"`
	// The probes' skills over their baselines (probes.go), absent where
	// no episode measured them.
	StateSkill      *ProbeSkill `json:"state_skill,omitempty"`
	WorldModelSkill *ProbeSkill `json:"world_model_skill,omitempty"`
}

// Summary is summary.json: a pure function of the results, so an
// interrupted-and-resumed, sharded-and-merged or differently parallel run
// of the same suite and agent writes it byte for byte the same (a partial
// run's also counts what it planned and lacks: CountMissing).
type Summary struct {
	Suite       string `json:"suite"`
	Lock        string `json:"lock,omitempty"` // hash of the suite lock the tasks came from ("mixed" if they differ)
	Agent       string `json:"agent"`
	Episodes    int    `json:"episodes"`
	Errors      int    `json:"errors"`       // episodes not the agent's play: not generated ("error") or failed by the agent ("agent_error")
	AgentErrors int    `json:"agent_errors"` // the agent_error ones alone
	// OpenEnded are Crafter's score, BALROG's progression and the
	// achievements' unlock rates over the open-ended (achievements)
	// episodes, one line per ruleset: never pooled across rulesets.
	OpenEnded []RulesetScore `json:"open_ended,omitempty"`
	// SaltCommitment names the salt of held-out seeds ("": public seeds,
	// "mixed" if the results differ).
	SaltCommitment string  `json:"salt_commitment,omitempty"`
	Overall        Group   `json:"overall"`
	Groups         []Group `json:"groups"`
	// Run is the run's definition (run.json): agent and model settings,
	// suite and lock, rules versions, how episodes end. It is what defines
	// the results, so it belongs with them; when and where the run was
	// played is in invocations.jsonl, which would break the summary's
	// byte-identity across resumes, shards and machines.
	Run *Definition `json:"run,omitempty"`
	// Unverified counts the results of played episodes that have no
	// trace (--traces failures or none, or a trace lost and not rebuilt):
	// their figures stand on the runner's word, unchecked by replay
	// (longcraft verify checks the others).
	Unverified int `json:"unverified,omitempty"`
	// Partial: the run stopped (Ctrl-C, a crash resumed later, an error)
	// before all Planned episodes had a result; the figures cover those
	// that have one.
	Partial bool `json:"partial,omitempty"`
	Planned int  `json:"planned,omitempty"`
	// Pooled: read from a summary.json written before the open-ended
	// figures were per ruleset (its crafter_score pooled them); never
	// written.
	Pooled bool `json:"-"`
	// Builds are the builds that played the results (Builds), the
	// provenance of the figures: one for a run played by one binary.
	Builds []buildinfo.Build `json:"builds,omitempty"`
}

// UnmarshalJSON reads summary.json, noting one of the old pooled format
// (Pooled), whose figures readers must not take for this version's.
func (s *Summary) UnmarshalJSON(b []byte) error {
	type plain Summary
	var old struct {
		CrafterScore *float64 `json:"crafter_score"`
	}
	if err := json.Unmarshal(b, (*plain)(s)); err != nil {
		return err
	}
	_ = json.Unmarshal(b, &old)
	s.Pooled = old.CrafterScore != nil
	return nil
}

// Wilson returns the 95% Wilson score interval of k successes in n.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 0
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	d := 1 + z*z/float64(n)
	c := (p + z*z/(2*float64(n))) / d
	h := z * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n)*float64(n))) / d
	return max(c-h, 0), min(c+h, 1)
}

// Summarize aggregates results (in any order) of a suite and agent.
func Summarize(suiteName, agent string, results []Result) Summary {
	rs := append([]Result(nil), results...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Index < rs[j].Index })
	s := Summary{Suite: suiteName, Agent: agent, Episodes: len(rs), Builds: Builds(rs)}
	for _, r := range rs {
		if r.Err != "" || r.End == string(task.EndAgentError) {
			s.Errors++
		}
		if r.End == string(task.EndAgentError) {
			s.AgentErrors++
		}
		switch {
		case s.Lock == "":
			s.Lock = r.Lock
		case r.Lock != "" && r.Lock != s.Lock:
			s.Lock = "mixed"
		}
		if r.SaltCommitment != rs[0].SaltCommitment {
			s.SaltCommitment = "mixed"
		} else if s.SaltCommitment == "" {
			s.SaltCommitment = r.SaltCommitment
		}
	}
	s.OpenEnded = scoreRulesets(rs)
	keys, groups := GroupResults(rs)
	for _, k := range keys {
		g := group(k.Family, k.Tier, groups[k])
		g.Observability, g.Feedback, g.Budget, g.Ruleset = k.Observability, k.Feedback, k.Budget, k.Ruleset
		g.Scenario, g.Params = k.Scenario, paramsOf(k)
		s.Groups = append(s.Groups, g)
	}
	s.Overall = group("all", "all", rs)
	s.Overall.Failed = nil // listed per group
	return s
}

// LabelLess orders family labels word by word, reading the numbers of
// "key=N" words as numbers: "grid grid=6" before "grid grid=12".
func LabelLess(a, b string) bool {
	wa, wb := strings.Fields(a), strings.Fields(b)
	for i := 0; i < len(wa) && i < len(wb); i++ {
		if wa[i] == wb[i] {
			continue
		}
		ka, va, oka := strings.Cut(wa[i], "=")
		kb, vb, okb := strings.Cut(wb[i], "=")
		if oka && okb && ka == kb {
			na, errA := strconv.Atoi(va)
			nb, errB := strconv.Atoi(vb)
			if errA == nil && errB == nil {
				return na < nb
			}
		}
		return wa[i] < wb[i]
	}
	return len(wa) < len(wb)
}

// budget is the step budget an episode played under: its spec's, or its
// tier's (0 when neither is known).
func budget(r Result) int {
	if r.Spec.Budget > 0 {
		return r.Spec.Budget
	}
	if t, err := task.TierByName(r.Spec.Tier); err == nil {
		return t.Budget
	}
	return 0
}

// condition returns the observability and feedback an episode played
// under: as recorded, or for results written before they were, the spec's
// or else its tier's.
func condition(r Result) (view, fb string) {
	view, fb = r.Observability, r.Feedback
	tier, err := task.TierByName(r.Spec.Tier)
	if view == "" {
		view = string(r.Spec.Observability)
		if view == "" && err == nil {
			view = string(tier.View)
		}
	}
	if fb == "" {
		fb = string(r.Spec.Feedback)
		if fb == "" && err == nil {
			fb = string(tier.Feedback)
		}
	}
	return view, fb
}

// feedbackRank orders feedback levels from the most told to the least.
func feedbackRank(f string) int {
	switch task.Feedback(f) {
	case task.FeedbackFull:
		return 0
	case task.FeedbackReason:
		return 1
	case task.FeedbackNone:
		return 2
	}
	return 3
}

// group aggregates some episodes.
func group(family, tier string, rs []Result) Group {
	g := Group{Family: family, Tier: tier, Episodes: len(rs), Ends: map[string]int{}, Metrics: map[string]Stat{}, Failed: []string{}}
	series := map[string][]float64{}
	worlds := map[string][]string{} // the world of each of series' values: the bootstrap resamples worlds
	metrics := Metrics()
	judged := 0 // the episodes whose task defines success
	for _, r := range rs {
		g.Ends[r.End]++
		if r.End == string(task.EndAgentError) {
			g.AgentErrors++
		}
		switch {
		case !HasSuccess(r):
		case r.Success:
			g.Successes++
		default:
			g.Failed = append(g.Failed, r.ID)
		}
		if HasSuccess(r) {
			judged++
		}
		if r.Err != "" {
			continue
		}
		for _, m := range metrics {
			if v, ok := m.Of(r); ok {
				series[m.Name] = append(series[m.Name], v)
				worlds[m.Name] = append(worlds[m.Name], WorldKey(r))
			}
		}
		g.Calls += r.ModelCalls
		g.BeliefsScored += r.BeliefsScored
		g.PredictionsScored += r.PredictionsScored
		g.Tokens += r.Tokens
		g.LatencyMs += r.LatencyMs
		if r.Cost.OK {
			g.Cost = episode.Measured(g.Cost.Value + r.Cost.Value)
		}
	}
	if g.Successes > 0 {
		g.TokensPerSuccess = episode.Measured(float64(g.Tokens) / float64(g.Successes))
		if g.Cost.OK {
			g.CostPerSuccess = episode.Measured(g.Cost.Value / float64(g.Successes))
		}
	}
	g.NoSuccess = len(rs) > 0 && judged == 0
	g.Rate = Fraction(g.Successes, judged)
	g.Low, g.High = Wilson(g.Successes, judged)
	countWorlds(&g, rs)
	for name, v := range series {
		g.Metrics[name] = stat(v, worlds[name])
	}
	var beliefs, predictions []probeTally
	for _, r := range rs {
		if r.Err == "" {
			beliefs = append(beliefs, probeTally{r.BeliefClaims, r.BeliefClaimsRight, r.BeliefBaseline})
			predictions = append(predictions, probeTally{r.PredictionClaims, r.PredictionClaimsRight, r.PredictionBaseline})
		}
	}
	g.StateSkill, g.WorldModelSkill = probeSkill(beliefs), probeSkill(predictions)
	return g
}

// MarshalJSON writes the group, with null for the success rate and its
// interval where its tasks define no success (NoSuccess): not a 0.
func (g Group) MarshalJSON() ([]byte, error) {
	type plain Group // the fields, without this method
	if !g.NoSuccess {
		return json.Marshal(plain(g))
	}
	return json.Marshal(struct {
		plain
		Rate *float64 `json:"success_rate"`
		Low  *float64 `json:"success_low"`
		High *float64 `json:"success_high"`
	}{plain: plain(g)})
}

// Fraction is a/b, or 0 when b is 0 (a rate over no episodes).
func Fraction(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// stat is the mean and median of v and the 95% percentile bootstrap
// interval of the mean, resampling worlds (world[i] is v[i]'s): a fixed
// map's seeds are one observation, as in the success interval. The
// interval lies between the smallest and the largest value, so within
// the metric's range, where a normal approximation on few episodes
// leaves it (steps below 0). It is seeded and computed on the values in
// sorted order, so summary.json is the same whatever order the results
// came in.
func stat(v []float64, world []string) Stat {
	s := Stat{N: len(v)}
	if len(v) == 0 {
		return s
	}
	sorted := append([]float64(nil), v...)
	sort.Float64s(sorted)
	sum := 0.0
	for _, x := range sorted { // sorted: the sum's rounding does not depend on input order
		sum += x
	}
	s.Mean = sum / float64(len(v))
	if n := len(sorted); n%2 == 1 {
		s.Median = sorted[n/2]
	} else {
		s.Median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	lo, hi := BootstrapMean(clusters(v, world), statResamples, statSeed)
	s.CI95 = &[2]float64{lo, hi}
	return s
}

// statResamples and statSeed are the summary's bootstrap: as many
// resamples as the comparison's paired bootstrap, from a fixed seed.
const (
	statResamples = 2000
	statSeed      = 0x73756d6d617279
)

// clusters gathers v by world, worlds in sorted order and each world's
// values sorted: the resampling units of BootstrapMean, independent of
// the order v came in.
func clusters(v []float64, world []string) [][]float64 {
	by := map[string][]float64{}
	for i, x := range v {
		by[world[i]] = append(by[world[i]], x)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]float64, len(keys))
	for i, k := range keys {
		sort.Float64s(by[k])
		out[i] = by[k]
	}
	return out
}
