package serve

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/json64"
)

// bigSeed is a seed that float64 JSON decoders (JSON.parse, jq) round to
// 18221634021153780000.
const bigSeed = "18221634021153779795"

// TestResponsesKeep64BitSeeds reads the server's answers as JavaScript
// does (a float64 decoder): a plain world's seed comes back exact, as a
// string, and no answer holds an integer a float64 rounds. Requests may
// give the seed and the index as strings (what a JavaScript client must
// send) or as numbers.
func TestResponsesKeep64BitSeeds(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	asJS := func(raw []byte) map[string]any {
		t.Helper()
		inexact, err := json64.Inexact(raw)
		require.NoError(t, err)
		assert.Empty(t, inexact, "%s", raw)
		var v map[string]any
		require.NoError(t, json.Unmarshal(raw, &v), "%s", raw)
		return v
	}
	var ids []string
	for _, body := range []string{`{"seed": "` + bigSeed + `", "budget": 3}`, `{"seed": ` + bigSeed + `, "budget": 3}`} {
		code, raw, _ := call(t, ts, "POST", "/v1/episodes", body)
		require.Equal(t, http.StatusCreated, code, "%s", raw)
		created := asJS(raw)
		assert.Equal(t, bigSeed, created["info"].(map[string]any)["seed"], body)
		id := created["id"].(string)
		ids = append(ids, id)
		code, raw, _ = call(t, ts, "POST", "/v1/episodes/"+id+"/step", `{"action": "noop"}`)
		require.Equal(t, http.StatusOK, code, "%s", raw)
		asJS(raw)
		code, raw, _ = call(t, ts, "GET", "/v1/episodes/"+id, nil)
		require.Equal(t, http.StatusOK, code, "%s", raw)
		asJS(raw)
	}
	// Both forms play the same world.
	a := callJSON[StepResponse](t, ts, "GET", "/v1/episodes/"+ids[0], nil, http.StatusOK)
	b := callJSON[StepResponse](t, ts, "GET", "/v1/episodes/"+ids[1], nil, http.StatusOK)
	assert.Equal(t, a.Observation.Text, b.Observation.Text)

	// A task's index as a string or a number names one task.
	var taskIDs []string
	for _, index := range []string{`"` + bigSeed + `"`, bigSeed} {
		code, raw, _ := call(t, ts, "POST", "/v1/episodes", `{"family": "obtain", "tier": "easy", "split": "eval", "index": `+index+`, "budget": 5}`)
		require.Equal(t, http.StatusCreated, code, "%s", raw)
		taskIDs = append(taskIDs, asJS(raw)["info"].(map[string]any)["task_id"].(string))
	}
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Eval, Index: 18221634021153779795, Budget: 5}
	assert.Equal(t, []string{spec.ID(), spec.ID()}, taskIDs)

	_, raw, _ := call(t, ts, "GET", "/v1/health", nil)
	health := asJS(raw)
	assert.NotEmpty(t, health["build"].(map[string]any)["version"], "the health answer names the build")

	// A Go client's request goes out with the strings, and back.
	seed := uint64(18221634021153779795)
	out, err := json.Marshal(CreateRequest{Spec: spec, Seed: &seed, ImageSize: 64})
	require.NoError(t, err)
	inexact, err := json64.Inexact(out)
	require.NoError(t, err)
	assert.Empty(t, inexact, "%s", out)
	var back CreateRequest
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, CreateRequest{Spec: spec, Seed: &seed, ImageSize: 64}, back)
	assert.ErrorContains(t, json.Unmarshal([]byte(`{"famliy": "obtain"}`), &back), "unknown field")
}
