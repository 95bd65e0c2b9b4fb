package results

import (
	"fmt"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/bench/task"
)

// GroupKey is what makes episodes one row of every table Longcraft
// prints: the summary's groups, the terminal table, the report and the
// comparison page all group by it and by nothing else, so a figure of a
// group means the same episodes wherever it appears. The suite is not in
// it because a summary, a report and a comparison are each of one suite.
//
// Family is the family's label (a scenario's name with the knobs a --set
// or --sweep changed: "grid grid=12"); Scenario and Params repeat the
// scenario and its knobs ("grid=12 tour=3", sorted) so that two scenarios
// whose labels happen to agree stay apart.
type GroupKey struct {
	Family, Tier     string
	Observability    string
	Feedback         string
	Budget           int
	Ruleset          string
	Scenario, Params string
}

// KeyOf is the group an episode belongs to.
func KeyOf(r Result) GroupKey {
	view, fb := condition(r)
	k := GroupKey{Family: r.Spec.Family, Tier: r.Spec.Tier, Observability: view, Feedback: fb, Budget: budget(r), Ruleset: r.Ruleset}
	if sc := r.Spec.Scenario; sc != nil {
		k.Scenario = sc.Name
		params := append([]string(nil), sc.Params...)
		sort.Strings(params)
		k.Params = strings.Join(params, " ")
	}
	return k
}

// Key is the key the group was made of.
func (g Group) Key() GroupKey {
	var params []string
	for k, v := range g.Params {
		params = append(params, k+"="+v)
	}
	sort.Strings(params)
	return GroupKey{Family: g.Family, Tier: g.Tier, Observability: g.Observability, Feedback: g.Feedback, Budget: g.Budget,
		Ruleset: g.Ruleset, Scenario: g.Scenario, Params: strings.Join(params, " ")}
}

// Label names the group in a table's row or a comparison's scope:
// "obtain/hard (partial view, reason feedback, budget 1000, classic
// rules)". The family label already lists a scenario's knobs.
func (k GroupKey) Label() string {
	l := fmt.Sprintf("%s/%s (%s view, %s feedback, budget %d", k.Family, k.Tier, k.Observability, k.Feedback, k.Budget)
	if k.Ruleset != "" {
		l += ", " + k.Ruleset + " rules"
	}
	return l + ")"
}

// KeyLess is the one order of groups: family (numbers in labels read as
// numbers), tier, view (partial first), feedback (most told first),
// budget, ruleset.
func KeyLess(a, b GroupKey) bool {
	switch {
	case a.Family != b.Family:
		return LabelLess(a.Family, b.Family)
	case a.Tier != b.Tier:
		return task.TierRank(a.Tier) < task.TierRank(b.Tier)
	case a.Observability != b.Observability:
		return a.Observability > b.Observability // partial before full
	case a.Feedback != b.Feedback:
		return feedbackRank(a.Feedback) < feedbackRank(b.Feedback)
	case a.Budget != b.Budget:
		return a.Budget < b.Budget
	case a.Ruleset != b.Ruleset:
		return a.Ruleset < b.Ruleset
	case a.Scenario != b.Scenario:
		return a.Scenario < b.Scenario
	}
	return LabelLess(a.Params, b.Params)
}

// GroupResults splits results into their groups (KeyOf), in KeyLess
// order, each group's results in the order given: the one grouping of
// every table.
func GroupResults(rs []Result) (keys []GroupKey, groups map[GroupKey][]Result) {
	groups = map[GroupKey][]Result{}
	for _, r := range rs {
		k := KeyOf(r)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	sort.SliceStable(keys, func(i, j int) bool { return KeyLess(keys[i], keys[j]) })
	return keys, groups
}

// paramsOf reads a key's knobs back into the map summary.json holds.
func paramsOf(k GroupKey) map[string]string {
	var m map[string]string
	for _, p := range strings.Fields(k.Params) {
		if key, v, ok := strings.Cut(p, "="); ok {
			if m == nil {
				m = map[string]string{}
			}
			m[key] = v
		}
	}
	return m
}
