package serve

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/planner"
	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// clock is an injectable clock for idle expiry.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newTestServer starts s on an httptest server with a fake clock.
func newTestServer(t *testing.T, cfg Config) (*Server, *httptest.Server, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	if cfg.Now == nil {
		cfg.Now = c.Now
	}
	s := New(cfg)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts, c
}

// call sends body (nil: none; a string or []byte: as is; else as JSON) and
// returns the status and the body read.
func call(t *testing.T, ts *httptest.Server, method, path string, body any) (int, []byte, http.Header) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		require.NoError(t, err)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	require.NoError(t, err)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, out, resp.Header
}

// callJSON is call, decoding the answer into a T after checking the status.
func callJSON[T any](t *testing.T, ts *httptest.Server, method, path string, body any, status int) T {
	t.Helper()
	code, out, h := call(t, ts, method, path, body)
	require.Equal(t, status, code, "%s %s: %s", method, path, out)
	assert.Equal(t, "application/json", h.Get("Content-Type"))
	var v T
	require.NoError(t, json.Unmarshal(out, &v), "%s", out)
	return v
}

// wantError checks that the answer is status with a JSON error containing
// every one of substrings.
func wantError(t *testing.T, ts *httptest.Server, method, path string, body any, status int, substrings ...string) {
	t.Helper()
	e := callJSON[map[string]any](t, ts, method, path, body, status)
	msg, _ := e["error"].(string)
	require.NotEmpty(t, msg, "%v", e)
	for _, sub := range substrings {
		assert.Contains(t, msg, sub)
	}
}

func create(t *testing.T, ts *httptest.Server, body any) CreateResponse {
	t.Helper()
	return callJSON[CreateResponse](t, ts, "POST", "/v1/episodes", body, http.StatusCreated)
}

func step(t *testing.T, ts *httptest.Server, id, action string) StepResponse {
	t.Helper()
	return callJSON[StepResponse](t, ts, "POST", "/v1/episodes/"+id+"/step", StepRequest{Action: action}, http.StatusOK)
}

func TestHealthAndActions(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{MaxEpisodes: 5})
	h := callJSON[map[string]any](t, ts, "GET", "/v1/health", nil, http.StatusOK)
	assert.Equal(t, true, h["ok"])
	assert.NotEmpty(t, h["version"])
	assert.EqualValues(t, 5, h["max_episodes"])

	type actions struct {
		Ruleset string   `json:"ruleset"`
		Actions []string `json:"actions"`
	}
	a := callJSON[actions](t, ts, "GET", "/v1/actions", nil, http.StatusOK)
	assert.Equal(t, "classic", a.Ruleset)
	assert.Len(t, a.Actions, len(sim.Classic().Actions))
	assert.Equal(t, "noop", a.Actions[0])
	assert.Contains(t, a.Actions, "make_wood_pickaxe")
	x := callJSON[actions](t, ts, "GET", "/v1/actions?ruleset=extended", nil, http.StatusOK)
	assert.Greater(t, len(x.Actions), len(a.Actions))
	wantError(t, ts, "GET", "/v1/actions?ruleset=quantum", nil, http.StatusBadRequest, "quantum")
}

// replay is the local twin of a task episode: the same task, world and
// steps, computed without the server.
type replay struct {
	t    *task.Task
	w    *sim.World
	prog *task.Progress
}

func newReplay(t *testing.T, spec task.Spec) *replay {
	t.Helper()
	tk, err := task.Generate(spec, nil)
	require.NoError(t, err)
	w, err := tk.NewWorld()
	require.NoError(t, err)
	return &replay{t: tk, w: w, prog: task.NewProgress(tk.Goal, w)}
}

func TestTaskEpisodeToBudget(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	// Index 1: under classic v2 the fixed sequence below collects wood
	// there without dying (in index 0's world it now loses health instead).
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Train, Index: 1, Budget: 25, Feedback: task.FeedbackReason}
	local := newReplay(t, spec)
	c := create(t, ts, spec)
	assert.Regexp(t, `^[0-9a-f]{32}$`, c.ID)
	assert.Equal(t, local.t.Describe(), c.Info.Task)
	assert.Equal(t, local.t.Describe(), c.Observation.Task)
	assert.Equal(t, local.t.Goal.String(), c.Info.Goal)
	assert.Equal(t, spec.ID(), c.Info.TaskID)
	assert.Nil(t, c.Info.Seed, "a task's world seed stays hidden")
	assert.Equal(t, 25, c.Info.Budget)
	assert.Equal(t, "reason", c.Info.Feedback)
	assert.Equal(t, "partial", c.Info.Observability)
	assert.Equal(t, "observation", c.Observation.Type)
	assert.Equal(t, 0, c.Observation.Step)
	assert.Equal(t, 25, c.Observation.BudgetLeft)
	assert.Empty(t, c.Observation.LastOutcome)
	assert.Empty(t, c.Observation.Image)
	assert.Empty(t, c.Observation.Symbolic)
	assert.Equal(t, protocol.TextObservation(local.w, nil, task.FeedbackReason, task.Partial, task.LongcraftView, 25), c.Observation.Text)
	assert.Contains(t, c.Observation.Text, "Step 0 of 25.", "the step counts against the task's budget, not the ruleset's 10,000")

	// Mix moves, do and crafting attempts (which fail: outcomes with
	// reasons to filter).
	seq := []string{"move_left", "do", "make_wood_pickaxe", "move_up", "do", "place_table", "move_right", "do", "noop"}
	sum := 0.0
	var last StepResponse
	for i := 0; i < 25; i++ {
		name := seq[i%len(seq)]
		last = step(t, ts, c.ID, name)
		a, _ := local.w.Rules().ActionByName(name)
		out := local.w.Step(a)
		reached := local.prog.Update(local.w)
		require.False(t, reached || local.w.Dead(), "pick a sequence that neither dies nor reaches the goal in 25 steps")
		filtered := task.FeedbackReason.Filter(out)
		assert.Equal(t, text.Outcome(filtered, local.w.Rules()), last.Info.Outcome, "step %d", i+1)
		assert.Equal(t, last.Info.Outcome, last.Observation.LastOutcome)
		assert.Equal(t, protocol.TextObservation(local.w, &out, task.FeedbackReason, task.Partial, task.LongcraftView, 25), last.Observation.Text)
		assert.InDelta(t, out.Reward(), last.Reward, 1e-9)
		assert.Equal(t, i+1, last.Info.Steps)
		assert.Equal(t, 25-(i+1), last.Observation.BudgetLeft)
		assert.False(t, last.Terminated)
		assert.Equal(t, i == 24, last.Truncated, "step %d", i+1)
		assert.False(t, last.Info.Success)
		sum += last.Reward
	}
	assert.InDelta(t, sum, last.Info.Return, 1e-9)
	assert.Positive(t, sum, "the sequence collects wood: an achievement")
	wantError(t, ts, "POST", "/v1/episodes/"+c.ID+"/step", StepRequest{Action: "noop"}, http.StatusConflict, "over", "truncated")

	// The episode stays readable until deleted.
	g := callJSON[StepResponse](t, ts, "GET", "/v1/episodes/"+c.ID, nil, http.StatusOK)
	assert.Equal(t, c.ID, g.ID)
	assert.True(t, g.Truncated)
	assert.Equal(t, last.Observation.Text, g.Observation.Text)
	assert.Equal(t, last.Info, g.Info)
}

func TestTaskEpisodeToGoal(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	spec := task.Spec{Family: task.FamilyObtain, Tier: "easy", Split: task.Train, Index: 1}
	local := newReplay(t, spec)
	// The planner finds a way on a local copy; the server plays it.
	pl := planner.New(local.t.Goal)
	pl.Reset(local.t.Seed)
	var actions []string
	var last *sim.Outcome
	for !local.prog.Update(local.w) {
		require.Less(t, len(actions), local.t.Budget, "the planner should solve an easy task")
		require.False(t, local.w.Dead())
		a := pl.Act(local.w, last)
		out := local.w.Step(a)
		last = &out
		actions = append(actions, local.w.Rules().Actions[a].Name)
	}
	t.Logf("%s: the planner reaches it in %d steps", local.t.Goal.String(), len(actions))
	c := create(t, ts, spec)
	assert.Equal(t, local.t.Budget, c.Info.Budget)
	sum := 0.0
	var r StepResponse
	for i, a := range actions {
		r = step(t, ts, c.ID, a)
		sum += r.Reward
		if i < len(actions)-1 {
			require.False(t, r.Terminated || r.Truncated || r.Info.Success, "step %d", i+1)
		}
	}
	assert.True(t, r.Terminated, "the goal reached ends the episode")
	assert.False(t, r.Truncated)
	assert.True(t, r.Info.Success)
	assert.False(t, r.Info.Died)
	assert.Equal(t, len(actions), r.Info.Steps)
	assert.InDelta(t, sum, r.Info.Return, 1e-9)
	assert.Greater(t, sum, 1.0, "an obtain task unlocks achievements on the way")
	wantError(t, ts, "POST", "/v1/episodes/"+c.ID+"/step", StepRequest{Action: "noop"}, http.StatusConflict, "terminated")
}

func TestAchievementsTaskRunsToBudget(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	c := create(t, ts, map[string]any{"family": "achievements", "tier": "easy", "split": "eval", "index": 2, "budget": 5})
	var r StepResponse
	for i := 0; i < 5; i++ {
		r = step(t, ts, c.ID, "noop")
	}
	assert.False(t, r.Terminated)
	assert.True(t, r.Truncated)
	assert.False(t, r.Info.Success)
}

func TestPlainEpisode(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	c := create(t, ts, map[string]any{"seed": 7, "ruleset": "classic"})
	require.NotNil(t, c.Info.Seed)
	assert.EqualValues(t, 7, *c.Info.Seed)
	assert.Equal(t, "classic", c.Info.Ruleset)
	assert.Equal(t, int(sim.Classic().Vitals.EpisodeLength), c.Info.Budget)
	assert.Empty(t, c.Info.Goal)
	assert.Contains(t, c.Info.Task, "no goal")
	w, err := sim.New(sim.Config{})
	require.NoError(t, err)
	w.Reset(7)
	assert.Equal(t, text.Describe(w, nil), c.Observation.Text)
	for _, name := range []string{"move_down", "do", "noop"} {
		r := step(t, ts, c.ID, name)
		a, _ := w.Rules().ActionByName(name)
		out := w.Step(a)
		assert.Equal(t, text.Describe(w, &out), r.Observation.Text)
		assert.Equal(t, text.Outcome(out, w.Rules()), r.Info.Outcome)
		assert.False(t, r.Terminated || r.Truncated || r.Info.Success)
	}

	// A short budget on the extended rules, without a ruleset defaulting
	// to classic.
	x := create(t, ts, map[string]any{"seed": 3, "ruleset": "extended", "budget": 2, "observability": "full"})
	assert.Equal(t, "extended", x.Info.Ruleset)
	assert.Len(t, x.Observation.Actions, len(sim.Extended().Actions))
	assert.Contains(t, x.Observation.Text, "Map (you are @")
	step(t, ts, x.ID, "noop")
	r := step(t, ts, x.ID, "noop")
	assert.True(t, r.Truncated)
	assert.False(t, r.Terminated)
	d := create(t, ts, map[string]any{"seed": 3})
	assert.Equal(t, "classic", d.Info.Ruleset)
}

func decodePNG(t *testing.T, b []byte, size int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, size, img.Bounds().Dx())
	assert.Equal(t, size, img.Bounds().Dy())
}

func TestImageAndSymbolic(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	c := create(t, ts, map[string]any{"family": "collect", "tier": "easy", "split": "train", "index": 0, "image_size": 90, "symbolic": true})
	assert.Equal(t, 90, c.Info.ImageSize)
	check := func(o Observation) {
		t.Helper()
		require.NotEmpty(t, o.Image)
		b, err := base64.StdEncoding.DecodeString(o.Image)
		require.NoError(t, err)
		decodePNG(t, b, 90)
		require.Len(t, o.Symbolic, sim.ViewSize)
		for _, row := range o.Symbolic {
			require.Len(t, row, sim.ViewSize)
		}
		// The player stands at the centre.
		assert.Equal(t, int(sim.Classic().SemanticID(sim.ObjPlayer)), o.Symbolic[sim.ViewSize/2][sim.ViewSize/2])
	}
	check(c.Observation)
	check(step(t, ts, c.ID, "move_left").Observation)
	// The symbolic rows are JSON numbers, not base64 strings.
	_, raw, _ := call(t, ts, "GET", "/v1/episodes/"+c.ID, nil)
	assert.Regexp(t, `"symbolic":\[\[\d+,\d+`, string(raw))
}

func TestFrame(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	c := create(t, ts, map[string]any{"seed": 1})
	code, b, h := call(t, ts, "GET", "/v1/episodes/"+c.ID+"/frame.png?size=64", nil)
	require.Equal(t, http.StatusOK, code, "%s", b)
	assert.Equal(t, "image/png", h.Get("Content-Type"))
	decodePNG(t, b, 64)
	code, b, _ = call(t, ts, "GET", "/v1/episodes/"+c.ID+"/frame.png", nil)
	require.Equal(t, http.StatusOK, code)
	decodePNG(t, b, DefaultFrameSize)
	// Without ?size=, an episode with image_size renders at that size.
	ci := create(t, ts, map[string]any{"seed": 1, "image_size": 45})
	code, b, _ = call(t, ts, "GET", "/v1/episodes/"+ci.ID+"/frame.png", nil)
	require.Equal(t, http.StatusOK, code)
	decodePNG(t, b, 45)
	for _, q := range []string{"5", "abc", "100000", "-3"} {
		wantError(t, ts, "GET", "/v1/episodes/"+c.ID+"/frame.png?size="+q, nil, http.StatusBadRequest, "size")
	}
	wantError(t, ts, "GET", "/v1/episodes/feedface/frame.png", nil, http.StatusNotFound, "feedface")
}

func TestBadRequests(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	for _, c := range []struct {
		body string
		want string
	}{
		{`{"family": "obtain",`, "bad JSON"},
		{`[1, 2]`, "bad JSON"},
		{``, "empty"},
		{`{"family": "obtain", "tier": "easy", "split": "train"} {}`, "after the JSON object"},
		{`{"famliy": "obtain"}`, "unknown field"},
		{`{"family": "fishing", "tier": "easy", "split": "train"}`, "unknown family"},
		{`{"family": "obtain", "tier": "legendary", "split": "train"}`, "legendary"},
		{`{"family": "obtain", "tier": "easy", "split": "test"}`, "split"},
		{`{"family": "obtain", "tier": "easy", "split": "train", "feedback": "loud"}`, "feedback"},
		{`{"family": "obtain", "tier": "easy", "split": "train", "observability": "x"}`, "observability"},
		{`{"family": "obtain", "tier": "easy", "split": "train", "budget": -1}`, "budget"},
		{`{"family": "obtain", "tier": "easy", "split": "train", "index": -1}`, "bad JSON"},
		{`{"family": "obtain", "tier": "easy", "split": "train", "seed": 3}`, "not both"},
		{`{"seed": 3, "ruleset": "quantum"}`, "quantum"},
		{`{"seed": 3, "image_size": 5}`, "image_size"},
		{`{"seed": 3, "image_size": 100000}`, "image_size"},
		{`{}`, "give a task"},
	} {
		wantError(t, ts, "POST", "/v1/episodes", c.body, http.StatusBadRequest, c.want)
	}
	c := create(t, ts, map[string]any{"seed": 2})
	path := "/v1/episodes/" + c.ID + "/step"
	e := callJSON[map[string]any](t, ts, "POST", path, StepRequest{Action: "fly"}, http.StatusBadRequest)
	assert.Contains(t, e["error"], `unknown action "fly"`)
	assert.Contains(t, e["error"], "make_wood_pickaxe")
	assert.Len(t, e["actions"], len(sim.Classic().Actions))
	wantError(t, ts, "POST", path, `{"action": 3}`, http.StatusBadRequest, "bad JSON")
	wantError(t, ts, "POST", path, `not json`, http.StatusBadRequest, "bad JSON")
	wantError(t, ts, "POST", path, ``, http.StatusBadRequest, "empty")
	// The bad requests did not step the world.
	g := callJSON[StepResponse](t, ts, "GET", "/v1/episodes/"+c.ID, nil, http.StatusOK)
	assert.Equal(t, 0, g.Info.Steps)

	// Unknown ids, methods and routes.
	wantError(t, ts, "POST", "/v1/episodes/0123/step", StepRequest{Action: "noop"}, http.StatusNotFound, "0123")
	wantError(t, ts, "GET", "/v1/episodes/0123", nil, http.StatusNotFound, "not found")
	wantError(t, ts, "DELETE", "/v1/episodes/0123", nil, http.StatusNotFound, "not found")
	wantError(t, ts, "GET", "/v1/episodes", nil, http.StatusMethodNotAllowed, "POST")
	wantError(t, ts, "GET", path, nil, http.StatusMethodNotAllowed, "POST")
	wantError(t, ts, "PUT", "/v1/health", nil, http.StatusMethodNotAllowed, "GET")
	wantError(t, ts, "GET", "/v2/whatever", nil, http.StatusNotFound, "no route")
}

func TestBodyLimit(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{MaxBody: 1024})
	big := fmt.Sprintf(`{"family": "obtain", "tier": "easy", "split": "train", "index": 0, "feedback": %q}`, strings.Repeat("x", 2000))
	wantError(t, ts, "POST", "/v1/episodes", big, http.StatusRequestEntityTooLarge, "1024")
	// A small object followed by a long tail is over the limit too.
	wantError(t, ts, "POST", "/v1/episodes", `{"seed": 1}`+strings.Repeat(" ", 2000), http.StatusRequestEntityTooLarge, "over")
	c := create(t, ts, map[string]any{"seed": 1})
	wantError(t, ts, "POST", "/v1/episodes/"+c.ID+"/step", StepRequest{Action: strings.Repeat("do", 600)}, http.StatusRequestEntityTooLarge, "over 1024 bytes")
	step(t, ts, c.ID, "do")
}

func TestTooManyEpisodes(t *testing.T) {
	s, ts, _ := newTestServer(t, Config{MaxEpisodes: 2})
	a := create(t, ts, map[string]any{"seed": 1})
	create(t, ts, map[string]any{"seed": 2})
	code, b, h := call(t, ts, "POST", "/v1/episodes", map[string]any{"seed": 3})
	require.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, string(b), "too many open episodes (2)")
	assert.NotEmpty(t, h.Get("Retry-After"))
	assert.Equal(t, 2, s.Len())
	code, _, _ = call(t, ts, "DELETE", "/v1/episodes/"+a.ID, nil)
	require.Equal(t, http.StatusNoContent, code)
	create(t, ts, map[string]any{"seed": 3})
}

func TestIdleExpiry(t *testing.T) {
	s, ts, clk := newTestServer(t, Config{MaxEpisodes: 2, Idle: time.Minute})
	a := create(t, ts, map[string]any{"seed": 1})
	b := create(t, ts, map[string]any{"seed": 2})
	clk.Add(40 * time.Second)
	step(t, ts, a.ID, "noop") // a is used at 40 s
	clk.Add(40 * time.Second) // b idle 80 s, a 40 s
	wantError(t, ts, "GET", "/v1/episodes/"+b.ID, nil, http.StatusNotFound, "idle")
	step(t, ts, a.ID, "noop")
	assert.Equal(t, 1, s.Len())
	// Exactly the idle time is not over it.
	clk.Add(time.Minute)
	assert.Equal(t, 0, s.Sweep())
	clk.Add(time.Second)
	assert.Equal(t, 1, s.Sweep())
	assert.Equal(t, 0, s.Len())
	wantError(t, ts, "POST", "/v1/episodes/"+a.ID+"/step", StepRequest{Action: "noop"}, http.StatusNotFound)
	// Expired episodes free their places for new ones.
	create(t, ts, map[string]any{"seed": 3})
	create(t, ts, map[string]any{"seed": 4})
	clk.Add(2 * time.Minute)
	create(t, ts, map[string]any{"seed": 5})
	create(t, ts, map[string]any{"seed": 6})
	assert.Equal(t, 2, s.Len())
}

func TestDelete(t *testing.T) {
	s, ts, _ := newTestServer(t, Config{})
	c := create(t, ts, map[string]any{"seed": 1})
	code, b, _ := call(t, ts, "DELETE", "/v1/episodes/"+c.ID, nil)
	assert.Equal(t, http.StatusNoContent, code)
	assert.Empty(t, b)
	assert.Equal(t, 0, s.Len())
	wantError(t, ts, "DELETE", "/v1/episodes/"+c.ID, nil, http.StatusNotFound)
	wantError(t, ts, "GET", "/v1/episodes/"+c.ID, nil, http.StatusNotFound)
	wantError(t, ts, "POST", "/v1/episodes/"+c.ID+"/step", StepRequest{Action: "noop"}, http.StatusNotFound)
}

// TestConcurrent steps episodes in parallel, and one episode from several
// goroutines at once (for -race).
func TestConcurrent(t *testing.T) {
	s, ts, _ := newTestServer(t, Config{MaxEpisodes: 16})
	shared := create(t, ts, map[string]any{"seed": 9, "budget": 1000})
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := create(t, ts, map[string]any{"seed": g, "image_size": 18, "symbolic": true})
			for i := 0; i < 15; i++ {
				step(t, ts, c.ID, "move_left")
				step(t, ts, shared.ID, "do")
			}
			call(t, ts, "GET", "/v1/episodes/"+shared.ID+"/frame.png?size=27", nil)
			call(t, ts, "GET", "/v1/health", nil)
			s.Sweep()
			code, _, _ := call(t, ts, "DELETE", "/v1/episodes/"+c.ID, nil)
			assert.Equal(t, http.StatusNoContent, code)
		}()
	}
	wg.Wait()
	g := callJSON[StepResponse](t, ts, "GET", "/v1/episodes/"+shared.ID, nil, http.StatusOK)
	assert.Equal(t, 6*15, g.Info.Steps, "every step counted once")
	assert.Equal(t, 1, s.Len())
}

// TestPythonClient runs docs/serve_client.py against a test server.
func TestPythonClient(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: skipping the docs/serve_client.py test (make deps installs it)")
	}
	s, ts, _ := newTestServer(t, Config{})
	script := filepath.Join("..", "..", "docs", "serve_client.py")
	re := regexp.MustCompile(`return (-?\d+\.\d) after (\d+) steps \((terminated|truncated), success (true|false)\)`)
	for _, args := range [][]string{
		{"--family", "obtain", "--tier", "easy", "--index", "2", "--budget", "30", "--rng-seed", "1"},
		{"--seed", "5", "--budget", "20", "--rng-seed", "2"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, py, append([]string{script, ts.URL}, args...)...)
		out, err := cmd.CombinedOutput()
		cancel()
		require.NoError(t, err, "%s", out)
		m := re.FindStringSubmatch(string(out))
		require.NotNil(t, m, "%s", out)
		assert.Contains(t, string(out), " steps.\n", "the statement names the budget")
		if m[3] == "truncated" {
			assert.Contains(t, []string{"20", "30"}, m[2])
		}
		assert.Equal(t, 0, s.Len(), "the client deletes its episode")
	}
	// An error answer exits 1 with the server's message.
	cmd := exec.Command(py, script, ts.URL, "--family", "fishing")
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "HTTP 400: unknown family")
}

// TestFullObservabilityReachesEveryModality: under full observability an
// episode that asked for images and symbolic views gets the whole map in
// both, and the text says what the agent-view image covers.
func TestFullObservabilityReachesEveryModality(t *testing.T) {
	_, ts, _ := newTestServer(t, Config{})
	spec := task.Spec{Family: task.FamilyObtain, Tier: "medium", Split: task.Eval, Index: 2, Budget: 5, Observability: task.Full}
	c := create(t, ts, CreateRequest{Spec: spec, ImageSize: 64, Symbolic: true})
	o := c.Observation
	require.Len(t, o.SymbolicMap, 64, "the whole map's rows")
	require.Len(t, o.SymbolicMap[0], 64)
	assert.Len(t, o.Symbolic, 9, "the local view as well")
	b, err := base64.StdEncoding.DecodeString(o.MapImage)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, 256, img.Bounds().Dx(), "4 pixels a tile")
	assert.Contains(t, o.Text, "The image shows the 9×7 tiles around you")
	assert.Contains(t, o.Text, "Step 0 of 5.")

	// Partial observability: no map in any modality.
	spec.Observability = ""
	p := create(t, ts, CreateRequest{Spec: spec, ImageSize: 64, Symbolic: true})
	assert.Empty(t, p.Observation.SymbolicMap)
	assert.Empty(t, p.Observation.MapImage)
}

// TestCrossOriginPagesCannotDriveTheServer: a web page the user visits can
// send a cross-origin POST without a preflight only as text/plain, a form
// or multipart, and can aim a DNS name it controls at 127.0.0.1. The server
// refuses a POST that is not declared JSON (415) and a Host it does not
// answer to (421), and never sends a CORS header. Before, both went
// through.
func TestCrossOriginPagesCannotDriveTheServer(t *testing.T) {
	srv := New(Config{Hosts: []string{"localhost", "127.0.0.1", "::1"}})
	body := `{"family":"obtain","tier":"easy","split":"train","index":0}`
	send := func(method, host, contentType, origin string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "/v1/episodes", strings.NewReader(body))
		req.Host = host
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		rr := httptest.NewRecorder()
		srv.ServeHTTP(rr, req)
		for k := range rr.Header() {
			assert.NotContains(t, strings.ToLower(k), "access-control", "no CORS header, ever")
		}
		return rr
	}
	assert.Equal(t, http.StatusCreated, send("POST", "127.0.0.1:8642", "application/json", "").Code)
	assert.Equal(t, http.StatusCreated, send("POST", "localhost:8642", "application/json; charset=utf-8", "").Code)
	assert.Equal(t, http.StatusCreated, send("POST", "[::1]:8642", "application/json", "").Code)
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
		rr := send("POST", "127.0.0.1:8642", ct, "https://evil.example")
		assert.Equal(t, http.StatusUnsupportedMediaType, rr.Code, ct)
	}
	rr := send("POST", "evil.example:8642", "application/json", "https://evil.example")
	assert.Equal(t, http.StatusMisdirectedRequest, rr.Code, "a rebound name")
	assert.Contains(t, rr.Body.String(), "--allow-host evil.example")
	assert.Equal(t, http.StatusMisdirectedRequest, send("GET", "evil.example", "", "").Code)
	pre := send("OPTIONS", "127.0.0.1:8642", "", "https://evil.example")
	assert.Equal(t, http.StatusMethodNotAllowed, pre.Code, "a preflight gets no allowance")
	// Without Hosts (a library user's own mux), any Host is served.
	plain := New(Config{})
	req := httptest.NewRequest("GET", "/v1/health", nil)
	req.Host = "anything.example"
	rr = httptest.NewRecorder()
	plain.ServeHTTP(rr, req)
	assert.Equal(t, http.StatusOK, rr.Code)
}
