// Package serve is Longcraft's HTTP environment server: a Gymnasium-shaped
// JSON API (create an episode, step it, read its frame, delete it) so that
// agents in any language can play Longcraft tasks and plain seeded worlds.
// docs/serve.md documents every route; docs/serve_client.py is a client
// in plain Python.
//
// The server keeps every episode's world; an agent sees only what the
// task lets it see: the goal statement, the budget, the text observation
// and outcomes filtered by the task's feedback level, and optionally the
// agent-view image and the 9×9 symbolic view; never a task's world seed
// nor its per-seed rule variants while the episode is played. The client
// names the spec, so this is not a sealed scoring host (docs/serve.md).
//
// It has no authentication. Serve it on a loopback address (the
// `longcraft serve` default, 127.0.0.1); binding 0.0.0.0 exposes it to
// every host that can reach the port.
package serve

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"mime"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/internal/json64"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// Defaults and bounds.
const (
	DefaultMaxEpisodes = 64
	DefaultIdle        = 10 * time.Minute
	DefaultMaxBody     = 64 << 10 // bytes
	// MinImageSize and MaxImageSize bound image_size and frame.png's size:
	// the agent view is 9 tiles wide, and a renderer's sprite tables grow
	// with the square of the size (about 10 MB at 512).
	MinImageSize     = 9
	MaxImageSize     = 512
	DefaultFrameSize = 256 // frame.png without ?size= on an episode without image_size
	// maxViews bounds the cached renderers (one per image size).
	maxViews = 8
)

// Config sets the server's limits. Zero fields take the defaults.
type Config struct {
	MaxEpisodes int           // open episodes at most; more are refused with 503
	Idle        time.Duration // an episode untouched for longer is deleted
	MaxBody     int64         // request bodies over this many bytes are refused with 413
	// Now is the clock idle expiry reads; nil means time.Now. Tests inject
	// their own.
	Now func() time.Time
	// Hosts, if not empty, are the host names (without port) a request's
	// Host header may name; others are refused with 421. A web page the
	// user visits can point a name it controls at 127.0.0.1 (DNS
	// rebinding): checking Host keeps its requests out. `longcraft serve`
	// sets them from the address it binds.
	Hosts []string
}

// Server is the environment server, an http.Handler. It is safe for
// concurrent use: a mutex guards the episode table, and each episode has
// its own, so different episodes step in parallel.
type Server struct {
	cfg Config
	mux *http.ServeMux

	mu       sync.Mutex // guards episodes and every episode's lastUsed
	episodes map[string]*openEpisode

	frozenOnce sync.Once // the embedded suites' locked tasks, loaded on the first task episode
	frozen     *suite.FrozenTasks
	frozenErr  error

	atlasOnce sync.Once
	atlas     *render.Atlas
	atlasErr  error
	viewMu    sync.Mutex
	views     map[int]*render.AgentView // by size
}

// openEpisode is one open episode. Its fields are guarded by mu, except
// lastUsed (by Server.mu) and the fields set at creation, which never
// change.
type openEpisode struct {
	mu sync.Mutex

	// Set at creation.
	id        string
	rules     *sim.Rules
	task      *task.Task // a plain world's is task.FreePlay
	plain     bool
	imageSize int
	symbolic  bool
	obs       *protocol.Builder // the one observation builder every transport uses

	// Guarded by mu.
	game *episode.Episode // the one episode core: its end, success, metrics and trace

	lastUsed time.Time // guarded by Server.mu
}

// New returns a server with cfg's limits.
func New(cfg Config) *Server {
	if cfg.MaxEpisodes <= 0 {
		cfg.MaxEpisodes = DefaultMaxEpisodes
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, episodes: map[string]*openEpisode{}, views: map[int]*render.AgentView{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/health", s.health)
	mux.HandleFunc("GET /v1/actions", s.listActions)
	mux.HandleFunc("POST /v1/episodes", s.create)
	mux.HandleFunc("GET /v1/episodes/{id}", s.get)
	mux.HandleFunc("DELETE /v1/episodes/{id}", s.remove)
	mux.HandleFunc("POST /v1/episodes/{id}/step", s.step)
	mux.HandleFunc("GET /v1/episodes/{id}/frame.png", s.frame)
	mux.HandleFunc("GET /v1/episodes/{id}/trace", s.traceFile)
	// The same paths without a method answer 405 in JSON (the mux's own
	// 405 is plain text); anything else is a JSON 404.
	for path, allow := range map[string]string{
		"/v1/health":                  "GET, HEAD",
		"/v1/actions":                 "GET, HEAD",
		"/v1/episodes":                "POST",
		"/v1/episodes/{id}":           "GET, HEAD, DELETE",
		"/v1/episodes/{id}/step":      "POST",
		"/v1/episodes/{id}/frame.png": "GET, HEAD",
		"/v1/episodes/{id}/trace":     "GET, HEAD",
	} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, "method %s not allowed on %s (allowed: %s)", r.Method, r.URL.Path, allow)
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no route %s %s (see docs/serve.md)", r.Method, r.URL.Path)
	})
	s.mux = mux
	return s
}

// ServeHTTP serves the API. Before routing it refuses a Host not in
// Config.Hosts (421) and a POST whose body is not declared JSON (415): a
// browser sends a cross-origin POST without asking first only as
// text/plain, form data or multipart, so requiring application/json, and
// sending no CORS header ever, leaves other origins' pages unable to drive
// the server.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if len(s.cfg.Hosts) > 0 {
		host := r.Host
		if h, _, err := net.SplitHostPort(r.Host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		if !slices.Contains(s.cfg.Hosts, strings.ToLower(host)) {
			writeError(w, http.StatusMisdirectedRequest, "host %q is not one this server answers to (%s); start it with --allow-host %s to add it",
				r.Host, strings.Join(s.cfg.Hosts, ", "), host)
			return
		}
	}
	if r.Method == http.MethodPost {
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "POST %s: the body must be sent as Content-Type: application/json (got %q)", r.URL.Path, r.Header.Get("Content-Type"))
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// Sweep deletes the episodes idle for longer than the configured time and
// returns how many it deleted. Requests also expire episodes lazily; call
// Sweep periodically to free idle episodes' memory without waiting for
// one.
func (s *Server) Sweep() int {
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sweepLocked(now)
}

func (s *Server) sweepLocked(now time.Time) int {
	n := 0
	for id, e := range s.episodes {
		if now.Sub(e.lastUsed) > s.cfg.Idle {
			delete(s.episodes, id)
			n++
		}
	}
	return n
}

// Len returns the number of open episodes (expired ones included until
// they are swept).
func (s *Server) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.episodes)
}

// lookup returns the open episode id and marks it used, or nil if there is
// none (never created, deleted, or idle past the limit: then it is
// deleted now).
func (s *Server) lookup(id string) *openEpisode {
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.episodes[id]
	if e == nil {
		return nil
	}
	if now.Sub(e.lastUsed) > s.cfg.Idle {
		delete(s.episodes, id)
		return nil
	}
	e.lastUsed = now
	return e
}

// episodeOr404 looks up the path's episode, answering 404 when there is
// none.
func (s *Server) episodeOr404(w http.ResponseWriter, r *http.Request) *openEpisode {
	id := r.PathValue("id")
	e := s.lookup(id)
	if e == nil {
		writeError(w, http.StatusNotFound, "episode %q not found (never created, deleted, or idle for over %s)", id, s.cfg.Idle)
	}
	return e
}

// Observation is what an agent receives: the one observation protocol's
// (bench/protocol), which every transport sends.
type Observation = protocol.Observation

// CreateRequest starts an episode: a task (family, tier, split, index, and
// optionally budget, feedback, observability), or a plain world (seed and
// ruleset, optionally budget, feedback, observability).
type CreateRequest struct {
	task.Spec
	Seed      *uint64 `json:"seed,omitempty"`
	Ruleset   string  `json:"ruleset,omitempty"`
	ImageSize int     `json:"image_size,omitempty"` // 0: no image in observations
	Symbolic  bool    `json:"symbolic,omitempty"`
}

// createJSON is a CreateRequest as JSON holds it: the index and the seed
// as decimal strings (what a JavaScript client must send for a seed over
// 2^53) or numbers.
type createJSON struct {
	task.SpecJSON
	Seed      *json64.Uint `json:"seed,omitempty"`
	Ruleset   string       `json:"ruleset,omitempty"`
	ImageSize int          `json:"image_size,omitempty"`
	Symbolic  bool         `json:"symbolic,omitempty"`
}

// MarshalJSON writes the request with its index and seed as strings (the
// embedded spec's own method would write the spec alone).
func (r CreateRequest) MarshalJSON() ([]byte, error) {
	return json.Marshal(createJSON{SpecJSON: r.Spec.JSON(), Seed: (*json64.Uint)(r.Seed), Ruleset: r.Ruleset,
		ImageSize: r.ImageSize, Symbolic: r.Symbolic})
}

// UnmarshalJSON reads a request whose index and seed are strings or
// numbers, refusing fields it does not know (a misspelt field would
// otherwise start another episode than the one asked for).
func (r *CreateRequest) UnmarshalJSON(data []byte) error {
	var j createJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*r = CreateRequest{Spec: j.Spec(), Seed: (*uint64)(j.Seed), Ruleset: j.Ruleset, ImageSize: j.ImageSize, Symbolic: j.Symbolic}
	return nil
}

// EpisodeInfo is what the agent may know about its episode.
type EpisodeInfo struct {
	Task   string `json:"task"`              // the statement, as Task.Describe
	Goal   string `json:"goal,omitempty"`    // the goal alone; empty for a plain world
	TaskID string `json:"task_id,omitempty"` // the spec's stable id
	// Certified: the task is an embedded suite's locked one, certified
	// solvable by the planner; false for other specs, generated without
	// the certificate.
	Certified     bool     `json:"certified"`
	Seed          *uint64  `json:"seed,omitempty,string"` // plain worlds only: a task's seed stays hidden; a string, exact in JavaScript
	Ruleset       string   `json:"ruleset"`
	Budget        int      `json:"budget"`
	Feedback      string   `json:"feedback"`
	Observability string   `json:"observability"`
	ImageSize     int      `json:"image_size,omitempty"`
	Symbolic      bool     `json:"symbolic,omitempty"`
	Actions       []string `json:"actions"`
}

// CreateResponse answers POST /v1/episodes.
type CreateResponse struct {
	ID          string      `json:"id"`
	Observation Observation `json:"observation"`
	Info        EpisodeInfo `json:"info"`
}

// StepRequest is one action, by name.
type StepRequest struct {
	Action string `json:"action"`
}

// StepInfo is the episode's state after a step.
type StepInfo struct {
	Outcome string  `json:"outcome"` // the last outcome, filtered by the task's feedback level
	Success bool    `json:"success"` // the goal is reached (achievements: the tier's count unlocked)
	Steps   int     `json:"steps"`
	Return  float64 `json:"return"` // the sum of the rewards so far
	Died    bool    `json:"died"`
	// Once the episode is over: how it ended (goal, death, budget) and the
	// metrics `longcraft score` records for an episode (results.jsonl).
	End     string           `json:"end,omitempty"`
	Metrics *episode.Metrics `json:"metrics,omitempty"`
}

// StepResponse answers a step (and GET /v1/episodes/{id}, without reward).
type StepResponse struct {
	ID          string      `json:"id,omitempty"`
	Observation Observation `json:"observation"`
	Reward      float64     `json:"reward"`
	Terminated  bool        `json:"terminated"` // death, or the goal reached
	Truncated   bool        `json:"truncated"`  // the budget ran out first
	Info        StepInfo    `json:"info"`
}

func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	b := buildinfo.Read()
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "version": version(b), "build": b, "api": "v1",
		"episodes": s.Len(), "max_episodes": s.cfg.MaxEpisodes})
}

// version is the module's version, or its VCS revision for a development
// build.
func version(b buildinfo.Build) string {
	switch {
	case b.Version != "(devel)":
		return b.Version
	case b.Revision != "":
		return "devel+" + buildinfo.Short(b.Revision)
	}
	return "devel"
}

func (s *Server) listActions(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("ruleset")
	if name == "" {
		name = sim.ClassicName
	}
	rules, err := sim.RulesByName(name)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ruleset": rules.Name, "actions": actionNames(rules)})
}

func actionNames(r *sim.Rules) []string {
	names := make([]string, len(r.Actions))
	for i := range r.Actions {
		names[i] = r.Actions[i].Name
	}
	return names
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req CreateRequest
	if !s.decode(w, r, &req) {
		return
	}
	// Refuse early when full; the insert below checks again.
	if !s.hasRoom() {
		s.writeFull(w)
		return
	}
	e, status, err := s.newEpisode(&req)
	if err != nil {
		writeError(w, status, "%v", err)
		return
	}
	// Build the first observation before the episode is visible: no other
	// request can hold it yet.
	resp := CreateResponse{Observation: s.observe(e), Info: e.info(req.Seed)}
	now := s.cfg.Now()
	s.mu.Lock()
	s.sweepLocked(now)
	if len(s.episodes) >= s.cfg.MaxEpisodes {
		s.mu.Unlock()
		s.writeFull(w)
		return
	}
	for e.id == "" || s.episodes[e.id] != nil {
		e.id = newID()
	}
	e.lastUsed = now
	s.episodes[e.id] = e
	s.mu.Unlock()
	resp.ID = e.id
	w.Header().Set("Location", "/v1/episodes/"+e.id)
	writeJSON(w, http.StatusCreated, resp)
}

func (s *Server) hasRoom() bool {
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	return len(s.episodes) < s.cfg.MaxEpisodes
}

func (s *Server) writeFull(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "10")
	writeError(w, http.StatusServiceUnavailable, "too many open episodes (%d): delete finished ones (DELETE /v1/episodes/{id}) or wait for idle ones to expire after %s",
		s.cfg.MaxEpisodes, s.cfg.Idle)
}

// newID returns 128 random bits in hex.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (it crashes the program instead)
	return hex.EncodeToString(b[:])
}

// newEpisode builds the episode req asks for; a failure comes with its
// HTTP status.
func (s *Server) newEpisode(req *CreateRequest) (*openEpisode, int, error) {
	bad := func(format string, args ...any) (*openEpisode, int, error) {
		return nil, http.StatusBadRequest, fmt.Errorf(format, args...)
	}
	if err := checkCreate(req); err != nil {
		return bad("%v", err)
	}
	if req.Feedback != "" && !req.Feedback.Valid() {
		return bad("feedback %q: %s", req.Feedback, task.FeedbackChoices())
	}
	if req.Observability != "" && !req.Observability.Valid() {
		return bad("observability %q: partial or full", req.Observability)
	}
	e := &openEpisode{imageSize: req.ImageSize, symbolic: req.Symbolic}
	isTask := req.Family != "" || req.Tier != "" || req.Split != "" || req.Index != 0
	var t *task.Task
	switch {
	case isTask && (req.Seed != nil || req.Ruleset != ""):
		return bad("give a task (family, tier, split, index) or a plain world (seed, ruleset), not both")
	case isTask:
		if !knownFamily(req.Family) {
			return bad("unknown family %q (%s)", req.Family, strings.Join(task.Families(), ", "))
		}
		if _, err := task.TierByName(req.Tier); err != nil {
			return bad("%v", err)
		}
		if !req.Split.Valid() {
			return bad("split %q: train or eval", req.Split)
		}
		// An episode of an embedded suite is its locked task, the one
		// `longcraft score` plays. Any other spec is generated without the
		// planner's certificate (a short budget would leave no certifiable
		// world): info.certified says so, and the world may differ from
		// the certified one score and the browser play for that spec.
		s.frozenOnce.Do(func() { s.frozen, s.frozenErr = suite.LoadFrozen() })
		if s.frozenErr != nil {
			return nil, http.StatusInternalServerError, s.frozenErr
		}
		var ok bool
		var err error
		if t, ok, err = s.frozen.Task(req.Spec); err == nil && !ok {
			t, err = task.Generate(req.Spec, nil)
		}
		if err != nil {
			return nil, http.StatusInternalServerError, err
		}
	case req.Seed != nil:
		name := req.Ruleset
		if name == "" {
			name = sim.ClassicName
		}
		rules, err := sim.RulesByName(name)
		if err != nil {
			return bad("%v", err)
		}
		budget := req.Budget
		if budget == 0 {
			budget = int(rules.Vitals.EpisodeLength)
		}
		if budget == 0 {
			budget = 10000
		}
		fb, view := task.FeedbackFull, task.Partial
		if req.Feedback != "" {
			fb = req.Feedback
		}
		if req.Observability != "" {
			view = req.Observability
		}
		t, e.plain = task.FreePlay(rules, *req.Seed, sim.DefaultSize, budget, fb, view), true
	default:
		return bad("give a task (family, tier, split, index) or a plain world (seed, ruleset)")
	}
	w, err := t.NewWorld()
	if err != nil {
		return nil, http.StatusInternalServerError, err
	}
	e.task, e.rules = t, t.Rules()
	opts := protocol.Options{ImageSize: e.imageSize, Symbolic: e.symbolic}
	var atlas *render.Atlas
	if e.imageSize > 0 {
		s.atlasOnce.Do(func() { s.atlas, s.atlasErr = render.LoadAtlas() })
		if s.atlasErr != nil {
			return nil, http.StatusInternalServerError, s.atlasErr
		}
		atlas = s.atlas
		size := e.imageSize
		opts.Image = func(w *sim.World) ([]byte, error) { return s.png(w, size) } // renderers shared by size
	}
	if e.obs, err = protocol.NewBuilder(t, opts, atlas); err != nil {
		return nil, http.StatusInternalServerError, err
	}
	e.game = episode.New(t, w, episode.Options{Recorder: trace.NewRecorder(t.Budget), Agent: "http"})
	return e, 0, nil
}

func knownFamily(f string) bool {
	for _, k := range task.Families() {
		if k == f {
			return true
		}
	}
	return false
}

func (e *openEpisode) done() bool { return e.game.Over() }

func (e *openEpisode) info(seed *uint64) EpisodeInfo {
	t := e.task
	in := EpisodeInfo{Task: e.obs.Statement(), Ruleset: e.rules.Name, Budget: t.Budget, Feedback: string(t.Feedback),
		Observability: string(t.Observability), ImageSize: e.imageSize, Symbolic: e.symbolic, Actions: e.obs.Actions()}
	if e.plain {
		in.Seed = seed
	} else {
		in.Goal, in.TaskID, in.Certified = t.Goal.String(), t.ID, t.Certified
	}
	return in
}

// stepInfo reports the episode's state; once it is over, its end and the
// metrics a scoring run would record.
func (e *openEpisode) stepInfo() StepInfo {
	g := e.game
	in := StepInfo{Success: g.Success(), Steps: g.Steps(), Return: float64(g.RewardTenths()) / 10, Died: g.World().Dead()}
	if last := g.Last(); last != nil {
		in.Outcome = text.Outcome(*last, e.rules) // at the task's feedback level
	}
	if g.Over() {
		m := g.Metrics()
		in.End, in.Metrics = string(g.End()), &m
	}
	return in
}

// observe builds e's observation; the caller holds e.mu (or owns e).
func (s *Server) observe(e *openEpisode) Observation {
	return *e.obs.Observe(e.game.World(), e.game.Last())
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	e := s.episodeOr404(w, r)
	if e == nil {
		return
	}
	e.mu.Lock()
	resp := StepResponse{ID: e.id, Observation: s.observe(e), Terminated: e.game.Terminated(), Truncated: e.game.Over() && !e.game.Terminated(), Info: e.stepInfo()}
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	e := s.episodeOr404(w, r)
	if e == nil {
		return
	}
	var req StepRequest
	if !s.decode(w, r, &req) {
		return
	}
	if err := checkName("action", req.Action); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	a, ok := e.rules.ActionByName(req.Action)
	e.mu.Lock()
	if e.done() {
		kind := "truncated"
		if e.game.Terminated() {
			kind = "terminated"
		}
		end, steps := e.game.End(), e.game.Steps()
		e.mu.Unlock()
		writeError(w, http.StatusConflict, "episode %s is over (%s: %s after %d steps); create a new one", e.id, kind, end, steps)
		return
	}
	if !ok {
		e.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error":   fmt.Sprintf("unknown action %q; valid actions: %s", req.Action, strings.Join(e.obs.Actions(), ", ")),
			"actions": e.obs.Actions(),
		})
		return
	}
	e.game.Step(a)
	resp := StepResponse{Observation: s.observe(e), Reward: e.game.LastFull().Reward(),
		Terminated: e.game.Terminated(), Truncated: e.game.Over() && !e.game.Terminated(), Info: e.stepInfo()}
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) frame(w http.ResponseWriter, r *http.Request) {
	e := s.episodeOr404(w, r)
	if e == nil {
		return
	}
	size := e.imageSize
	if size == 0 {
		size = DefaultFrameSize
	}
	if q := r.URL.Query().Get("size"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < MinImageSize || n > MaxImageSize {
			writeError(w, http.StatusBadRequest, "size %q: an integer from %d to %d", q, MinImageSize, MaxImageSize)
			return
		}
		size = n
	}
	e.mu.Lock()
	b, err := s.png(e.game.World(), size)
	e.mu.Unlock()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// traceFile serves a finished episode's trace as a one-episode .lctrace
// file, which `longcraft replay` verifies and the browser replays. While
// the episode is played it answers 409: the trace's header names the
// world's seed, which the agent must not read before the end.
func (s *Server) traceFile(w http.ResponseWriter, r *http.Request) {
	e := s.episodeOr404(w, r)
	if e == nil {
		return
	}
	e.mu.Lock()
	if !e.done() {
		steps := e.game.Steps()
		e.mu.Unlock()
		writeError(w, http.StatusConflict, "episode %s is still being played (%d steps): its trace is served once it is over", e.id, steps)
		return
	}
	ep := e.game.Trace()
	e.mu.Unlock()
	var buf bytes.Buffer
	tw, err := trace.NewWriter(e.id, &buf)
	if err == nil {
		err = tw.Append(ep)
	}
	if err == nil {
		err = tw.Close()
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "trace of %s: %v", e.id, err)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", `attachment; filename="`+e.id+`.lctrace"`)
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	_, ok := s.episodes[id]
	delete(s.episodes, id)
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "episode %q not found (never created, deleted, or idle for over %s)", id, s.cfg.Idle)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// png renders the agent view of world at size×size and encodes it.
func (s *Server) png(world *sim.World, size int) ([]byte, error) {
	v, err := s.agentView(size)
	if err != nil {
		return nil, err
	}
	frame := make([]byte, v.FrameBytes())
	v.Render(world, frame)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, render.Image(frame, size, size, v.Format())); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// agentView returns the renderer of size, building it once; at most
// maxViews sizes are kept.
func (s *Server) agentView(size int) (*render.AgentView, error) {
	s.atlasOnce.Do(func() { s.atlas, s.atlasErr = render.LoadAtlas() })
	if s.atlasErr != nil {
		return nil, s.atlasErr
	}
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	if v := s.views[size]; v != nil {
		return v, nil
	}
	v, err := render.NewAgentView(s.atlas, size, render.RGB)
	if err != nil {
		return nil, err
	}
	if len(s.views) >= maxViews {
		for k := range s.views { // evict any one
			delete(s.views, k)
			break
		}
	}
	s.views[size] = v
	return v, nil
}

// decode reads r's JSON body into v, answering 413 when it is over the
// limit and 400 when it is not one JSON object of v's fields; it reports
// whether v was read.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		// One value only: whatever follows must be white space.
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("data after the JSON object")
			var mbe *http.MaxBytesError
			if errors.As(terr, &mbe) {
				err = terr
			}
		}
	}
	if err == nil {
		return true
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, "request body over %d bytes", mbe.Limit)
	case errors.Is(err, io.EOF):
		writeError(w, http.StatusBadRequest, "empty request body: send a JSON object")
	default:
		writeError(w, http.StatusBadRequest, "bad JSON: %v", err)
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": clip(fmt.Sprintf(format, args...))})
}
