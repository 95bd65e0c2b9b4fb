// Package fakemodel is a test helper, not a product: an OpenAI-compatible
// chat-completions server whose "model" plays Longcraft by a configurable
// policy, so that the harness, the reply modes, budgets, resume and
// reports are tested end to end at the scale of a real run (hundreds of
// episodes, thousands of calls) without a model.
//
// Policies: "scripted" reads the text observation as a competent player
// would (do when a tree, stone, water or cow is in front; otherwise walk
// toward the nearest tree or water the observation lists; drink and eat
// when low); "noisy" answers a uniformly random action. Either answers
// garbage at a configurable rate, fails calls with 429 or 500, sleeps a
// delay, and reports token counts from the request's size. It answers in
// the mode the request asks for: text, response_format json_schema, or a
// tool call of act.
//
// It must not import anything of Longcraft's but the standard library: it
// sees only the wire, as a real server does.
package fakemodel

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure the fake model.
type Options struct {
	Policy      string        // "scripted" (default) or "noisy"
	InvalidRate float64       // fraction of replies that are not JSON
	ErrorRate   float64       // fraction of calls answered 429 (Retry-After 0) or 500, alternately
	Delay       time.Duration // per call
	Seed        uint64
	// RefuseStructured answers 400 to a request with response_format or
	// tools, as a server without structured outputs does.
	RefuseStructured bool
	// Notes makes the model keep a scratchpad: each reply's "notes"
	// counts the steps it has seen notes for.
	Notes bool
	// CompletionTokens per reply (default 12); prompt tokens are the
	// request's bytes / 4.
	CompletionTokens int
	// NoUsage leaves usage out of the replies, as some servers do.
	NoUsage bool
}

// Server is a running fake model.
type Server struct {
	*httptest.Server
	o     Options
	mu    sync.Mutex
	rng   *rand.Rand
	Calls atomic.Int64
	// Requests keeps the last request body, for tests that check it.
	last []byte
}

// Start starts a fake model; Close it when done.
func Start(o Options) *Server {
	if o.Policy == "" {
		o.Policy = "scripted"
	}
	if o.CompletionTokens == 0 {
		o.CompletionTokens = 12
	}
	s := &Server{o: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x6d6f64656c))}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the API root to give a player (…/v1).
func (s *Server) URL() string { return s.Server.URL + "/v1" }

// LastRequest returns the last request's body.
func (s *Server) LastRequest() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.last...)
}

type request struct {
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	n := s.Calls.Add(1)
	var body []byte
	buf := make([]byte, 32<<10)
	for {
		k, err := r.Body.Read(buf)
		body = append(body, buf[:k]...)
		if err != nil {
			break
		}
	}
	s.mu.Lock()
	s.last = body
	roll, pick := s.rng.Float64(), s.rng.IntN(1<<30)
	s.mu.Unlock()
	if s.o.Delay > 0 {
		time.Sleep(s.o.Delay)
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, `{"error": {"message": "bad request"}}`, http.StatusBadRequest)
		return
	}
	structured := req.ResponseFormat != nil || len(req.Tools) > 0
	if s.o.RefuseStructured && structured {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error": {"message": "response_format and tools are not supported by this server", "type": "invalid_request_error"}}`)
		return
	}
	if roll < s.o.ErrorRate {
		if n%2 == 0 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"error": {"message": "rate limited"}}`, http.StatusTooManyRequests)
		} else {
			http.Error(w, `{"error": {"message": "overloaded"}}`, http.StatusInternalServerError)
		}
		return
	}
	system, user := text(req.Messages[0].Content), text(req.Messages[len(req.Messages)-1].Content)
	var reply string
	if roll < s.o.ErrorRate+s.o.InvalidRate {
		reply = "I am not sure what to do here."
	} else {
		out := map[string]any{"action": s.act(system, user, pick), "reason": "fake model"}
		if s.o.Notes {
			seen := 0
			if m := notesRe.FindStringSubmatch(user); m != nil {
				fmt.Sscanf(m[1], "%d", &seen)
			}
			out["notes"] = fmt.Sprintf("seen %d", seen+1)
		}
		b, _ := json.Marshal(out)
		reply = string(b)
	}
	msg := map[string]any{"role": "assistant", "content": reply}
	if len(req.Tools) > 0 && strings.HasPrefix(reply, "{") {
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": fmt.Sprintf("call_%d", n), "type": "function",
			"function": map[string]any{"name": req.Tools[0].Function.Name, "arguments": reply}}}}
	}
	res := map[string]any{"choices": []any{map[string]any{"message": msg}}}
	if !s.o.NoUsage {
		res["usage"] = map[string]any{"prompt_tokens": len(body) / 4, "completion_tokens": s.o.CompletionTokens}
	}
	json.NewEncoder(w).Encode(res)
}

var (
	notesRe  = regexp.MustCompile(`Your notes: seen (\d+)`)
	frontRe  = regexp.MustCompile(`in front of you: ([a-z ]+)\.`)
	seeRe    = regexp.MustCompile(`(?m)^- ([a-z ]+): (.+)$`)
	vitalRe  = regexp.MustCompile(`food (\d+)/\d+, drink (\d+)/\d+`)
	actionRe = regexp.MustCompile(`(?m)^- ([a-z_]+)(:|$)`)
)

// act chooses the action by the policy.
func (s *Server) act(system, user string, pick int) string {
	var actions []string
	for _, m := range actionRe.FindAllStringSubmatch(system, -1) {
		actions = append(actions, m[1])
	}
	if len(actions) == 0 {
		actions = []string{"noop"}
	}
	if s.o.Policy == "noisy" {
		return actions[pick%len(actions)]
	}
	if strings.Contains(system, "Each decision you choose one skill") {
		return []string{"collect wood", "explore east", "collect stone", "drink", "eat"}[pick%5]
	}
	hungry, thirsty := false, false
	if m := vitalRe.FindStringSubmatch(user); m != nil {
		var food, drink int
		fmt.Sscanf(m[1], "%d", &food)
		fmt.Sscanf(m[2], "%d", &drink)
		hungry, thirsty = food < 5, drink < 5
	}
	if m := frontRe.FindStringSubmatch(user); m != nil {
		switch f := m[1]; {
		case f == "tree", f == "cow" && hungry, f == "water" && thirsty:
			return "do"
		}
	}
	want := "tree"
	if thirsty {
		want = "water"
	} else if hungry {
		want = "cow"
	}
	for _, m := range seeRe.FindAllStringSubmatch(user, -1) {
		if m[1] == want {
			return step(m[2])
		}
	}
	return []string{"move_left", "move_right", "move_up", "move_down"}[pick%4]
}

// step is the move that closes a "2 north, 3 west" offset.
func step(offset string) string {
	for _, part := range strings.Split(offset, ", ") {
		var k int
		var dir string
		if _, err := fmt.Sscanf(part, "%d %s", &k, &dir); err == nil && k > 0 {
			return map[string]string{"north": "move_up", "south": "move_down", "east": "move_right", "west": "move_left"}[dir]
		}
	}
	return "do"
}

// text returns a message's text: a string, or its text parts.
func text(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, p := range v {
			if m, ok := p.(map[string]any); ok && m["type"] == "text" {
				b.WriteString(fmt.Sprint(m["text"]))
			}
		}
		return b.String()
	}
	return ""
}
