package results

import (
	"fmt"
	"math"

	"github.com/longcraft/longcraft/bench/task"
)

// distinctWorlds counts the distinct worlds rs played on (task.World),
// each within its own condition, and reports whether any of them is a
// scenario's fixed map (one world on every seed). Ten episodes of one
// fixed map are one observation of the agent on it, not ten: a group's
// interval is over its worlds.
func distinctWorlds(rs []Result) (worlds int, fixed bool) {
	seen := map[string]bool{}
	for _, r := range rs {
		if sc := r.Spec.Scenario; sc != nil && !sc.Varies() {
			fixed = true
		}
		seen[WorldKey(r)] = true
	}
	return len(seen), fixed
}

// WorldKey names the world r played on within its condition (family,
// tier, split, observability, feedback, budget): two results with one key
// are two plays of one world, one observation for an interval or a test.
func WorldKey(r Result) string {
	view, fb := condition(r)
	return fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00%s", r.Spec.Family, r.Spec.Tier, r.Spec.Split, view, fb, budget(r), task.World(r.Spec, r.Seed))
}

// countWorlds sets g's Worlds and FixedMap and, when its episodes played
// fewer distinct worlds than there are episodes, its interval: the Wilson
// interval of its success rate over that many observations.
func countWorlds(g *Group, rs []Result) {
	worlds, fixed := distinctWorlds(rs)
	if worlds >= g.Episodes {
		return
	}
	g.Worlds, g.FixedMap = worlds, fixed
	g.Low, g.High = WilsonRate(g.Rate, worlds)
}

// WilsonRate is the 95% Wilson score interval of a success rate p
// observed over n independent worlds (p need not be k/n: repeated
// episodes of one world average into it).
func WilsonRate(p float64, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 0
	}
	const z = 1.959963984540054
	fn := float64(n)
	d := 1 + z*z/fn
	c := (p + z*z/(2*fn)) / d
	h := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / d
	return max(c-h, 0), min(c+h, 1)
}

// Observations is what the group's interval counts: its distinct worlds
// when they are fewer than its episodes, else its episodes.
func (g Group) Observations() int {
	if g.Worlds > 0 {
		return g.Worlds
	}
	return g.Episodes
}

// WorldsNote is what a table or report says of a group that played fewer
// distinct worlds than episodes ("fixed map: 1 distinct world"), "" for
// one that did not.
func (g Group) WorldsNote() string {
	if g.Worlds == 0 {
		return ""
	}
	noun := "worlds"
	if g.Worlds == 1 {
		noun = "world"
	}
	if g.FixedMap {
		return fmt.Sprintf("fixed map: %d distinct %s", g.Worlds, noun)
	}
	return fmt.Sprintf("%d distinct %s", g.Worlds, noun)
}
