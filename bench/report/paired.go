package report

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"

	"github.com/longcraft/longcraft/bench/results"
)

// Paired compares two runs on one scope (a group, or all episodes).
type Paired struct {
	A, B  string // the runs' labels
	Scope string // a group's label (results.GroupKey.Label), or "all tiers"
	// On the paired episodes (the same lock and episode id in both runs,
	// generated in both): counts, successes, and the discordant pairs.
	N            int
	SuccA, SuccB int
	OnlyA, OnlyB int     // episodes only A, or only B, succeeded on
	Diff         float64 // success of A − B, a fraction
	Lo, Hi       float64 // 95% interval of Diff: Newcombe's paired interval, or his unpaired one
	P            float64 // exact McNemar test (paired only)
	Unpaired     bool    // no shared episodes: compared as independent samples
	NA, NB       int     // unpaired: each run's episodes whose task defines success
	// NoSuccess: no paired episode's task defines success (Crafter's
	// free play): no success figure, no sentence; the metrics stand.
	NoSuccess bool
	Judged    int // the paired episodes success is compared on (those whose task defines it)
	Metrics   []MetricDiff
	Sentence  string
	// Refused says why no difference is stated: either run has agent
	// errors or missing episodes in the scope (the figures above are then
	// zero).
	Refused string
}

// MetricDiff is a continuous metric's mean paired difference A − B with
// its 95% paired bootstrap interval, over the pairs that measured it.
type MetricDiff struct {
	Name, Title string
	N           int
	Diff        float64
	Lo, Hi      float64
	Percent     bool
}

// pairedMetrics are the continuous metrics the comparison reports.
var pairedMetrics = []string{"steps", "milestones", "return", "valid_action_ratio"}

const resamples = 2000

// comparePair compares runs a and b group by group (results.GroupKey: the
// groups of their summaries and reports, no other pooling) and over all
// their episodes; paired when they played from one lock, on the episodes
// they share. planned adds the groups the runs' summaries list that
// neither played (a run that could not start), so that they are refused
// in words rather than left out.
func comparePair(a, b string, ra, rb []results.Result, sameLock bool, missA, missB map[string]int, planned []results.GroupKey) []Paired {
	pr := pairing{a: a, b: b, ra: ra, rb: rb, missA: missA, missB: missB, byID: map[string]*results.Result{}}
	if sameLock {
		for i := range rb {
			if rb[i].Err == "" {
				pr.byID[rb[i].ID] = &rb[i]
			}
		}
	}
	var out []Paired
	for _, sc := range scopesOf(ra, rb, planned) {
		if p, ok := pr.compare(sc); ok {
			out = append(out, p)
		}
	}
	return out
}

// pairing is two runs being compared: their labels, results and missing
// episodes by scope, and B's results by episode id (empty when the runs
// played from different locks, so that nothing pairs).
type pairing struct {
	a, b         string
	ra, rb       []results.Result
	missA, missB map[string]int
	byID         map[string]*results.Result
}

// compare compares the runs on scope sc (nil: all episodes): paired on
// the episodes both played, else unpaired; ok is false when there is
// nothing to say.
func (pr *pairing) compare(sc *results.GroupKey) (p Paired, ok bool) {
	scope := allTiers
	if sc != nil {
		scope = sc.Label()
	}
	in := func(r *results.Result) bool { return r.Err == "" && (sc == nil || results.KeyOf(*r) == *sc) }
	p = Paired{A: pr.a, B: pr.b, Scope: scope}
	why := refusal(scope, unfinishedRun{pr.a, agentErrorsIn(pr.ra, in), missingIn(pr.missA, sc)}, unfinishedRun{pr.b, agentErrorsIn(pr.rb, in), missingIn(pr.missB, sc)})
	pairs := pr.pairsIn(in)
	if len(pairs) == 0 {
		return pr.unpaired(p, in, why)
	}
	p.N = len(pairs)
	pairedSuccess(&p, pairs)
	p.Metrics = metricDiffs(pairs, seedOf(pr.a, pr.b, scope))
	if !p.NoSuccess {
		p.Sentence = sentence(p)
	}
	if why != "" {
		refuse(&p, why)
	}
	return p, true
}

// pairsIn is the episodes of scope in that both runs played, one per
// world.
func (pr *pairing) pairsIn(in func(*results.Result) bool) [][2]*results.Result {
	var pairs [][2]*results.Result
	for i := range pr.ra {
		if !in(&pr.ra[i]) {
			continue
		}
		// The same episode: the same id, and the same task (the world
		// seed and the goal), not merely the same spec, which uncertified
		// suites or other builds may generate differently.
		if q := pr.byID[pr.ra[i].ID]; q != nil && in(q) && q.Seed == pr.ra[i].Seed && q.Goal == pr.ra[i].Goal {
			pairs = append(pairs, [2]*results.Result{&pr.ra[i], q})
		}
	}
	return onePerWorld(pairs)
}

// unpaired compares the runs' episodes of scope in as independent
// samples, where they share none; ok is false for a group one of them did
// not play (unless it was planned: why says so) and where no task defines
// success.
func (pr *pairing) unpaired(p Paired, in func(*results.Result) bool, why string) (Paired, bool) {
	playedA, na, succA := tally(pr.ra, in)
	playedB, nb, succB := tally(pr.rb, in)
	p.NA, p.SuccA, p.NB, p.SuccB = na, succA, nb, succB
	if !playedA || !playedB {
		if why != "" { // planned, not played: say so
			refuse(&p, why)
			return p, true
		}
		return p, false // a group one of them did not play
	}
	if p.NA == 0 || p.NB == 0 {
		return p, false // no task here defines success: nothing to compare unpaired
	}
	p.Unpaired = true
	p.Diff, p.Lo, p.Hi = results.NewcombeDiff(p.SuccA, p.NA, p.SuccB, p.NB)
	p.Sentence = sentence(p)
	if why != "" {
		refuse(&p, why)
	}
	return p, true
}

// tally says whether rs has an episode of scope in, and counts those
// whose task defines success and their successes.
func tally(rs []results.Result, in func(*results.Result) bool) (played bool, n, succ int) {
	for i := range rs {
		if in(&rs[i]) {
			played = true
			if results.HasSuccess(rs[i]) {
				n++
				succ += b2i(rs[i].Success)
			}
		}
	}
	return played, n, succ
}

// pairedSuccess compares success on the pairs whose task defines it (the
// metrics are compared on every pair): Newcombe's paired interval, which
// does not collapse when every discordant pair goes one way (a bootstrap
// does), and the exact McNemar test.
func pairedSuccess(p *Paired, pairs [][2]*results.Result) {
	for _, q := range pairs {
		if !results.HasSuccess(*q[0]) {
			continue
		}
		p.Judged++
		sa, sb := q[0].Success, q[1].Success
		p.SuccA, p.SuccB = p.SuccA+b2i(sa), p.SuccB+b2i(sb)
		switch {
		case sa && !sb:
			p.OnlyA++
		case sb && !sa:
			p.OnlyB++
		}
	}
	if p.NoSuccess = p.Judged == 0; !p.NoSuccess {
		both := p.SuccA - p.OnlyA
		p.Diff, p.Lo, p.Hi = results.NewcombePaired(both, p.OnlyA, p.OnlyB, p.Judged)
		p.P = results.McNemarExact(p.OnlyA, p.OnlyB)
	}
}

// metricDiffs is the mean paired difference of each of pairedMetrics
// over the pairs that measured it, with its paired bootstrap interval
// seeded from seed and the metric's name.
func metricDiffs(pairs [][2]*results.Result, seed uint64) []MetricDiff {
	var out []MetricDiff
	for _, m := range results.Metrics() {
		if !slices.Contains(pairedMetrics, m.Name) {
			continue
		}
		var ds []float64
		for _, q := range pairs {
			x, okA := m.Of(*q[0])
			y, okB := m.Of(*q[1])
			if okA && okB {
				ds = append(ds, x-y)
			}
		}
		if len(ds) == 0 {
			continue
		}
		md := MetricDiff{Name: m.Name, Title: m.Title, N: len(ds), Percent: m.Percent}
		md.Diff, md.Lo, md.Hi = results.PairedBootstrap(ds, resamples, seed^fnvOf(m.Name))
		out = append(out, md)
	}
	return out
}

// scopesOf is every group either run played, and those planned that
// neither played, in results.KeyLess order, then nil: all episodes.
func scopesOf(ra, rb []results.Result, planned []results.GroupKey) []*results.GroupKey {
	seen := map[results.GroupKey]bool{}
	anyRules := map[results.GroupKey]bool{} // played keys without their ruleset
	var keys []results.GroupKey
	for _, rs := range [][]results.Result{ra, rb} {
		for _, r := range rs {
			if k := results.KeyOf(r); !seen[k] {
				seen[k] = true
				keys = append(keys, k)
				k.Ruleset = ""
				anyRules[k] = true
			}
		}
	}
	for _, k := range planned {
		// A planned group of no result has no ruleset: one that was
		// played, under any ruleset, is already a scope.
		if !seen[k] && !(k.Ruleset == "" && anyRules[k]) {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.SliceStable(keys, func(i, j int) bool { return results.KeyLess(keys[i], keys[j]) })
	out := make([]*results.GroupKey, 0, len(keys)+1)
	for i := range keys {
		out = append(out, &keys[i])
	}
	return append(out, nil)
}

// sentence says what a comparison shows, plainly, as the page and the
// command print it: "explorer beats random on obtain/hard (…): +4.0 points [+1.2,
// +6.8], p = 0.004, 100 paired episodes".
func sentence(p Paired) string {
	points := func(x float64) string { return fmt.Sprintf("%+.1f", 100*x) }
	if p.Unpaired {
		return fmt.Sprintf("%s vs %s on %s, unpaired (not the same episodes): %s points [%s, %s] (Newcombe), %d and %d episodes",
			p.A, p.B, p.Scope, points(p.Diff), points(p.Lo), points(p.Hi), p.NA, p.NB)
	}
	pv := fmt.Sprintf("p = %.3f", p.P)
	if p.P < 0.001 {
		pv = "p < 0.001"
	}
	excludesZero := p.Lo > 0 || p.Hi < 0
	switch {
	case p.Diff == 0 || p.P >= 0.05 && !excludesZero:
		return fmt.Sprintf("%s and %s do not differ detectably on %s: %s points [%s, %s], %s, %d paired episodes",
			p.A, p.B, p.Scope, points(p.Diff), points(p.Lo), points(p.Hi), pv, p.Judged)
	case p.P >= 0.05 || !excludesZero:
		// The test and the interval disagree (few discordant pairs): say so
		// rather than pick one.
		return fmt.Sprintf("%s vs %s on %s is borderline: %s points [%s, %s], %s (the interval and McNemar's test disagree), %d paired episodes",
			p.A, p.B, p.Scope, points(p.Diff), points(p.Lo), points(p.Hi), pv, p.Judged)
	}
	win, lose, d, lo, hi := p.A, p.B, p.Diff, p.Lo, p.Hi
	if d < 0 {
		win, lose, d, lo, hi = p.B, p.A, -d, -hi, -lo
	}
	return fmt.Sprintf("%s beats %s on %s: %s points [%s, %s], %s, %d paired episodes",
		win, lose, p.Scope, points(d), points(lo), points(hi), pv, p.Judged)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func fnvOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// seedOf seeds a comparison's bootstrap from what it compares, so the page
// is the same every time it is written.
func seedOf(a, b, scope string) uint64 { return fnvOf(a + "\x00" + b + "\x00" + scope) }
