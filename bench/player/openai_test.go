package player

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/protocol"
)

const openAITestKey = "sk-test-SECRET-0123456789"

// fakeOpenAI is a chat-completions server whose answers a test scripts.
type fakeOpenAI struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []fakeOpenAIRequest
	respond func(n int, w http.ResponseWriter, r *http.Request) // n counts requests from 0
}

type fakeOpenAIRequest struct {
	Path   string
	Auth   string
	Header http.Header
	Body   map[string]any
}

func newFakeOpenAI(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *fakeOpenAI {
	t.Helper()
	f := &fakeOpenAI{respond: respond}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		f.mu.Lock()
		n := len(f.reqs)
		f.reqs = append(f.reqs, fakeOpenAIRequest{r.URL.Path, r.Header.Get("Authorization"), r.Header.Clone(), body})
		f.mu.Unlock()
		f.respond(n, w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeOpenAI) requests() []fakeOpenAIRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeOpenAIRequest(nil), f.reqs...)
}

// answer writes a successful completion.
func answer(w http.ResponseWriter, content string, prompt, completion int) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id":      "chatcmpl-1",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}}},
		"usage":   map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
}

// sleeps records the backoffs the player asked for, without waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func newTestOpenAI(t *testing.T, url string, edit func(*OpenAIOptions)) (*OpenAI, *sleeps) {
	t.Helper()
	s := &sleeps{}
	o := OpenAIOptions{BaseURL: url + "/v1", Model: "test-model", APIKey: openAITestKey, Temperature: 0.2, Sleep: s.sleep, Seed: 7, Retries: 5} // the CLI's default
	if edit != nil {
		edit(&o)
	}
	p, err := NewOpenAI(o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	require.NoError(t, p.Reset(context.Background(), "obtain 1 wood_pickaxe"))
	return p, s
}

func testObs(step int) *protocol.Observation {
	return &protocol.Observation{
		Type:       "observation",
		Task:       "obtain 1 wood_pickaxe",
		Text:       fmt.Sprintf("You see grass and a tree to the west. (step %d)", step),
		Step:       step,
		BudgetLeft: 100 - step,
		Actions:    []string{"noop", "move_left", "do", "make_wood_pickaxe"},
	}
}

// messages returns a request's messages.
func messages(t *testing.T, r fakeOpenAIRequest) []map[string]any {
	t.Helper()
	raw, ok := r.Body["messages"].([]any)
	require.True(t, ok, "messages: %v", r.Body["messages"])
	out := make([]map[string]any, len(raw))
	for i, m := range raw {
		out[i] = m.(map[string]any)
	}
	return out
}

func TestOpenAIAnswers(t *testing.T) {
	reply := `{"action": "move_left", "reason": "the tree is west"}`
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) { answer(w, reply, 321, 17) })
	p, s := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.MaxTokens = 256 })

	obs := testObs(3)
	obs.Image = "iVBORw0KGgoAAAANSUhEUg=="
	obs.Symbolic = [][]int{{1, 2, 3}, {4, 13, 6}, {7, 8, 9}}
	obs.LastOutcome = "moved"
	raw, u, err := p.Act(context.Background(), obs)
	require.NoError(t, err)
	assert.Equal(t, reply, raw)
	assert.Equal(t, 1, u.Calls)
	assert.Equal(t, 321, u.PromptTokens)
	assert.Equal(t, 17, u.CompletionTokens)
	assert.Equal(t, 0, u.Retries)
	assert.GreaterOrEqual(t, u.LatencyMs, 0)
	assert.Empty(t, s.got())

	reqs := f.requests()
	require.Len(t, reqs, 1)
	r := reqs[0]
	assert.Equal(t, "/v1/chat/completions", r.Path)
	assert.Equal(t, "Bearer "+openAITestKey, r.Auth)
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.Equal(t, "test-model", r.Body["model"])
	assert.InDelta(t, 0.2, r.Body["temperature"], 1e-9)
	assert.EqualValues(t, 256, r.Body["max_tokens"])

	msgs := messages(t, r)
	require.Len(t, msgs, 2)
	assert.Equal(t, "system", msgs[0]["role"])
	sys := msgs[0]["content"].(string)
	for _, want := range []string{"Crafter", "obtain 1 wood_pickaxe", "- noop\n- move_left\n- do\n- make_wood_pickaxe", `"action"`, `"belief"`, `"expect"`, "collected"} {
		assert.Contains(t, sys, want)
	}
	assert.Equal(t, "user", msgs[1]["role"])
	parts, ok := msgs[1]["content"].([]any)
	require.True(t, ok, "an image makes the content an array of parts")
	require.Len(t, parts, 2)
	text := parts[0].(map[string]any)
	assert.Equal(t, "text", text["type"])
	for _, want := range []string{"Step 3", "budget left 97", "Last outcome: moved", "tree to the west", " 4 13  6"} {
		assert.Contains(t, text["text"], want)
	}
	img := parts[1].(map[string]any)
	assert.Equal(t, "image_url", img["type"])
	assert.Equal(t, "data:image/png;base64,"+obs.Image, img["image_url"].(map[string]any)["url"])
}

func TestOpenAITextOnlyNoKey(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) { answer(w, `{"action":"do"}`, 10, 2) })
	p, _ := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.APIKey = "" })
	obs := testObs(0)
	obs.Task = "" // the task given to Reset is used
	obs.Invalid = "unknown action \"fly\""
	_, _, err := p.Act(context.Background(), obs)
	require.NoError(t, err)
	r := f.requests()[0]
	assert.Empty(t, r.Auth)
	_, has := r.Body["max_tokens"]
	assert.False(t, has, "max_tokens omitted when 0")
	msgs := messages(t, r)
	assert.Contains(t, msgs[0]["content"], "obtain 1 wood_pickaxe")
	user, ok := msgs[1]["content"].(string)
	require.True(t, ok, "no image: the content is a string")
	assert.Contains(t, user, "previous reply was invalid")
	assert.Contains(t, user, `unknown action "fly"`)
}

func TestOpenAIGarbageIsRaw(t *testing.T) {
	garbage := "I would rather not play. }{ ```"
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) { answer(w, garbage, 5, 9) })
	p, _ := newTestOpenAI(t, f.URL, nil)
	raw, u, err := p.Act(context.Background(), testObs(0))
	require.NoError(t, err, "parsing is the caller's job")
	assert.Equal(t, garbage, raw)
	assert.Equal(t, 1, u.Calls)
	assert.Equal(t, 9, u.CompletionTokens)
}

func TestOpenAIContentParts(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"choices":[{"message":{"content":[{"type":"text","text":"{\"action\":"},{"type":"text","text":"\"do\"}"}]}}]}`)
	})
	p, _ := newTestOpenAI(t, f.URL, nil)
	raw, u, err := p.Act(context.Background(), testObs(0))
	require.NoError(t, err)
	assert.Equal(t, `{"action":"do"}`, raw)
	assert.Equal(t, Usage{Calls: 1, LatencyMs: u.LatencyMs}, u, "no usage in the response: zero tokens")
}

func TestOpenAI429ThenOK(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 0:
			w.Header().Set("Retry-After", "3")
			http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
		case 1:
			http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
		default:
			answer(w, `{"action":"noop"}`, 40, 4)
		}
	})
	p, s := newTestOpenAI(t, f.URL, nil)
	raw, u, err := p.Act(context.Background(), testObs(0))
	require.NoError(t, err)
	assert.Equal(t, `{"action":"noop"}`, raw)
	assert.Equal(t, 2, u.Retries)
	assert.Equal(t, 1, u.Calls)
	assert.Equal(t, 40, u.PromptTokens)
	assert.Len(t, f.requests(), 3)
	got := s.got()
	require.Len(t, got, 2)
	assert.Equal(t, 3*time.Second, got[0], "Retry-After honoured")
	assert.GreaterOrEqual(t, got[1], time.Duration(0))
	assert.Less(t, got[1], time.Second, "second retry: full jitter below base·2")
}

func TestOpenAI500ThenOK(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			http.Error(w, "upstream exploded", http.StatusInternalServerError)
			return
		}
		answer(w, `{"action":"do"}`, 1, 1)
	})
	p, s := newTestOpenAI(t, f.URL, nil)
	_, u, err := p.Act(context.Background(), testObs(0))
	require.NoError(t, err)
	assert.Equal(t, 1, u.Retries)
	assert.Equal(t, 1, u.Calls)
	got := s.got()
	require.Len(t, got, 1)
	assert.Less(t, got[0], 500*time.Millisecond, "first retry: full jitter below the base")
}

func TestOpenAITimeoutThenOK(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			select {
			case <-time.After(200 * time.Millisecond):
			case <-r.Context().Done():
			}
			return
		}
		answer(w, `{"action":"do"}`, 1, 1)
	})
	p, s := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.Timeout = 50 * time.Millisecond })
	start := time.Now()
	raw, u, err := p.Act(context.Background(), testObs(0))
	require.NoError(t, err)
	assert.Equal(t, `{"action":"do"}`, raw)
	assert.Equal(t, 1, u.Retries)
	assert.Len(t, s.got(), 1)
	assert.Less(t, time.Since(start), 190*time.Millisecond, "the stalled call was cut at the timeout")
	assert.GreaterOrEqual(t, u.LatencyMs, 50)
}

func TestOpenAIConnectionErrorThenOK(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close() // drop the connection without an answer
			}
			return
		}
		answer(w, `{"action":"do"}`, 1, 1)
	})
	p, _ := newTestOpenAI(t, f.URL, nil)
	_, u, err := p.Act(context.Background(), testObs(0))
	require.NoError(t, err)
	assert.Equal(t, 1, u.Retries)
}

func TestOpenAIAlways500(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, `{"error":{"message":"no backend"}}`+strings.Repeat("x", 10000))
	})
	p, s := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.Retries = 3 })
	raw, u, err := p.Act(context.Background(), testObs(0))
	require.Error(t, err)
	assert.Empty(t, raw)
	assert.Len(t, f.requests(), 4, "one call and 3 retries")
	assert.Equal(t, 3, u.Retries)
	assert.Equal(t, 0, u.Calls)
	assert.Len(t, s.got(), 3)
	msg := err.Error()
	assert.Contains(t, msg, "502")
	assert.Contains(t, msg, "no backend")
	assert.Contains(t, msg, "3 retries")
	assert.Less(t, len(msg), 600, "the body is only excerpted")

	// 5 retries, the CLI's default.
	p, s = newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.Retries = 5 })
	_, u, err = p.Act(context.Background(), testObs(0))
	require.Error(t, err)
	assert.Equal(t, 5, u.Retries)
	got := s.got()
	require.Len(t, got, 5)
	for i, d := range got {
		assert.Less(t, d, min(20*time.Second, 500*time.Millisecond<<i), "retry %d", i)
	}

	// 0: no retry. Before, 0 meant the default, 5 retries.
	p, s = newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.Retries = 0 })
	_, u, err = p.Act(context.Background(), testObs(0))
	require.Error(t, err)
	assert.Equal(t, 0, u.Retries)
	assert.Empty(t, s.got())
}

func TestOpenAI401NoRetry(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusBadRequest, http.StatusNotFound} {
		f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"nope"}}`, status)
		})
		p, s := newTestOpenAI(t, f.URL, nil)
		_, u, err := p.Act(context.Background(), testObs(0))
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprint(status))
		assert.Contains(t, err.Error(), "nope")
		assert.Len(t, f.requests(), 1, "%d is not retried", status)
		assert.Empty(t, s.got())
		assert.Equal(t, Usage{LatencyMs: u.LatencyMs}, u)
	}
}

func TestOpenAIErrorHidesKey(t *testing.T) {
	// A server that echoes the credentials it got, in the body and on 200.
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 0:
			http.Error(w, "bad key: "+r.Header.Get("Authorization"), http.StatusUnauthorized)
		case 1:
			_, _ = io.WriteString(w, `{"error":{"message":"key `+openAITestKey+` revoked","type":"auth"}}`)
		default:
			_, _ = io.WriteString(w, "not json "+openAITestKey)
		}
	})
	p, _ := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.Retries = 0 })
	for i := 0; i < 3; i++ {
		_, _, err := p.Act(context.Background(), testObs(0))
		require.Error(t, err)
		assert.NotContains(t, err.Error(), openAITestKey)
		assert.NotContains(t, err.Error(), "SECRET")
	}

	// Connection errors and exhausted retries do not show it either.
	f.Close()
	p, _ = newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.Retries = 2 })
	_, u, err := p.Act(context.Background(), testObs(0))
	require.Error(t, err)
	assert.Equal(t, 2, u.Retries)
	assert.NotContains(t, err.Error(), openAITestKey)
}

func TestOpenAIHistory(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		answer(w, fmt.Sprintf(`{"action":"do","reason":"reply %d"}`, n), 1, 1)
	})
	p, _ := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.History = 2 })
	for step := 0; step < 5; step++ {
		obs := testObs(step)
		if step == 4 {
			obs.Image = "AAAA"
		}
		_, _, err := p.Act(context.Background(), obs)
		require.NoError(t, err)
	}
	reqs := f.requests()
	require.Len(t, reqs, 5)
	assert.Len(t, messages(t, reqs[0]), 2)
	assert.Len(t, messages(t, reqs[1]), 4)
	msgs := messages(t, reqs[4])
	require.Len(t, msgs, 6, "system, 2 pairs, current")
	roles := make([]string, len(msgs))
	for i, m := range msgs {
		roles[i] = m["role"].(string)
	}
	assert.Equal(t, []string{"system", "user", "assistant", "user", "assistant", "user"}, roles)
	assert.Contains(t, msgs[1]["content"], "Step 2,")
	assert.Equal(t, `{"action":"do","reason":"reply 2"}`, msgs[2]["content"])
	assert.Contains(t, msgs[3]["content"], "Step 3,")
	assert.Equal(t, `{"action":"do","reason":"reply 3"}`, msgs[4]["content"])
	_, isParts := msgs[5]["content"].([]any)
	assert.True(t, isParts, "the current observation carries the image")

	// The history keeps text only: the step-4 image is not resent.
	_, _, err := p.Act(context.Background(), testObs(5))
	require.NoError(t, err)
	msgs = messages(t, f.requests()[5])
	require.Len(t, msgs, 6)
	assert.Contains(t, msgs[3]["content"], "Step 4,")

	// Reset clears it; a failed call adds nothing.
	require.NoError(t, p.Reset(context.Background(), "another task"))
	_, _, err = p.Act(context.Background(), testObs(0))
	require.NoError(t, err)
	assert.Len(t, messages(t, f.requests()[6]), 2)

	// History 0: only the current observation.
	p0, _ := newTestOpenAI(t, f.URL, nil)
	for step := 0; step < 3; step++ {
		_, _, err := p0.Act(context.Background(), testObs(step))
		require.NoError(t, err)
	}
	reqs = f.requests()
	assert.Len(t, messages(t, reqs[len(reqs)-1]), 2)
}

func TestOpenAIFailureKeepsHistory(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		answer(w, `{"action":"do"}`, 1, 1)
	})
	p, _ := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.History = 3 })
	for step := 0; step < 3; step++ {
		_, _, err := p.Act(context.Background(), testObs(step))
		if step == 1 {
			require.Error(t, err)
		} else {
			require.NoError(t, err)
		}
	}
	assert.Len(t, messages(t, f.requests()[2]), 4, "only the successful exchange is remembered")
}

func TestOpenAIContextCancel(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, _ := newTestOpenAI(t, f.URL, func(o *OpenAIOptions) {
		o.Sleep = func(time.Duration) { cancel() }
	})
	_, _, err := p.Act(ctx, testObs(0))
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Len(t, f.requests(), 1, "no retry after cancellation")

	// Cancelled while the server stalls: Act returns at once.
	stall := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	p, _ = newTestOpenAI(t, stall.URL, nil)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel2()
	start := time.Now()
	_, _, err = p.Act(ctx2, testObs(0))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), time.Second)

	// The real sleep (no hook) also stops at cancellation.
	p, _ = newTestOpenAI(t, f.URL, func(o *OpenAIOptions) { o.Sleep = nil; o.Seed = 1 })
	ctx3, cancel3 := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel3()
	start = time.Now()
	_, _, err = p.Act(ctx3, testObs(0))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), time.Second)
}

func TestOpenAIBodyLimit(t *testing.T) {
	f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"choices":[{"message":{"content":"`)
		_, _ = io.WriteString(w, strings.Repeat("a", openAIMaxBody))
		_, _ = io.WriteString(w, `"}}]}`)
	})
	p, s := newTestOpenAI(t, f.URL, nil)
	_, _, err := p.Act(context.Background(), testObs(0))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than")
	assert.Empty(t, s.got())
}

func TestOpenAIBadResponses(t *testing.T) {
	for name, body := range map[string]string{
		"not json":   "<html>oops</html>",
		"no choices": `{"choices":[]}`,
		"error":      `{"error":{"message":"model overloaded","type":"server_error"}}`,
	} {
		f := newFakeOpenAI(t, func(n int, w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, body) })
		p, _ := newTestOpenAI(t, f.URL, nil)
		_, _, err := p.Act(context.Background(), testObs(0))
		assert.Error(t, err, name)
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	for _, o := range []OpenAIOptions{
		{Model: "m"},
		{BaseURL: "http://localhost:1/v1"},
		{BaseURL: "localhost:1/v1", Model: "m"},
		{BaseURL: "http://localhost:1/v1", Model: "m", History: -1},
		{BaseURL: "http://localhost:1/v1", Model: "m", MaxTokens: -1},
		{BaseURL: "http://localhost:1/v1", Model: "m", Retries: -1},
	} {
		_, err := NewOpenAI(o)
		assert.Error(t, err, "%+v", o)
	}
	p, err := NewOpenAI(OpenAIOptions{BaseURL: "http://localhost:1/v1/", Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:1/v1/chat/completions", p.url)
	assert.Equal(t, 60*time.Second, p.o.Timeout)
	assert.Equal(t, 0, p.o.Retries, "no retry unless asked")
	require.NoError(t, p.Close())
	var _ Player = p
}

func TestOpenAIBackoff(t *testing.T) {
	a, err := NewOpenAI(OpenAIOptions{BaseURL: "http://x/v1", Model: "m", Seed: 42})
	require.NoError(t, err)
	b, err := NewOpenAI(OpenAIOptions{BaseURL: "http://x/v1", Model: "m", Seed: 42})
	require.NoError(t, err)
	for attempt := 0; attempt < 70; attempt++ {
		d := a.backoff(attempt)
		assert.Equal(t, d, b.backoff(attempt), "deterministic for a seed")
		assert.GreaterOrEqual(t, d, time.Duration(0))
		limit := 20 * time.Second
		if attempt < 6 {
			limit = 500 * time.Millisecond << attempt
		}
		assert.Less(t, d, limit, "attempt %d", attempt)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for h, want := range map[string]time.Duration{
		"":                              0,
		"2":                             2 * time.Second,
		" 0.5 ":                         500 * time.Millisecond,
		"0":                             0,
		"-3":                            0,
		"soon":                          0,
		"100000":                        openAIRetryAfterMax,
		"Wed, 01 Jan 2025 00:00:07 GMT": 7 * time.Second,
		"Tue, 31 Dec 2024 23:00:00 GMT": 0,
	} {
		assert.Equal(t, want, parseRetryAfter(h, now), "%q", h)
	}
}

func TestRenderOpenAIObservation(t *testing.T) {
	obs := testObs(12)
	obs.Symbolic = [][]int{{1, 100}, {7, 8}}
	obs.Invalid = "no JSON object"
	s := UserMessage(obs, "")
	assert.Contains(t, s, "Step 12, budget left 88.")
	assert.Contains(t, s, "invalid (no JSON object)")
	assert.Contains(t, s, "  1 100\n  7   8")
	assert.NotContains(t, s, "Last outcome")
	assert.False(t, strings.HasSuffix(s, "\n"))
	assert.Equal(t, []string{"nothing", "moved", "blocked", "collected", "drank", "ate", "attacked", "placed", "made", "slept"}, openAIOutcomeKinds())
}
