// Package task turns worlds into benchmark tasks: typed goals with step
// budgets and milestones, difficulty tiers, train/eval splits, per-seed
// rule variants, feedback levels and observability, and a generator that
// certifies every task solvable by the built-in planner.
package task

import (
	"fmt"
	"strings"

	"github.com/longcraft/longcraft/sim"
)

// Kind names a goal's kind.
type Kind string

// Goal kinds.
const (
	// KindAchievements is Crafter's open-ended mode: unlock as many
	// achievements as possible within the budget; never "reached".
	KindAchievements Kind = "achievements"
	// KindObtain: hold Count of Item at once.
	KindObtain Kind = "obtain"
	// KindReach: stand on (X, Y) (e.g. the start: "return to the start").
	KindReach Kind = "reach"
	// KindWaypoints: stand next to the landmarks in Order, one after
	// another; a landmark counts only once the previous one has.
	KindWaypoints Kind = "waypoints"
	// KindSurvive: be alive after Steps steps.
	KindSurvive Kind = "survive"
	// KindSequence: reach Goals in order.
	KindSequence Kind = "sequence"
)

// Goal is the task's goal in a small typed language. Only the fields of
// its Kind are set; Validate checks them against a ruleset.
type Goal struct {
	Kind  Kind   `yaml:"kind" json:"kind" msgpack:"kind"`
	Item  string `yaml:"item,omitempty" json:"item,omitempty" msgpack:"item,omitempty"`
	Count int    `yaml:"count,omitempty" json:"count,omitempty" msgpack:"count,omitempty"`
	X     int    `yaml:"x,omitempty" json:"x,omitempty" msgpack:"x,omitempty"`
	Y     int    `yaml:"y,omitempty" json:"y,omitempty" msgpack:"y,omitempty"`
	// Order lists landmark labels (0 is A) in visiting order.
	Order []int  `yaml:"order,omitempty" json:"order,omitempty" msgpack:"order,omitempty"`
	Steps int    `yaml:"steps,omitempty" json:"steps,omitempty" msgpack:"steps,omitempty"`
	Goals []Goal `yaml:"goals,omitempty" json:"goals,omitempty" msgpack:"goals,omitempty"`
}

// Obtain returns the goal of holding n of item.
func Obtain(item string, n int) Goal { return Goal{Kind: KindObtain, Item: item, Count: n} }

// Reach returns the goal of standing on (x, y).
func Reach(x, y int) Goal { return Goal{Kind: KindReach, X: x, Y: y} }

// Waypoints returns the goal of visiting landmarks in order.
func Waypoints(order ...int) Goal { return Goal{Kind: KindWaypoints, Order: order} }

// Survive returns the goal of being alive after n steps.
func Survive(n int) Goal { return Goal{Kind: KindSurvive, Steps: n} }

// Sequence returns the goal of reaching goals in order.
func Sequence(goals ...Goal) Goal { return Goal{Kind: KindSequence, Goals: goals} }

// Validate checks the goal against rules (items must exist) and the
// number of landmarks the world holds.
func (g *Goal) Validate(r *sim.Rules, landmarks int) error {
	switch g.Kind {
	case KindAchievements:
	case KindObtain:
		if _, ok := r.ItemByName(g.Item); !ok {
			return fmt.Errorf("goal obtain: no item %q in the %s rules", g.Item, r.Name)
		}
		if g.Count < 1 || g.Count > 9 {
			return fmt.Errorf("goal obtain %s: count %d outside 1 to 9", g.Item, g.Count)
		}
	case KindReach:
		if g.X < 0 || g.Y < 0 {
			return fmt.Errorf("goal reach: negative position (%d, %d)", g.X, g.Y)
		}
	case KindWaypoints:
		if len(g.Order) == 0 {
			return fmt.Errorf("goal waypoints: no landmarks")
		}
		for _, l := range g.Order {
			if l < 0 || l >= landmarks {
				return fmt.Errorf("goal waypoints: landmark %d, the world has %d", l, landmarks)
			}
		}
	case KindSurvive:
		if g.Steps < 1 {
			return fmt.Errorf("goal survive: %d steps", g.Steps)
		}
	case KindSequence:
		if len(g.Goals) == 0 {
			return fmt.Errorf("goal sequence: empty")
		}
		for i := range g.Goals {
			if g.Goals[i].Kind == KindAchievements {
				return fmt.Errorf("goal sequence: step %d is open-ended", i+1)
			}
			if err := g.Goals[i].Validate(r, landmarks); err != nil {
				return fmt.Errorf("goal sequence step %d: %w", i+1, err)
			}
		}
	default:
		return fmt.Errorf("goal: unknown kind %q", g.Kind)
	}
	return nil
}

// String states the goal as the agent reads it: the end only, never the
// way there ("obtain 1 compass").
func (g *Goal) String() string {
	switch g.Kind {
	case KindAchievements:
		return "unlock as many achievements as you can"
	case KindObtain:
		return fmt.Sprintf("obtain %d %s", g.Count, g.Item)
	case KindReach:
		return fmt.Sprintf("go to position (%d, %d)", g.X, g.Y)
	case KindWaypoints:
		var names []string
		for _, l := range g.Order {
			names = append(names, "landmark "+sim.LandmarkName(l))
		}
		return "visit " + strings.Join(names, ", then ") + ", in that order"
	case KindSurvive:
		return fmt.Sprintf("stay alive for %d steps", g.Steps)
	case KindSequence:
		var parts []string
		for i := range g.Goals {
			parts = append(parts, g.Goals[i].String())
		}
		return strings.Join(parts, ", then ")
	}
	return string(g.Kind)
}
