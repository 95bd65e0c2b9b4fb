package serve

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/suite"
)

// TestRequestBombs: requests whose fields are out of bounds are refused
// with 400 and a message naming the field and its bounds, before anything
// is allocated for them; the server then serves another session. Before,
// one POST with budget 3·10¹⁰ made the server allocate 60 GB (killed, out
// of memory, every session lost) and 2⁶³−1 panicked the handler.
func TestRequestBombs(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	live := create(t, ts, map[string]any{"family": "obtain", "tier": "easy", "split": "train", "index": 1})
	task := `"family": "obtain", "tier": "easy", "split": "train"`
	for _, c := range []struct{ body, want string }{
		{`{` + task + `, "budget": 30000000000}`, "budget 30000000000: 1 to 1000000 steps"},
		{fmt.Sprintf(`{%s, "budget": %d}`, task, math.MaxInt64), "budget 9223372036854775807"},
		{fmt.Sprintf(`{"seed": 1, "budget": %d}`, math.MaxInt64), "budget"},
		{`{"seed": 1, "budget": 1000001}`, "budget 1000001"},
		{`{` + task + `, "budget": -5}`, "budget -5"},
		{`{` + task + `, "budget": 1e30}`, "bad JSON"},
		{`{"seed": 1, "image_size": 2147483647}`, "image_size"},
		{`{"family": "` + strings.Repeat("x", 10000) + `", "tier": "easy", "split": "train"}`, "family: 10000 bytes, at most 64"},
		{`{"seed": 1, "ruleset": "` + strings.Repeat("é", 100) + `"}`, "ruleset: 200 bytes"},
		{`{` + task + `, "scenario": {"name": "big", "size": 1000000000, "goal": {"kind": "collect"}}}`, "scenario: not served"},
	} {
		wantError(t, ts, "POST", "/v1/episodes", c.body, http.StatusBadRequest, c.want)
	}
	wantError(t, ts, "POST", "/v1/episodes/"+live.ID+"/step", `{"action": "`+strings.Repeat("a", 1000)+`"}`, http.StatusBadRequest, "action: 1000 bytes")

	// The bounds hold what they say: the largest budget is served.
	big := create(t, ts, map[string]any{"seed": 5, "budget": MaxBudget})
	assert.Equal(t, MaxBudget, big.Info.Budget)
	// And the server still serves: the session open before the bombs
	// steps, and a new one starts.
	assert.Equal(t, 1, step(t, ts, live.ID, "noop").Info.Steps)
	fresh := create(t, ts, map[string]any{"family": "collect", "tier": "easy", "split": "train", "index": 2})
	assert.Equal(t, 1, step(t, ts, fresh.ID, "noop").Info.Steps)
}

// TestMaxBudgetIsTheSuites: the server's largest budget is the largest a
// suite accepts.
func TestMaxBudgetIsTheSuites(t *testing.T) {
	dir := t.TempDir()
	for budget, ok := range map[int]bool{MaxBudget: true, MaxBudget + 1: false} {
		file := filepath.Join(dir, fmt.Sprintf("b%d.yaml", budget))
		require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf("name: b\nepisodes:\n  - families: [obtain]\n    tiers: [easy]\n    split: eval\n    seeds: {from: 0, count: 1}\n    budget: %d\n", budget)), 0o644))
		_, err := suite.Load(file)
		assert.Equal(t, ok, err == nil, "budget %d: %v", budget, err)
	}
}

// FuzzDecodeRequests feeds any body to the two routes that decode one
// (create, step). Every answer is a documented status with a JSON error
// or a valid episode within the bounds; nothing panics. Seed corpus:
// testdata/fuzz/FuzzDecodeRequests.
func FuzzDecodeRequests(f *testing.F) {
	for _, seed := range []string{
		`{"family": "obtain", "tier": "easy", "split": "train", "index": 0}`,
		`{"seed": 7, "ruleset": "classic", "budget": 20, "image_size": 16, "symbolic": true}`,
		`{"family": "collect", "tier": "hard", "split": "eval", "index": 3, "budget": 1000000, "feedback": "none", "observability": "full"}`,
		`{"seed": 1, "budget": 30000000000}`,
		`{"action": "noop"}`,
		`{"famliy": 1}`, `[]`, ``, `{"seed": -1}`,
	} {
		f.Add([]byte(seed))
	}
	s := New(Config{MaxEpisodes: 4})
	post := func(path string, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		w := post("/v1/episodes", body)
		switch w.Code {
		case http.StatusCreated:
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable:
			var e map[string]string
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e), "%s", w.Body)
			require.NotEmpty(t, e["error"])
			require.LessOrEqual(t, len(e["error"]), 1024, "an error does not echo a whole body")
			return
		default:
			t.Fatalf("POST /v1/episodes %q: status %d: %s", body, w.Code, w.Body)
		}
		var c CreateResponse
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &c))
		require.True(t, c.Info.Budget >= 1 && c.Info.Budget <= MaxBudget, "budget %d", c.Info.Budget)
		defer func() {
			req := httptest.NewRequest(http.MethodDelete, "/v1/episodes/"+c.ID, nil)
			s.ServeHTTP(httptest.NewRecorder(), req)
		}()
		w = post("/v1/episodes/"+c.ID+"/step", body) // the same bytes as a step
		require.Contains(t, []int{http.StatusOK, http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge}, w.Code, "%s", w.Body)
	})
}
