package suite

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSettableKeysAreFields: every key --set takes is a field of the
// typed block it applies to (set.go decodes into it by its yaml tag).
func TestSettableKeysAreFields(t *testing.T) {
	for typ, keys := range map[reflect.Type][]string{
		reflect.TypeFor[blockYAML]():    blockKeys,
		reflect.TypeFor[scenarioYAML](): scenarioKeys,
	} {
		for _, k := range keys {
			if k == "tour" {
				k = "goal" // a tour is a goal
			}
			key, sub, nested := strings.Cut(k, ".")
			f, ok := fieldNamed(typ, key)
			require.True(t, ok, "%s: %s", typ, k)
			if nested {
				_, ok := fieldNamed(f.Type.Elem(), sub)
				assert.True(t, ok, "%s: %s", typ, k)
			}
		}
	}
	for _, k := range settable {
		assert.True(t, slicesContain(blockKeys, k) || slicesContain(scenarioKeys, k), k)
	}
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestSetAppliesToTheFileAsWritten: overrides apply to the file once it
// is decoded, so the file is refused as it would be without them (a
// --set does not rescue a malformed field, and a params the file writes
// is refused whatever is set); an override's value is refused naming the
// --set, and where validation refuses it, the line of the block it was
// set on.
func TestSetAppliesToTheFileAsWritten(t *testing.T) {
	dir := t.TempDir()
	write := func(name, yaml string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(yaml), 0o644))
		return path
	}
	block := "name: s\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n"
	grid := "name: s\nscenarios:\n  - name: x\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n"
	for _, c := range []struct{ file, set, want string }{
		{write("seeds.yaml", block+"    seeds: 5\n"), "seeds.count=2", "seeds.yaml:5: field seeds: want {from: N, count: M}"},
		{write("budget.yaml", block+"    budget: abc\n"), "budget=5", "budget.yaml:5: field budget: yaml: unmarshal errors"},
		{write("goal.yaml", strings.Replace(grid, "{reach: [2, 2]}", "{fly: 1}", 1)), "tour=2", "goal.yaml:5: field goal.fly: unknown goal"},
		{write("params.yaml", grid+"    params: [grid=99]\n"), "budget=60", "params.yaml:7: field params: unknown field"},
		{write("plain.yaml", block), "budget=abc", "--set budget=abc: field budget: yaml: unmarshal errors"},
		{write("plain.yaml", block), "seeds.count=[2]", "--set seeds.count=[2]: field seeds.count: want a single value"},
		{write("plain.yaml", block), "budget=0", "plain.yaml with --set budget=0:3: field budget: 0: want 1 to 1,000,000 steps"},
		{write("grid.yaml", grid), "tour=x", "--set tour=x: field goal.waypoints.tour: yaml: unmarshal errors"},
		{write("grid.yaml", grid), "tour=9", "grid.yaml with --set tour=9:3: field goal.waypoints.tour: 9: the tour of a 6×6 map has 1 to 8 waypoints"},
	} {
		set, err := ParseSet(c.set)
		require.NoError(t, err)
		_, err = LoadWith(c.file, []Set{set})
		require.Error(t, err, "%s --set %s", c.file, c.set)
		assert.Contains(t, err.Error(), c.want, c.set)
	}
	// Without them the same overrides apply.
	s, err := LoadWith(write("grid.yaml", grid), []Set{{Key: "tour", Value: "3"}, {Key: "grid", Value: "9"}})
	require.NoError(t, err)
	assert.Equal(t, "x grid=9 tour=3", s.Scenarios[0].Scenario.Label())
	assert.Len(t, s.Scenarios[0].Scenario.Goal.Goals, 3)
	assert.Equal(t, 9, s.Scenarios[0].Scenario.Side())
}

// TestLoadReadsOnce: Load, LoadWith and LoadSweep of one suite make the
// specs Parse makes of its bytes.
func TestLoadReadsOnce(t *testing.T) {
	for _, name := range Embedded() {
		data, err := embedded.ReadFile("suites/" + name + ".yaml")
		require.NoError(t, err)
		loaded, err := Load(name)
		require.NoError(t, err)
		with, err := LoadWith(name, nil)
		require.NoError(t, err)
		swept, err := LoadSweep(name, nil, nil)
		require.NoError(t, err)
		assert.Equal(t, loaded.Expand(), with.Expand(), name)
		assert.Equal(t, loaded.Expand(), swept.Expand(), name)
		if strings.Contains(string(data), "map_file") {
			continue // Parse reads its map files beside the name it is given
		}
		parsed, err := Parse("suite "+name, data)
		require.NoError(t, err)
		assert.Equal(t, loaded.Expand(), parsed.Expand(), name)
	}
}

// FuzzSet: no override of an embedded suite makes loading panic, and
// what loads is bounded and valid. Seed corpus: testdata/fuzz/FuzzSet.
func FuzzSet(f *testing.F) {
	for _, c := range [][2]string{
		{"default", "budget=50"}, {"default", "families=obtain,collect"}, {"default", "tiers=[easy]"}, {"default", "seeds.count=3"},
		{"multigoal-grid", "grid=0x8"}, {"multigoal-grid", "tour=2"}, {"multigoal-grid", "grid:size=32"}, {"explorer-chain", "compass-8:decisions=12"},
		{"explorer-chain", "actions=primitive"}, {"default", "feedback={a: b}"}, {"default", "budget="}, {"multigoal-grid", "tour=[1]"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, name, kv string) {
		if !IsEmbedded(name) {
			return
		}
		set, err := ParseSet(kv)
		if err != nil {
			return
		}
		s, err := LoadWith(name, []Set{set})
		if err != nil {
			return
		}
		require.LessOrEqual(t, s.Len(), uint64(maxEpisodes))
		for _, sc := range s.Scenarios {
			require.NoError(t, sc.Scenario.Check(), "an overridden scenario is a valid one")
		}
	})
}
