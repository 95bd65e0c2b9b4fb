package suite

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
)

func TestEmbeddedSuites(t *testing.T) {
	assert.Equal(t, []string{"balrog-crafter", "crafter", "default", "explorer-chain", "multigoal-grid", "standard"}, Embedded())
	d, err := Load("default")
	require.NoError(t, err)
	assert.Equal(t, uint64(36), d.Len())
	specs := d.Expand()
	require.Len(t, specs, 36)
	ids := map[string]bool{}
	for _, s := range specs {
		assert.Equal(t, task.Eval, s.Split)
		ids[s.ID()] = true
	}
	assert.Len(t, ids, 36, "ids are unique")
	again, err := Load("default")
	require.NoError(t, err)
	assert.Equal(t, specs, again.Expand(), "expansion is deterministic")
	// Pinned: the first episode's id must not change between versions.
	assert.Equal(t, task.Spec{Family: "achievements", Tier: "easy", Split: task.Eval, Index: 0}, specs[0])
	assert.Equal(t, specs[0].ID(), task.Spec{Family: "achievements", Tier: "easy", Split: task.Eval}.ID())
	st, err := Load("standard")
	require.NoError(t, err)
	assert.Equal(t, uint64(700), st.Len())
	// Crafter's protocols give Crafter's local view; the others Longcraft's.
	for _, name := range Embedded() {
		s, err := Load(name)
		require.NoError(t, err)
		want := task.LongcraftView
		if name == "crafter" || name == "balrog-crafter" {
			want = task.CrafterView
		}
		for _, sp := range s.Expand() {
			got := task.LongcraftView
			if sp.Scenario != nil {
				got = sp.Scenario.View
			}
			require.Equal(t, want, got, "%s: %s", name, sp.Family)
		}
	}
}

func TestLoadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`
name: mine
episodes:
  - families: [obtain]
    tiers: [hard]
    split: train
    seeds: {from: 10, count: 2}
    budget: 500
    feedback: none
    observability: full
`), 0o644))
	s, err := Load(path)
	require.NoError(t, err)
	specs := s.Expand()
	require.Len(t, specs, 2)
	assert.Equal(t, task.Spec{Family: "obtain", Tier: "hard", Split: task.Train, Index: 11, Budget: 500,
		Feedback: task.FeedbackNone, Observability: task.Full}, specs[1])
	_, err = Load(filepath.Join(t.TempDir(), "missing.yaml"))
	assert.ErrorContains(t, err, "not an embedded suite")
}

// Errors name the file, the line and the field.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"", "x.yaml: empty suite"},
		{"[1, 2]", "x.yaml:1: a suite is a mapping"},
		{"name: a\nepisodes: []\n", "x.yaml:2: field episodes: want a non-empty list"},
		{"name: a\nepisodes:\n  - families: [obtain]\n    tiers: [legendary]\n", `x.yaml:4: field tiers: "legendary": want one of`},
		{"name: a\nepisodes:\n  - families: [fly]\n    tiers: [easy]\n", `x.yaml:3: field families: "fly"`},
		{"name: a\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    split: test\n", `x.yaml:5: field split: "test": want train or eval`},
		{"name: a\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    seeds: {from: 0, count: 0}\n", "x.yaml:5: field seeds.count: 0"},
		{"name: a\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    budget: -3\n", "x.yaml:5: field budget: -3"},
		{"name: a\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    colour: red\n", "x.yaml:5: field colour: unknown field"},
		{"name: a\nepisodes:\n  - tiers: [easy]\n", "x.yaml:3: field families: missing"},
		{"episodes:\n  - families: [obtain]\n    tiers: [easy]\n", "x.yaml:1: field name: missing"},
		{"name: a\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    seeds: {from: 0, count: 999999}\n  - families: [obtain]\n    tiers: [easy]\n    seeds: {from: 0, count: 999999}\n", "at most 1000000"},
		{"name: [a\n", "x.yaml: yaml:"},
		{"name: a\nscenarios:\n  - name: x\n    grid: 5\n    goal: {reach: [4, 4]}\n    budget: 9\n    view: wide\n", `x.yaml:7: field view: "wide": want crafter`},
	} {
		_, err := Parse("x.yaml", []byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want, c.yaml)
	}
}

// FuzzParse: no input makes the parser panic or expand beyond its bound.
func FuzzParse(f *testing.F) {
	d, _ := embedded.ReadFile("suites/default.yaml")
	f.Add(d)
	f.Add([]byte("name: a\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n"))
	f.Add([]byte("&a [*a, *a]"))
	for _, name := range []string{"multigoal-grid", "explorer-chain"} {
		d, _ := embedded.ReadFile("suites/" + name + ".yaml")
		f.Add(d)
	}
	f.Add([]byte("name: s\nscenarios:\n  - name: x\n    map: |\n      @.T\n      ...\n      .~.\n    goal: {sequence: [{obtain: wood}, {reach: [2, 2]}]}\n    budget: 9\n    map_file: /dev/zero\n"))
	f.Add([]byte("name: s\nscenarios:\n  - name: x\n    grid: 5\n    vary: [waypoints, start]\n    goal: {waypoints: [[4, 0], [0, 4]]}\n    budget: 40\n  - name: y\n    grid: 4\n    fixed: true\n    goal: {reach: [3, 3]}\n    budget: 9\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		require.LessOrEqual(t, s.Len(), uint64(maxEpisodes))
		for _, sp := range s.Expand() {
			if sp.Scenario != nil {
				require.NoError(t, sp.Scenario.Check(), "a parsed scenario is a valid one")
			}
		}
	})
}
