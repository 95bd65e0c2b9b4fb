package player

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/sim"
)

// OpenAIOptions configure an OpenAI-compatible chat-completions player
// (OpenAI, vLLM, Ollama, llama.cpp server…).
type OpenAIOptions struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1 or
	// http://localhost:8000/v1; "/chat/completions" is appended.
	BaseURL string
	Model   string
	// APIKey is sent as "Authorization: Bearer KEY" when not empty
	// (callers read OPENAI_API_KEY). It never appears in errors.
	APIKey      string
	Temperature float64
	MaxTokens   int // 0: omitted from the request
	// History is the number of previous (observation, reply) pairs kept
	// in the prompt; 0 sends only the current observation.
	History int
	// HistoryTokens also bounds the history by size: the oldest pairs are
	// dropped until the kept ones' estimated tokens (bytes / 4) are at
	// most this (0: by count alone).
	HistoryTokens int
	// Reply is how the model is asked to answer (json, schema, tools)
	// and Notes turns the scratchpad on: both change the prompt.
	Reply ReplyMode
	Notes bool
	// Timeout bounds each HTTP attempt (default 60s).
	Timeout time.Duration
	// Retries is the number of further attempts after a 429, a 5xx, a
	// timeout or a connection error: 0 means none (`--retries 0`), and
	// `longcraft score` gives 5 unless told; negative is refused.
	// Backoff is exponential with full jitter (base 500ms, cap 20s); a
	// Retry-After header in seconds (or an HTTP date) takes precedence.
	Retries int
	Client  *http.Client        // nil: a default client
	Sleep   func(time.Duration) // nil: a context-aware time.Sleep; tests replace it
	Seed    uint64              // seeds the jitter RNG (deterministic)
}

// OpenAI-transport constants.
const (
	openAIDefaultTimeout = 60 * time.Second
	openAIBackoffBase    = 500 * time.Millisecond
	openAIBackoffCap     = 20 * time.Second
	openAIRetryAfterMax  = 5 * time.Minute // a longer Retry-After is clamped
	openAIMaxBody        = 4 << 20         // bytes read from a response
	openAIExcerpt        = 200             // bytes of a body quoted in errors
)

// OpenAI is a Player that asks a model behind an OpenAI-compatible
// chat-completions endpoint. It is safe for use by one episode at a time;
// its methods lock, so concurrent calls serialise.
type OpenAI struct {
	o      OpenAIOptions
	url    string
	client *http.Client
	own    bool // client created here: Close releases its connections

	mu      sync.Mutex
	rng     *rand.Rand
	task    string
	history []openAITurn
}

// openAITurn is one past exchange kept in the prompt.
type openAITurn struct{ obs, reply string }

// NewOpenAI returns an OpenAI player; BaseURL and Model are required.
func NewOpenAI(o OpenAIOptions) (*OpenAI, error) {
	o.BaseURL = strings.TrimSpace(o.BaseURL)
	if o.BaseURL == "" {
		return nil, errors.New("openai: BaseURL is required")
	}
	if !strings.HasPrefix(o.BaseURL, "http://") && !strings.HasPrefix(o.BaseURL, "https://") {
		return nil, fmt.Errorf("openai: BaseURL %q must start with http:// or https://", o.BaseURL)
	}
	if strings.TrimSpace(o.Model) == "" {
		return nil, errors.New("openai: Model is required")
	}
	if o.History < 0 {
		return nil, fmt.Errorf("openai: History %d is negative", o.History)
	}
	if o.MaxTokens < 0 {
		return nil, fmt.Errorf("openai: MaxTokens %d is negative", o.MaxTokens)
	}
	if o.HistoryTokens < 0 {
		return nil, fmt.Errorf("openai: HistoryTokens %d is negative", o.HistoryTokens)
	}
	switch o.Reply {
	case "":
		o.Reply = ReplyJSON
	case ReplyJSON, ReplySchema, ReplyTools:
	default:
		return nil, fmt.Errorf("openai: reply mode %q (json, schema or tools)", o.Reply)
	}
	if o.Timeout <= 0 {
		o.Timeout = openAIDefaultTimeout
	}
	if o.Retries < 0 {
		return nil, fmt.Errorf("openai: Retries %d is negative (0: no retry)", o.Retries)
	}
	p := &OpenAI{
		o:      o,
		url:    strings.TrimRight(o.BaseURL, "/") + "/chat/completions",
		client: o.Client,
		rng:    rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)),
	}
	if p.client == nil {
		p.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		p.own = true
	}
	return p, nil
}

// Reset starts an episode: it clears the history and remembers the task
// for the system prompt (an observation's own Task takes precedence).
func (p *OpenAI) Reset(ctx context.Context, task string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.task = task
	p.history = p.history[:0]
	return ctx.Err()
}

// Close releases idle connections of a client created by NewOpenAI.
func (p *OpenAI) Close() error {
	if p.own {
		p.client.CloseIdleConnections()
	}
	return nil
}

// Act sends the observation and returns the model's raw reply, unparsed.
func (p *OpenAI) Act(ctx context.Context, obs *protocol.Observation) (string, Usage, error) {
	start := time.Now()
	var u Usage
	if obs == nil {
		return "", u, errors.New("openai: nil observation")
	}
	p.mu.Lock()
	defer p.mu.Unlock()

	text := UserMessage(obs, obs.Notes)
	body, err := json.Marshal(p.request(obs, text))
	if err != nil {
		return "", u, fmt.Errorf("openai: encode request: %w", err)
	}
	for attempt := 0; ; attempt++ {
		res, retryAfter, err := p.post(ctx, body)
		if err == nil {
			u.Calls = 1
			u.PromptTokens = res.Usage.PromptTokens
			u.CompletionTokens = res.Usage.CompletionTokens
			u.LatencyMs = int(time.Since(start).Milliseconds())
			raw, err := res.reply(p.o.Reply)
			if err != nil {
				u.LatencyMs = int(time.Since(start).Milliseconds())
				return "", u, p.errorf("%v", err)
			}
			p.remember(text, raw)
			return raw, u, nil
		}
		if ctx.Err() != nil {
			u.LatencyMs = int(time.Since(start).Milliseconds())
			if errors.Is(err, ctx.Err()) {
				return "", u, fmt.Errorf("openai: %w", err)
			}
			return "", u, fmt.Errorf("openai: %w: %v", ctx.Err(), err)
		}
		var re *openAIRetryable
		if !errors.As(err, &re) {
			u.LatencyMs = int(time.Since(start).Milliseconds())
			return "", u, err
		}
		if attempt >= p.o.Retries {
			u.LatencyMs = int(time.Since(start).Milliseconds())
			return "", u, fmt.Errorf("%w (gave up after %d retries)", re.err, attempt)
		}
		u.Retries++
		d := retryAfter
		if d <= 0 {
			d = p.backoff(attempt)
		}
		if err := p.sleep(ctx, d); err != nil {
			u.LatencyMs = int(time.Since(start).Milliseconds())
			return "", u, fmt.Errorf("openai: %w while waiting to retry: %v", err, re.err)
		}
	}
}

// remember appends an exchange and trims the history to its window.
func (p *OpenAI) remember(obs, reply string) {
	if p.o.History <= 0 {
		return
	}
	p.history = append(p.history, openAITurn{obs, reply})
	n := len(p.history) - p.o.History
	if p.o.HistoryTokens > 0 {
		size := 0
		for i := len(p.history) - 1; i >= max(n, 0); i-- {
			size += estimateTokens(p.history[i].obs) + estimateTokens(p.history[i].reply)
			if size > p.o.HistoryTokens {
				n = i + 1
				break
			}
		}
	}
	if n > 0 {
		p.history = append(p.history[:0], p.history[n:]...)
	}
}

// estimateTokens guesses a text's tokens as its bytes over four, the
// usual rule for English with a BPE tokenizer; the server's own count is
// what the results report.
func estimateTokens(s string) int { return (len(s) + 3) / 4 }

// backoff returns the full-jitter delay before retry attempt+1: uniform
// in [0, min(cap, base·2^attempt)).
func (p *OpenAI) backoff(attempt int) time.Duration {
	d := openAIBackoffCap
	if attempt < 16 {
		d = min(openAIBackoffCap, openAIBackoffBase<<attempt)
	}
	return time.Duration(p.rng.Int64N(int64(d)))
}

// sleep waits d or until ctx ends.
func (p *OpenAI) sleep(ctx context.Context, d time.Duration) error {
	if p.o.Sleep != nil {
		p.o.Sleep(d)
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// openAIRetryable marks an attempt's failure as worth retrying.
type openAIRetryable struct{ err error }

func (e *openAIRetryable) Error() string { return e.err.Error() }
func (e *openAIRetryable) Unwrap() error { return e.err }

// post makes one attempt. A retryable failure is an *openAIRetryable,
// with the server's Retry-After when it sent one.
func (p *OpenAI) post(ctx context.Context, body []byte) (*openAIResponse, time.Duration, error) {
	actx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, p.errorf("build request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if p.o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.o.APIKey)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		return nil, 0, &openAIRetryable{p.transportError(actx, "POST", err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, openAIMaxBody+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		return nil, 0, &openAIRetryable{p.transportError(actx, "read response", err)}
	}
	if resp.StatusCode != http.StatusOK {
		err := p.errorf("%s: %s", resp.Status, p.excerpt(data))
		if p.o.Reply != ReplyJSON && (resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnprocessableEntity) {
			field := map[ReplyMode]string{ReplySchema: "response_format (json_schema)", ReplyTools: "tools and tool_choice"}[p.o.Reply]
			return nil, 0, p.errorf("%s: the server refused the request, which asks for --reply %s with %s: a server without structured outputs refuses it; try --reply json: %s",
				resp.Status, p.o.Reply, field, p.excerpt(data))
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 ||
			resp.StatusCode == http.StatusRequestTimeout {
			return nil, parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), &openAIRetryable{err}
		}
		return nil, 0, err
	}
	if len(data) > openAIMaxBody {
		return nil, 0, p.errorf("response larger than %d bytes", openAIMaxBody)
	}
	var res openAIResponse
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, 0, p.errorf("%s: decode response: %v: %s", resp.Status, err, p.excerpt(data))
	}
	if res.Error != nil && len(res.Choices) == 0 {
		return nil, 0, p.errorf("%s: error in response: %s", resp.Status, p.redact(res.Error.text()))
	}
	if len(res.Choices) == 0 {
		return nil, 0, p.errorf("%s: no choices in response: %s", resp.Status, p.excerpt(data))
	}
	return &res, 0, nil
}

// transportError describes a failed exchange, naming a per-call timeout.
func (p *OpenAI) transportError(actx context.Context, what string, err error) error {
	if errors.Is(actx.Err(), context.DeadlineExceeded) {
		return p.errorf("%s: timed out after %v", what, p.o.Timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the URL is already named
	}
	return p.errorf("%s: %s", what, p.redact(err.Error()))
}

// errorf formats an error naming the endpoint, without the API key.
func (p *OpenAI) errorf(format string, args ...any) error {
	return errors.New(p.redact(fmt.Sprintf("openai: %s %s: ", p.o.Model, p.url) + fmt.Sprintf(format, args...)))
}

// redact removes the API key from s.
func (p *OpenAI) redact(s string) string {
	if p.o.APIKey == "" {
		return s
	}
	return strings.ReplaceAll(s, p.o.APIKey, "[REDACTED]")
}

// excerpt quotes the start of a response body for an error message.
func (p *OpenAI) excerpt(data []byte) string {
	s := strings.TrimSpace(p.redact(string(data)))
	if len(s) > openAIExcerpt {
		cut := openAIExcerpt
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return strconv.Quote(s)
}

// parseRetryAfter reads a Retry-After header: seconds or an HTTP date.
// It returns 0 when absent or unreadable.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	var d time.Duration
	if s, err := strconv.ParseFloat(h, 64); err == nil {
		if s <= 0 || math.IsNaN(s) {
			return 0
		}
		if s > openAIRetryAfterMax.Seconds() {
			return openAIRetryAfterMax
		}
		d = time.Duration(s * float64(time.Second))
	} else if t, err := http.ParseTime(h); err == nil {
		d = t.Sub(now)
	}
	if d <= 0 {
		return 0
	}
	return min(d, openAIRetryAfterMax)
}

// The wire format.

type openAIRequest struct {
	Model          string                `json:"model"`
	Messages       []openAIMessage       `json:"messages"`
	Temperature    float64               `json:"temperature"`
	MaxTokens      int                   `json:"max_tokens,omitempty"`
	ResponseFormat *openAIResponseFormat `json:"response_format,omitempty"`
	Tools          []openAITool          `json:"tools,omitempty"`
	ToolChoice     any                   `json:"tool_choice,omitempty"`
}

type openAIResponseFormat struct {
	Type       string            `json:"type"`
	JSONSchema *openAIJSONSchema `json:"json_schema,omitempty"`
}

type openAIJSONSchema struct {
	Name   string         `json:"name"`
	Schema map[string]any `json:"schema"`
}

type openAITool struct {
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters"`
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // a string or []openAIPart
}

type openAIPart struct {
	Type     string          `json:"type"`
	Text     string          `json:"text,omitempty"`
	ImageURL *openAIImageURL `json:"image_url,omitempty"`
}

type openAIImageURL struct {
	URL string `json:"url"`
}

type openAIResponse struct {
	Choices []struct {
		Message struct {
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name string `json:"name"`
					// Arguments is a JSON string, as OpenAI sends it, or
					// the object itself, as some servers do.
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *openAIErrorBody `json:"error"`
}

type openAIErrorBody struct {
	Message string `json:"message"`
	Type    string `json:"type"`
}

func (e *openAIErrorBody) text() string {
	if e.Type != "" {
		return e.Type + ": " + e.Message
	}
	return e.Message
}

// reply returns the model's answer in mode m: the act call's arguments
// in tools mode (the content when it answered in text instead), else the
// content.
func (r *openAIResponse) reply(m ReplyMode) (string, error) {
	if m == ReplyTools {
		for _, c := range r.Choices[0].Message.ToolCalls {
			if c.Function.Name == "act" {
				var text string
				if json.Unmarshal(c.Function.Arguments, &text) == nil {
					return text, nil
				}
				return string(c.Function.Arguments), nil
			}
		}
		if len(r.Choices[0].Message.ToolCalls) > 0 {
			return "", fmt.Errorf("the model called %q, not act", r.Choices[0].Message.ToolCalls[0].Function.Name)
		}
	}
	return r.content(), nil
}

// content returns choices[0].message.content: a string, or the text
// parts of an array (as some servers answer), or "" when null.
func (r *openAIResponse) content() string {
	c := r.Choices[0].Message.Content
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s
	}
	var parts []openAIPart
	if json.Unmarshal(c, &parts) == nil {
		var b strings.Builder
		for _, part := range parts {
			if part.Type == "text" || part.Type == "" {
				b.WriteString(part.Text)
			}
		}
		return b.String()
	}
	return ""
}

// request builds the chat request: the system prompt, the history, then
// the current observation (with its image, if any).
func (p *OpenAI) request(obs *protocol.Observation, text string) openAIRequest {
	task := obs.Task
	if task == "" {
		task = p.task
	}
	msgs := make([]openAIMessage, 0, 2+2*len(p.history))
	sys := *obs
	sys.Task = task
	msgs = append(msgs, openAIMessage{Role: "system", Content: SystemPrompt(&sys, PromptOptions{Reply: p.o.Reply, Notes: p.o.Notes})})
	for _, t := range p.history {
		msgs = append(msgs,
			openAIMessage{Role: "user", Content: t.obs},
			openAIMessage{Role: "assistant", Content: t.reply})
	}
	var content any = text
	if obs.Image != "" {
		img := obs.Image
		if !strings.HasPrefix(img, "data:") {
			img = "data:image/png;base64," + img
		}
		content = []openAIPart{
			{Type: "text", Text: text},
			{Type: "image_url", ImageURL: &openAIImageURL{URL: img}},
		}
	}
	msgs = append(msgs, openAIMessage{Role: "user", Content: content})
	req := openAIRequest{
		Model:       p.o.Model,
		Messages:    msgs,
		Temperature: p.o.Temperature,
		MaxTokens:   p.o.MaxTokens,
	}
	switch p.o.Reply {
	case ReplySchema:
		req.ResponseFormat = &openAIResponseFormat{Type: "json_schema", JSONSchema: &openAIJSONSchema{Name: "reply", Schema: replySchema(obs, p.o.Notes)}}
	case ReplyTools:
		req.Tools = []openAITool{{Type: "function", Function: openAIFunction{Name: "act",
			Description: "Play one " + map[bool]string{true: "skill", false: "action"}[obs.Level == "skills"] + ".", Parameters: replySchema(obs, p.o.Notes)}}}
		req.ToolChoice = "required"
	}
	return req
}

// replySchema is the JSON schema of a reply to obs: the action (one of the
// actions, or at the skill level a skill command), a reason, and the
// optional belief, expectation and notes.
func replySchema(obs *protocol.Observation, notes bool) map[string]any {
	action := map[string]any{"type": "string", "enum": obs.Actions}
	if obs.Level == "skills" {
		action = map[string]any{"type": "string", "description": "one skill command, e.g. collect wood"}
	}
	props := map[string]any{
		"action": action,
		"reason": map[string]any{"type": "string"},
	}
	if obs.Level != "skills" {
		// A belief is asked for only where it can be scored: under full
		// observability the observation states the inventory and the
		// position, so any belief would be a copy (checkBelief).
		if obs.Observability != "full" {
			offset := map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "integer"}, "y": map[string]any{"type": "integer"}}}
			thing := map[string]any{"type": "object", "properties": map[string]any{
				"kind": map[string]any{"type": "string"}, "dx": map[string]any{"type": "integer"}, "dy": map[string]any{"type": "integer"}}}
			remembered := map[string]any{"type": "array", "items": thing, "maxItems": protocol.MaxRemembered}
			props["belief"] = map[string]any{"type": "object", "properties": map[string]any{"from_start": offset, "remembered": remembered}}
		}
		props["expect"] = map[string]any{"type": "object", "properties": map[string]any{
			"outcome":   map[string]any{"type": "string", "enum": openAIOutcomeKinds()},
			"inventory": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "integer"}},
		}}
	}
	if notes {
		props["notes"] = map[string]any{"type": "string", "maxLength": notesMax}
	}
	return map[string]any{"type": "object", "properties": props, "required": []string{"action", "reason"}}
}

// openAIOutcomeKinds lists the simulation's outcome kind names.
func openAIOutcomeKinds() []string {
	var names []string
	for k := sim.OutcomeKind(0); k < 255; k++ {
		n := k.String()
		if n == "unknown" {
			break
		}
		names = append(names, n)
	}
	return names
}
