package suite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
)

// TestScenarioVaryParses: vary lists what the seed changes, in one order
// however written (one scenario, one id); fixed declares one world; the
// errors name the line and field.
func TestScenarioVaryParses(t *testing.T) {
	head := "name: s\nscenarios:\n  - name: x\n    grid: 6\n    goal: {reach: [5, 5]}\n    budget: 50\n"
	a, err := Parse("a.yaml", []byte(head+"    vary: [start, symmetry]\n"))
	require.NoError(t, err)
	b, err := Parse("b.yaml", []byte(head+"    vary: [symmetry, start]\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{task.VarySymmetry, task.VaryStart}, a.Expand()[0].Scenario.Vary)
	assert.Equal(t, a.Expand()[0].ID(), b.Expand()[0].ID())
	f, err := Parse("f.yaml", []byte(head+"    fixed: true\n"))
	require.NoError(t, err)
	assert.True(t, f.Expand()[0].Scenario.Fixed)
	for text, want := range map[string]string{
		head + "    vary: [diagonal]\n":               "a.yaml:7: field vary: \"diagonal\"",
		head + "    vary: start\n":                    "a.yaml:7: field vary: want a list",
		head + "    vary: [start, start]\n":           "start given twice",
		head + "    vary: [start]\n    fixed: true\n": "not one fixed map",
	} {
		_, err := Parse("a.yaml", []byte(text))
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
}

// TestEmbeddedScenariosVary: every embedded scenario on a hand-written map
// varies with its seed or says it is fixed.
func TestEmbeddedScenariosVary(t *testing.T) {
	for _, name := range Embedded() {
		s, err := Load(name)
		require.NoError(t, err)
		for _, sp := range s.Expand() {
			if sc := sp.Scenario; sc != nil {
				assert.True(t, sc.Varies() || sc.Fixed, "%s: scenario %s is one map on every seed and does not say so", name, sc.Name)
			}
		}
	}
}
