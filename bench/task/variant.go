package task

import (
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/sim"
)

// VariantFamily is a kind of rule change a seed may draw.
type VariantFamily string

// Variant families. Train tasks draw from the first two; eval tasks from
// the last two, which training never shows.
const (
	VaryStation  VariantFamily = "station"  // a recipe needs another station nearby
	VaryMaterial VariantFamily = "material" // a recipe uses another raw material
	VaryTool     VariantFamily = "tool"     // a resource needs another tool
	VaryAmount   VariantFamily = "amount"   // a recipe needs more of a material
)

// FamiliesFor returns the variant families of a split.
func FamiliesFor(s Split) []VariantFamily {
	if s == Eval {
		return []VariantFamily{VaryTool, VaryAmount}
	}
	return []VariantFamily{VaryStation, VaryMaterial}
}

// ApplyVariants returns a copy of base with one change drawn per family,
// deterministically from seed, and a sentence per change for the
// evaluator. Every change keeps every item obtainable: draws that would
// make a recipe circular are redrawn.
func ApplyVariants(base *sim.Rules, seed uint64, families []VariantFamily) (*sim.Rules, []string, error) {
	r := base.Clone()
	r.Name = base.Name + VariantsSuffix
	var notes []string
	rng := sim.RNG{State: sim.Mix64(seed ^ 0x76617269616e74)} // "variant"
	for _, fam := range families {
		done := false
		for try := 0; try < 50 && !done; try++ {
			trial := r.Clone()
			note, ok := drawVariant(trial, fam, &rng)
			if !ok || trial.Compile() != nil || !allObtainable(trial) {
				continue
			}
			r, done = trial, true
			notes = append(notes, note)
		}
		if !done {
			return nil, nil, fmt.Errorf("variants of %s: no valid %s change found for seed %d", base.Name, fam, seed)
		}
	}
	if err := r.Compile(); err != nil {
		return nil, nil, err
	}
	return r, notes, nil
}

// VariantsSuffix ends the name of a ruleset with per-seed variants
// ("extended+variants"): results record it, so that no summary pools
// episodes of varied rules with those of the base rules.
const VariantsSuffix = "+variants"

// AchievementsOf returns the achievements of the ruleset an episode
// recorded (sim.Rules.Name: a built-in ruleset, or one with variants):
// the denominator of its progression and the list its Crafter score is
// the geometric mean over. Variants change recipes, never the list of
// achievements (ApplyVariants keeps every item obtainable), so a varied
// ruleset has its base's.
func AchievementsOf(ruleset string) ([]string, error) {
	r, err := sim.RulesByName(strings.TrimSuffix(ruleset, VariantsSuffix))
	if err != nil {
		return nil, fmt.Errorf("achievements of %q: %w", ruleset, err)
	}
	return r.Achievements, nil
}

// allObtainable reports whether every non-vital item can still be made.
func allObtainable(r *sim.Rules) bool {
	for i := range r.Items {
		if r.Items[i].Vital || sim.Item(i) == sim.ItemSapling {
			continue
		}
		if _, err := Dependencies(r, sim.Item(i)); err != nil {
			return false
		}
	}
	return true
}

// drawVariant applies one change of family fam to r.
func drawVariant(r *sim.Rules, fam VariantFamily, rng *sim.RNG) (string, bool) {
	pick := func(n int) int { return rng.Intn(n) }
	item := func(it sim.Item) string { return r.Items[it].Name }
	mat := func(m sim.Material) string { return r.Materials[m].Name }
	switch fam {
	case VaryStation:
		var stations []sim.Material // every material some recipe needs nearby
		for _, mk := range r.Make {
			for _, st := range mk.Nearby {
				if !contains(stations, st) {
					stations = append(stations, st)
				}
			}
		}
		m := &r.Make[pick(len(r.Make))]
		if len(m.Nearby) == 0 || len(stations) < 2 {
			return "", false
		}
		i := pick(len(m.Nearby))
		old, repl := m.Nearby[i], stations[pick(len(stations))]
		if repl == old || contains(m.Nearby, repl) {
			return "", false
		}
		m.Nearby[i] = repl
		return fmt.Sprintf("make_%s needs a %s nearby instead of a %s", m.Name, mat(repl), mat(old)), true
	case VaryMaterial:
		raw := []sim.Item{sim.ItemWood, sim.ItemStone, sim.ItemCoal, sim.ItemIron, sim.ItemSapling}
		uses, name, i, ok := pickUse(r, pick)
		if !ok {
			return "", false
		}
		old, repl := uses[i].Item, raw[pick(len(raw))]
		if !containsItem(raw, old) || repl == old || usesItem(uses, repl) {
			return "", false
		}
		uses[i].Item = repl
		return fmt.Sprintf("%s uses %s instead of %s", name, item(repl), item(old)), true
	case VaryTool:
		tools := []sim.Item{sim.ItemWoodPickaxe, sim.ItemStonePickaxe, sim.ItemIronPickaxe, sim.ItemWoodSword, sim.ItemStoneSword}
		c := &r.Collect[pick(len(r.Collect))]
		if len(c.Require) == 0 {
			return "", false
		}
		old, repl := c.Require[0].Item, tools[pick(len(tools))]
		if repl == old {
			return "", false
		}
		c.Require[0].Item = repl
		return fmt.Sprintf("collecting %s needs a %s instead of a %s", mat(c.Material), item(repl), item(old)), true
	case VaryAmount:
		uses, name, i, ok := pickUse(r, pick)
		if !ok {
			return "", false
		}
		extra := int8(1 + pick(2))
		if uses[i].Amount+extra > 9 {
			return "", false
		}
		uses[i].Amount += extra
		return fmt.Sprintf("%s needs %d %s instead of %d", name, uses[i].Amount, item(uses[i].Item), uses[i].Amount-extra), true
	}
	return "", false
}

// pickUse draws a make or place rule and one of the items it uses: the
// rule's uses (shared with r, to edit), its action name and the index.
func pickUse(r *sim.Rules, pick func(int) int) ([]sim.ItemAmount, string, int, bool) {
	var uses []sim.ItemAmount
	var name string
	if k := pick(len(r.Make) + len(r.Place)); k < len(r.Make) {
		uses, name = r.Make[k].Uses, "make_"+r.Make[k].Name
	} else {
		uses, name = r.Place[k-len(r.Make)].Uses, "place_"+r.Place[k-len(r.Make)].Name
	}
	if len(uses) == 0 {
		return nil, "", 0, false
	}
	return uses, name, pick(len(uses)), true
}

func contains(ms []sim.Material, m sim.Material) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func containsItem(its []sim.Item, it sim.Item) bool {
	for _, x := range its {
		if x == it {
			return true
		}
	}
	return false
}

func usesItem(uses []sim.ItemAmount, it sim.Item) bool {
	for _, u := range uses {
		if u.Item == it {
			return true
		}
	}
	return false
}
