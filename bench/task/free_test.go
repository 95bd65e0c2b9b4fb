package task

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/sim"
)

// playBaseline plays task t to its end (goal, death or budget) with a
// noop, an always-do or a uniformly random agent and reports whether it
// succeeded,
// by the same rules as the runner: the goal reached, or for achievements
// tasks enough achievements unlocked.
func playBaseline(t *testing.T, tk *Task, policy string, seed uint64) bool {
	w, err := tk.NewWorld()
	require.NoError(t, err)
	prog := NewProgress(tk.Goal, w)
	rng := sim.RNG{State: seed ^ 0x62617365}
	for step := 0; step < tk.Budget && !w.Done(); step++ {
		a := sim.ActNoop
		switch policy {
		case "random":
			a = sim.Action(rng.Intn(len(w.Rules().Actions)))
		case "do":
			a = sim.ActDo
		}
		w.Step(a)
		if tk.Goal.Kind == KindAchievements {
			if tk.AchievementsMet(w) {
				return true
			}
		} else if prog.Update(w) {
			return true
		}
	}
	return false
}

// TestNoFreeTasks generates every family at every tier on the eval split
// and checks that no goal holds at step 0 (a free win: v1's standard suite
// had 21 "obtain 9 drink" tasks). It also plays each task with a noop, an
// always-do and a random agent and prints their success per cell: noop and
// always-do succeed only at surviving. 1,000 seeds a cell (30 with
// -short, as under the race detector; tasks-test runs the 1,000).
func TestNoFreeTasks(t *testing.T) {
	seeds := 1000
	if testing.Short() {
		seeds = 30
	}
	fams, tiers := Families(), Tiers()
	type cell struct{ noop, do, random int }
	cells := make([][]cell, len(fams))
	t.Run("cells", func(t *testing.T) {
		for f, fam := range fams {
			cells[f] = make([]cell, len(tiers))
			t.Run(fam, func(t *testing.T) {
				t.Parallel()
				for k, tier := range tiers {
					c := &cells[f][k]
					for i := range uint64(seeds) {
						tk, err := Generate(Spec{Family: fam, Tier: tier.Name, Split: Eval, Index: i}, nil)
						require.NoError(t, err)
						w, err := tk.NewWorld()
						require.NoError(t, err)
						require.False(t, NewProgress(tk.Goal, w).Update(w), "%s: %q holds at step 0", tk.ID, tk.Goal.String())
						if tk.Goal.Kind == KindObtain {
							it, _ := w.Rules().ItemByName(tk.Goal.Item)
							require.False(t, w.Rules().Items[it].Vital, "%s: a vital as a goal: %q", tk.ID, tk.Goal.String())
						}
						if playBaseline(t, tk, "noop", i) {
							c.noop++
						}
						if playBaseline(t, tk, "do", i) {
							c.do++
						}
						if playBaseline(t, tk, "random", i) {
							c.random++
						}
					}
					if fam != FamilySurvive {
						assert.Zero(t, c.noop, "%s/%s: a noop agent succeeded", fam, tier.Name)
						assert.Zero(t, c.do, "%s/%s: an agent that only does \"do\" succeeded", fam, tier.Name)
					}
				}
			})
		}
	})
	var table strings.Builder
	fmt.Fprintf(&table, "%-14s %-7s %7s %7s %7s   (%d eval seeds a cell, uncertified)\n", "family", "tier", "noop", "do", "random", seeds)
	for f, fam := range fams {
		for k, tier := range tiers {
			c := cells[f][k]
			fmt.Fprintf(&table, "%-14s %-7s %6.1f%% %6.1f%% %6.1f%%\n", fam, tier.Name, 100*float64(c.noop)/float64(seeds), 100*float64(c.do)/float64(seeds), 100*float64(c.random)/float64(seeds))
		}
	}
	t.Log("\n" + table.String())
}

// TestHeldOutGoals: the train split never draws a held-out goal (a sword
// to obtain, coal to collect); the eval split does.
func TestHeldOutGoals(t *testing.T) {
	seeds := uint64(300)
	if testing.Short() {
		seeds = 60
	}
	evalHeld := 0
	for _, fam := range []string{FamilyObtain, FamilyObtainReturn, FamilyCollect} {
		for _, tier := range Tiers() {
			for i := range seeds {
				for _, split := range []Split{Train, Eval} {
					tk, err := Generate(Spec{Family: fam, Tier: tier.Name, Split: split, Index: i}, nil)
					require.NoError(t, err)
					goal := tk.Goal.String()
					held := heldOut(tk.Goal.Item) || tk.Goal.Kind == KindSequence && heldOut(tk.Goal.Goals[0].Item)
					if fam == FamilyCollect {
						held = tk.Goal.Item == HeldOut.Collect
					}
					if split == Train {
						require.False(t, held, "%s/%s/train#%d draws a held-out goal: %s", fam, tier.Name, i, goal)
					} else if held {
						evalHeld++
					}
				}
			}
		}
	}
	assert.Positive(t, evalHeld, "the eval split draws held-out goals")
	t.Logf("%d eval tasks of %d have held-out goals", evalHeld, 3*4*int(seeds))
}
