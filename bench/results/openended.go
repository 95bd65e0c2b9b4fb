package results

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/bench/score"
	"github.com/longcraft/longcraft/bench/task"
)

// RulesetScore is Crafter's score, BALROG's progression and each
// achievement's unlock rate over the open-ended episodes (openEnded) of
// one ruleset, as the episodes recorded it: "classic", "extended",
// "extended+variants". Each ruleset is its own line, over its own list of
// achievements (task.AchievementsOf), so classic and extended are never
// pooled and no episode's progression passes 100%. Variants change
// recipes, never the list, so episodes of varied rules are one line (and
// never pooled with the unvaried ones).
type RulesetScore struct {
	Ruleset string `json:"ruleset"`
	// Achievements is the ruleset's number of achievements: progression's
	// denominator, and the rates the Crafter score is the geometric mean of.
	Achievements int `json:"achievements"`
	Episodes     int `json:"episodes"`
	// CrafterScore is exp(mean over the achievements of ln(1 + s_i)) − 1,
	// s_i the percentage of episodes that unlocked achievement i, %.
	CrafterScore float64 `json:"crafter_score"`
	// Progression is the mean over episodes of unlocked / Achievements,
	// %, and ProgressionSE its standard error (percent points), BALROG's ±.
	Progression   float64 `json:"progression"`
	ProgressionSE float64 `json:"progression_se"`
	// AchievementRates are the s_i, in the ruleset's order.
	AchievementRates []AchievementRate `json:"achievement_rates"`
	// Err says why the line has no figures (a ruleset this build does not
	// know, so neither its achievements).
	Err string `json:"error,omitempty"`
}

// AchievementRate is one achievement's unlock rate, %.
type AchievementRate struct {
	Name    string  `json:"name"`
	Percent float64 `json:"percent"`
}

// scoreRulesets computes a RulesetScore for each ruleset of the
// open-ended episodes of rs (errored ones left out), ordered by name.
func scoreRulesets(rs []Result) []RulesetScore {
	byRules := map[string][]Result{}
	for _, r := range rs {
		if openEnded(r) && r.Err == "" {
			byRules[RulesetOf(r)] = append(byRules[RulesetOf(r)], r)
		}
	}
	names := make([]string, 0, len(byRules))
	for name := range byRules {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []RulesetScore
	for _, name := range names {
		eps := byRules[name]
		line := RulesetScore{Ruleset: name, Episodes: len(eps)}
		achievements, err := task.AchievementsOf(name)
		if err != nil {
			line.Err = err.Error()
			out = append(out, line)
			continue
		}
		line.Achievements = len(achievements)
		rates := make([]float64, len(achievements))
		unlocked := make([]int, len(eps))
		for i, r := range eps {
			unlocked[i] = bits.OnesCount64(r.Achievements)
			for a := range achievements {
				if r.Achievements&(1<<a) != 0 {
					rates[a]++
				}
			}
		}
		for a, name := range achievements {
			rates[a] = 100 * rates[a] / float64(len(eps))
			line.AchievementRates = append(line.AchievementRates, AchievementRate{Name: name, Percent: rates[a]})
		}
		line.CrafterScore = score.Crafter(rates)
		line.Progression = score.Progression(unlocked, len(achievements))
		line.ProgressionSE = score.ProgressionSE(unlocked, len(achievements))
		out = append(out, line)
	}
	return out
}

// SuccessUndefined reports whether no task of the summary defines
// success (an open-ended suite: crafter, balrog-crafter): its headline is
// Crafter's score and progression, and no table or page shows a success
// rate for it.
func (s Summary) SuccessUndefined() bool {
	for _, g := range s.Groups {
		if !g.NoSuccess {
			return false
		}
	}
	return len(s.Groups) > 0
}

// writeOpenEnded writes one line per ruleset of the open-ended episodes:
// Crafter's score and BALROG's progression over that ruleset's own
// achievements.
func writeOpenEnded(b *strings.Builder, s Summary) {
	for _, l := range s.OpenEnded {
		if l.Err != "" {
			fmt.Fprintf(b, "open-ended, %s rules: %d episodes, no score: %s\n", l.Ruleset, l.Episodes, l.Err)
			continue
		}
		fmt.Fprintf(b, "open-ended, %s rules (%d achievements): %d episodes, Crafter score %.2f%%, progression %.2f%% ± %.2f (standard error)\n",
			l.Ruleset, l.Achievements, l.Episodes, l.CrafterScore, l.Progression, l.ProgressionSE)
	}
}

// RulesetOf is the ruleset an episode played: as recorded, or for results
// written before it was, its scenario's or its tier's, with variants
// named as task.ApplyVariants names them.
func RulesetOf(r Result) string {
	if r.Ruleset != "" {
		return r.Ruleset
	}
	name, varied := "", false
	if sc := r.Spec.Scenario; sc != nil {
		name, varied = sc.Ruleset, sc.Variants
	} else if t, err := task.TierByName(r.Spec.Tier); err == nil {
		name, varied = t.Ruleset, t.Variants
	}
	if varied && !strings.HasSuffix(name, task.VariantsSuffix) {
		name += task.VariantsSuffix
	}
	return name
}

// openEnded reports whether r played Crafter's open-ended mode (the
// achievements family, or a scenario whose goal is achievements): the
// episodes Crafter's score, the achievements' rates and BALROG's
// progression are computed over.
func openEnded(r Result) bool {
	if sc := r.Spec.Scenario; sc != nil {
		return sc.Goal.Kind == task.KindAchievements
	}
	return r.Spec.Family == task.FamilyAchievements
}

// HasSuccess reports whether r's task defines success: every task but
// an achievements goal that no count completes (a scenario's achieve 0:
// Crafter's free play, task.AchievementsMet), where success is not a
// figure of the episode.
func HasSuccess(r Result) bool {
	sc := r.Spec.Scenario
	return sc == nil || sc.Goal.Kind != task.KindAchievements || sc.Achieve > 0
}

// UnlockCurve is the anytime curve of a ruleset's open-ended episodes of
// rs: at each of points+1 steps evenly spread from 0 to the longest
// episode, the mean percentage of the ruleset's achievements unlocked by
// then (an episode that ended earlier keeps its count), so it ends at the
// line's progression. Nil when an episode's unlock steps are not recorded
// (results written before they were).
func UnlockCurve(rs []Result, l RulesetScore, points int) (steps []int, percent []float64) {
	var eps []Result
	longest := 1
	for _, r := range rs {
		if openEnded(r) && r.Err == "" && RulesetOf(r) == l.Ruleset {
			if len(r.UnlockSteps) != bits.OnesCount64(r.Achievements) {
				return nil, nil
			}
			eps = append(eps, r)
			longest = max(longest, r.Steps)
		}
	}
	if len(eps) == 0 || l.Achievements == 0 {
		return nil, nil
	}
	for i := 0; i <= points; i++ {
		step := longest * i / points
		unlocked := 0
		for _, r := range eps {
			unlocked += sort.SearchInts(r.UnlockSteps, step+1) // unlocks at or before step
		}
		steps = append(steps, step)
		percent = append(percent, 100*float64(unlocked)/float64(len(eps)*l.Achievements))
	}
	return steps, percent
}
