package task_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// playBaseline plays task t to its end (goal, death or budget) with a
// noop, an always-do or a uniformly random agent and reports whether it
// succeeded,
// by the same rules as the runner: the goal reached, or for achievements
// tasks enough achievements unlocked.
func playBaseline(t *testing.T, tk *task.Task, policy string, seed uint64) bool {
	w, err := tk.NewWorld()
	require.NoError(t, err)
	prog := task.NewProgress(tk.Goal, w)
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
		if tk.Goal.Kind == task.KindAchievements {
			if tk.AchievementsMet(w) {
				return true
			}
		} else if prog.Update(w) {
			return true
		}
	}
	return false
}

// chanceBound is the most a baseline (noop, always-do, random) may win of
// a cell before the cell counts as won by chance rather than by play: an
// easy task is meant to be within reach of a first agent, but one a
// random agent wins nearly half the time measures nothing; from medium on
// a task needs a plan, so a baseline's wins must stay rare.
func chanceBound(tierRank int) float64 {
	if tierRank == 0 {
		return 0.40
	}
	return 0.02
}

// TestNoFreeTasks generates every family at every tier on the eval split
// and checks that no task is a free win: no goal holds at step 0, no goal
// is a vital, a noop and an always-do agent succeed only at surviving, and
// no baseline (noop, always-do, random) wins a cell detectably more often
// than chanceBound: the test fails when a baseline's 95% Wilson interval
// lies wholly above the bound, so a small sample (-short) fails only on
// evidence and the full one (tasks-test) is strict. 1,000 seeds a cell
// (30 with -short, as under the race detector); the table of success
// rates is logged.
func TestNoFreeTasks(t *testing.T) {
	seeds := 1000
	if testing.Short() {
		seeds = 30
	}
	fams, tiers := task.Families(), task.Tiers()
	baselines := []string{"noop", "do", "random"}
	wins := make([][][]int, len(fams)) // wins[family][tier][baseline]
	t.Run("cells", func(t *testing.T) {
		for f, fam := range fams {
			wins[f] = make([][]int, len(tiers))
			t.Run(fam, func(t *testing.T) {
				t.Parallel()
				for k, tier := range tiers {
					won := make([]int, len(baselines))
					wins[f][k] = won
					for i := range uint64(seeds) {
						tk, err := task.Generate(task.Spec{Family: fam, Tier: tier.Name, Split: task.Eval, Index: i}, nil)
						require.NoError(t, err)
						w, err := tk.NewWorld()
						require.NoError(t, err)
						require.False(t, task.NewProgress(tk.Goal, w).Update(w), "%s: %q holds at step 0", tk.ID, tk.Goal.String())
						if tk.Goal.Kind == task.KindObtain {
							it, _ := w.Rules().ItemByName(tk.Goal.Item)
							require.False(t, w.Rules().Items[it].Vital, "%s: a vital as a goal: %q", tk.ID, tk.Goal.String())
						}
						for b, policy := range baselines {
							if playBaseline(t, tk, policy, i) {
								won[b]++
							}
						}
					}
					if fam != task.FamilySurvive {
						assert.Zero(t, won[0], "%s/%s: a noop agent succeeded", fam, tier.Name)
						assert.Zero(t, won[1], "%s/%s: an agent that only does \"do\" succeeded", fam, tier.Name)
					}
					bound := chanceBound(k)
					for b, policy := range baselines {
						lo, hi := results.Wilson(won[b], seeds)
						assert.LessOrEqual(t, lo, bound, "%s/%s: the %s agent wins %d of %d (95%% interval %.1f–%.1f%%), above the %.0f%% a baseline may win",
							fam, tier.Name, policy, won[b], seeds, 100*lo, 100*hi, 100*bound)
					}
				}
			})
		}
	})
	var table strings.Builder
	fmt.Fprintf(&table, "%-14s %-7s %7s %7s %17s %6s   (%d eval seeds a cell, uncertified)\n", "family", "tier", "noop", "do", "random (95% CI)", "bound", seeds)
	for f, fam := range fams {
		for k, tier := range tiers {
			won := wins[f][k]
			lo, hi := results.Wilson(won[2], seeds)
			fmt.Fprintf(&table, "%-14s %-7s %6.1f%% %6.1f%% %6.1f%% %4.1f–%4.1f %5.0f%%\n", fam, tier.Name,
				100*float64(won[0])/float64(seeds), 100*float64(won[1])/float64(seeds), 100*float64(won[2])/float64(seeds), 100*lo, 100*hi, 100*chanceBound(k))
		}
	}
	t.Log("\n" + table.String())
}
