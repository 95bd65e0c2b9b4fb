package task

import "fmt"

// Tier is a documented set of difficulty knobs.
type Tier struct {
	Name      string
	Ruleset   string        // "classic" or "extended"
	MapSize   int           // tiles on a side
	Abundance int           // % of classic resources (trees, ores, cows)
	Hostility int           // % of classic initial zombies and skeletons, and of night spawns
	Feedback  Feedback      // what failed actions tell the agent
	Variants  bool          // per-seed rule variants
	MinDepth  int           // obtain targets: dependency depth range (hops)
	MaxDepth  int           //
	Collect   int           // collect tasks: how many of the item
	Landmarks int           // waypoints tasks: landmarks to visit
	Survive   int           // survive tasks: steps to stay alive
	Achieve   int           // achievements tasks: unlocking this many counts as success
	Budget    int           // steps per episode
	View      Observability // default observability
}

// Tiers returns the four tiers, easiest first:
//
//	tier    rules     map  abundance hostility feedback variants depth  budget  survive
//	easy    classic   48   150%      50%       full     off      1–3    1,000   300
//	medium  classic   64   100%      100%      full     off      3–6    3,000   1,000
//	hard    extended  64   100%      100%      reason   on       5–9    6,000   2,000
//	expert  extended  80   70%       120%      none     on       8–11   10,000  3,000
//
// Collect tasks ask for 3, 5, 7 and 9 of a raw material, waypoints tasks
// for 2, 3, 4 and 5 landmarks, achievements tasks count as a success from
// 4, 6, 8 and 10 achievements.
func Tiers() []Tier {
	return []Tier{
		{Name: "easy", Achieve: 4, Ruleset: "classic", MapSize: 48, Abundance: 150, Hostility: 50, Feedback: FeedbackFull,
			MinDepth: 1, MaxDepth: 3, Collect: 3, Landmarks: 2, Survive: 300, Budget: 1000, View: Partial},
		{Name: "medium", Achieve: 6, Ruleset: "classic", MapSize: 64, Abundance: 100, Hostility: 100, Feedback: FeedbackFull,
			MinDepth: 3, MaxDepth: 6, Collect: 5, Landmarks: 3, Survive: 1000, Budget: 3000, View: Partial},
		{Name: "hard", Achieve: 8, Ruleset: "extended", MapSize: 64, Abundance: 100, Hostility: 100, Feedback: FeedbackReason, Variants: true,
			MinDepth: 5, MaxDepth: 9, Collect: 7, Landmarks: 3, Survive: 2000, Budget: 6000, View: Partial},
		{Name: "expert", Achieve: 10, Ruleset: "extended", MapSize: 80, Abundance: 70, Hostility: 120, Feedback: FeedbackNone, Variants: true,
			MinDepth: 8, MaxDepth: 11, Collect: 9, Landmarks: 3, Survive: 3000, Budget: 10000, View: Partial},
	}
}

// TierRank returns the tier's position in Tiers, easiest first, or
// len(Tiers()) for a name that is not a tier: the one order of tiers in
// summaries, tables and reports.
func TierRank(name string) int {
	tiers := Tiers()
	for i, t := range tiers {
		if t.Name == name {
			return i
		}
	}
	return len(tiers)
}

// TierOrder names the tiers in the order summaries, charts and
// comparisons list them: the four tiers, easiest first, then the
// scenarios' (TierScenario), which set their own knobs.
func TierOrder() []string {
	var names []string
	for _, t := range Tiers() {
		names = append(names, t.Name)
	}
	return append(names, TierScenario)
}

// TierByName returns the named tier.
func TierByName(name string) (Tier, error) {
	for _, t := range Tiers() {
		if t.Name == name {
			return t, nil
		}
	}
	return Tier{}, fmt.Errorf("unknown tier %q (easy, medium, hard, expert)", name)
}
