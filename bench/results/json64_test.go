package results

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/internal/json64"
	"github.com/longcraft/longcraft/sim"
)

// TestResultLinesKeep64BitSeeds: a results line holds its seed and its
// spec's index as strings, which float64 decoders (jq, JavaScript) read
// exactly, and the older numeric form still reads.
func TestResultLinesKeep64BitSeeds(t *testing.T) {
	build := buildinfo.Build{Version: "v1.0.0", Revision: "abc"}
	r := Result{Index: 0, ID: "ep-x", Spec: task.Spec{Family: "obtain", Tier: "easy", Split: task.Eval, Index: 18221634021153779795},
		Seed: 18221634021153779795, Build: build}
	path := filepath.Join(t.TempDir(), ResultsFile)
	require.NoError(t, WriteSorted(path, []Result{r}))
	data, err := json.Marshal(r)
	require.NoError(t, err)
	inexact, err := json64.Inexact(data)
	require.NoError(t, err)
	assert.Empty(t, inexact)
	var generic map[string]any
	require.NoError(t, json.Unmarshal(data, &generic))
	assert.Equal(t, "18221634021153779795", generic["seed"])
	assert.Equal(t, "18221634021153779795", generic["spec"].(map[string]any)["index"])
	assert.Equal(t, map[string]any{"version": "v1.0.0", "revision": "abc"}, generic["build"])

	back, err := Read(path)
	require.NoError(t, err)
	require.Len(t, back, 1)
	assert.Equal(t, r.Seed, back[0].Seed)
	assert.Equal(t, r.Spec, back[0].Spec)
	assert.Equal(t, build, back[0].Build)

	// As Longcraft wrote lines before: bare numbers, no build.
	var old Result
	require.NoError(t, json.Unmarshal([]byte(`{"index":3,"id":"ep-x","spec":{"family":"obtain","tier":"easy","split":"eval","index":18221634021153779795},"seed":18221634021153779795,"end":"budget","steps":4}`), &old))
	assert.Equal(t, uint64(18221634021153779795), old.Seed)
	assert.Equal(t, uint64(18221634021153779795), old.Spec.Index)
	assert.Equal(t, 3, old.Index)
	assert.Equal(t, 4, old.Steps, "the embedded metrics read too")
	assert.True(t, old.Build.IsZero())
	assert.Error(t, json.Unmarshal([]byte(`{"seed":1.5}`), &old))
	assert.Error(t, json.Unmarshal([]byte(`{"seed":"x"}`), &old))
}

// TestSummaryListsTheBuilds: the summary names each build its lines name,
// once, in an order that does not depend on the lines'.
func TestSummaryListsTheBuilds(t *testing.T) {
	a := buildinfo.Build{Version: "v1", Revision: "a"}
	b := buildinfo.Build{Version: "v2", Revision: "b", Modified: true}
	rs := []Result{{Index: 0, Build: b}, {Index: 1, Build: a}, {Index: 2}, {Index: 3, Build: b}}
	assert.Equal(t, []buildinfo.Build{a, b}, Summarize("s", "x", rs).Builds)
	assert.Equal(t, []buildinfo.Build{a, b}, Builds([]Result{rs[1], rs[0]}))
	assert.Nil(t, Builds([]Result{{}}), "lines from before builds were recorded name none")
}

// TestAchievementSetsStayExact: results hold achievements as a bit set
// in a JSON number, exact for float64 readers only while no ruleset has
// more than 53 achievements.
func TestAchievementSetsStayExact(t *testing.T) {
	for _, name := range []string{"classic", "extended"} {
		rules, err := sim.RulesByName(name)
		require.NoError(t, err)
		assert.LessOrEqual(t, len(rules.Achievements), 53, "%s: a bit set of its achievements needs integers a float64 rounds: write it as a string (internal/json64)", name)
	}
}
