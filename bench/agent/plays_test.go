package agent

import (
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/golden"
	"github.com/longcraft/longcraft/sim"
)

// The plays the golden pins: the primitive agents on generated tasks of
// several families, and the skill-level agents on the explorer-chain
// scenarios. Each is short enough for the whole test to stay well under
// the time of make test's other packages.
var (
	primitiveAgents = []string{"planner", "explorer", "random", "walker"}
	primitiveSpecs  = []task.Spec{
		{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 0},
		{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 1},
		{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 2},
		{Family: task.FamilyCollect, Tier: "easy", Split: task.Eval, Index: 1},
		{Family: task.FamilyObtainReturn, Tier: "easy", Split: task.Eval, Index: 1},
		{Family: task.FamilyWaypoints, Tier: "easy", Split: task.Eval, Index: 1},
		{Family: task.FamilyObtain, Tier: "medium", Split: task.Eval, Index: 1},
		{Family: task.FamilyCollect, Tier: "medium", Split: task.Eval, Index: 2},
		{Family: task.FamilyWaypoints, Tier: "medium", Split: task.Eval, Index: 2},
		{Family: task.FamilySurvive, Tier: "easy", Split: task.Eval, Index: 1},
		{Family: task.FamilyObtain, Tier: "hard", Split: task.Eval, Index: 1},
		{Family: task.FamilyObtain, Tier: "hard", Split: task.Eval, Index: 2},
		{Family: task.FamilyObtain, Tier: "hard", Split: task.Eval, Index: 3},
		{Family: task.FamilyObtain, Tier: "expert", Split: task.Eval, Index: 1},
		{Family: task.FamilyObtain, Tier: "expert", Split: task.Eval, Index: 2},
		{Family: task.FamilyCollect, Tier: "hard", Split: task.Eval, Index: 1},
		{Family: task.FamilyAchievements, Tier: "easy", Split: task.Eval, Index: 1},
		{Family: task.FamilyObtainReturn, Tier: "medium", Split: task.Eval, Index: 1},
		{Family: task.FamilyWaypoints, Tier: "hard", Split: task.Eval, Index: 1},
		{Family: task.FamilySurvive, Tier: "medium", Split: task.Eval, Index: 1},
	}
	skillAgents = []string{"planner", "explorer", "random"}
	// skillEpisodes picks episodes of explorer-chain by scenario name and
	// seed.
	skillEpisodes = map[string][]uint64{"compass-8": {0, 1, 2, 3}, "compass-24": {0, 1}, "compass-64": {0}}
)

// shownActions and shownDecisions are how much of a play the golden
// spells out, so that a diff shows where two plays part; the hash covers
// the rest.
const (
	shownActions   = 40
	shownDecisions = 12
)

// TestPlays pins the actions the built-in agents choose: for each agent
// and task, the step count, the end, a hash of every action and the
// first actions by name (at the skill level, the first decisions too).
// The episodes' goldens pin results, which many different plays share;
// a change to a search's neighbour order or a tie-break changes the plays
// here. Regenerate with -rewrite only for a change of play that is meant.
func TestPlays(t *testing.T) {
	var b strings.Builder
	for _, sp := range primitiveSpecs {
		tk, err := task.Generate(sp, nil)
		require.NoError(t, err)
		label := fmt.Sprintf("%s/%s/%d", sp.Family, sp.Tier, sp.Index)
		for _, name := range primitiveAgents {
			writePlay(&b, name, label, tk, playPrimitive(t, name, tk))
		}
	}
	s, err := suite.Load("explorer-chain")
	require.NoError(t, err)
	for _, sp := range s.Expand() {
		seeds := skillEpisodes[sp.Scenario.Name]
		if !containsSeed(seeds, sp.Index) {
			continue
		}
		tk, err := task.Generate(sp, nil)
		require.NoError(t, err)
		label := fmt.Sprintf("%s/%d", sp.Scenario.Label(), sp.Index)
		for _, name := range skillAgents {
			writePlay(&b, name, label, tk, playSkills(t, name, tk))
		}
	}
	golden.File(t, "testdata/plays.txt", []byte(b.String()), "an agent's play changed")
}

func containsSeed(seeds []uint64, i uint64) bool {
	for _, s := range seeds {
		if s == i {
			return true
		}
	}
	return false
}

// playPrimitive plays tk with agent name at the primitive level, as the
// runner does: reset to the task's seed, then each action chosen from
// the world and the last outcome as the task lets the agent see it.
func playPrimitive(t *testing.T, name string, tk *task.Task) *episode.Episode {
	t.Helper()
	a, err := New(name, tk, Options{})
	require.NoError(t, err, name)
	e := newPlay(t, tk, name)
	a.Reset(tk.Seed)
	for !e.Over() {
		e.Step(a.Act(e.World(), e.Last()))
	}
	return e
}

// playSkills plays the skill-level task tk with agent name's decider.
func playSkills(t *testing.T, name string, tk *task.Task) *episode.Episode {
	t.Helper()
	src, err := Open(name, Options{})
	require.NoError(t, err, name)
	d, err := src.NewDecider(tk)
	require.NoError(t, err, name)
	e := newPlay(t, tk, name)
	d.Reset(tk.Seed)
	for !e.Over() {
		e.SkillText(d.Decide(e.World(), e.LastSkill()))
	}
	return e
}

// newPlay starts a recorded episode of tk on a fresh world.
func newPlay(t *testing.T, tk *task.Task, name string) *episode.Episode {
	t.Helper()
	w, err := tk.NewWorld()
	require.NoError(t, err)
	return episode.New(tk, w, episode.Options{Recorder: trace.NewRecorder(tk.Budget), Agent: name})
}

// writePlay writes one play: a line of figures, the first actions by
// name, and at the skill level the first decisions with their results.
func writePlay(b *strings.Builder, name, label string, tk *task.Task, e *episode.Episode) {
	tr := e.Trace()
	h := fnv.New64a()
	h.Write(tr.Actions)
	fmt.Fprintf(b, "%s %s: %d steps", name, label, e.Steps())
	if tk.Actions == task.ActionsSkills {
		fmt.Fprintf(b, ", %d decisions", e.Decisions())
	}
	fmt.Fprintf(b, ", end %s, success %t, actions %016x, final %016x\n", e.End(), e.Success(), h.Sum64(), tr.Final)
	rules := e.World().Rules()
	names := make([]string, 0, shownActions)
	for _, a := range tr.Actions[:min(len(tr.Actions), shownActions)] {
		names = append(names, rules.Actions[sim.Action(a)].Name)
	}
	fmt.Fprintf(b, "  actions: %s\n", strings.Join(names, " "))
	if tk.Actions != task.ActionsSkills {
		return
	}
	ds := make([]string, 0, shownDecisions)
	for _, d := range tr.Decisions[:min(len(tr.Decisions), shownDecisions)] {
		ds = append(ds, d.Skill+" → "+d.Result)
	}
	fmt.Fprintf(b, "  decisions: %s\n", strings.Join(ds, "; "))
}
