package session

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Host is what the browser page drives: the one session on show and how
// it is shown (paused, speed, whether the frame is stale). The page's
// functions (window.longcraft) are its methods one for one, taking the
// page's strings and returning an error's message, so all their logic is
// here and tested natively; the js build only converts arguments.
//
// JavaScript callbacks and Ebiten's Update and Draw run on different
// goroutines, so every method holds the Host's lock.
type Host struct {
	mu     sync.Mutex
	s      *Session
	paused bool
	speed  int  // steps per tick in Watch and Replay
	dirty  bool // the frame shows an older state
}

// NewHost returns a Host with nothing on show, at one step per tick.
func NewHost() *Host { return &Host{speed: 1} }

// Choices are the lists the page offers, from the registries: the page
// hard-codes none of them.
type Choices struct {
	Families []string `json:"families"`
	Tiers    []string `json:"tiers"`
	Agents   []string `json:"agents"`   // the Watch agents (offline ones)
	Feedback []string `json:"feedback"` // feedback levels; "" (the tier's) is the page's default
}

// Choices returns the families, tiers, Watch agents and feedback levels.
func (h *Host) Choices() Choices {
	c := Choices{Families: task.Families(), Agents: Agents()}
	for _, t := range task.Tiers() {
		c.Tiers = append(c.Tiers, t.Name)
	}
	for _, f := range task.FeedbackLevels() {
		c.Feedback = append(c.Feedback, string(f))
	}
	return c
}

// Start shows a new Play or Watch episode of the eval task family/tier at
// index, with feedback overriding the tier's level unless "". mode is
// "play" or "watch"; agent plays a Watch.
func (h *Host) Start(family, tier, index, mode, agentName, feedback string) error {
	i, err := strconv.ParseUint(index, 10, 64)
	if err != nil {
		return fmt.Errorf("seed index %q: not a number", index)
	}
	var m Mode
	switch mode {
	case "play":
		m = Play
	case "watch":
		m = Watch
	default:
		return fmt.Errorf("mode %q: play or watch", mode)
	}
	spec := task.Spec{Family: family, Tier: tier, Split: task.Eval, Index: i, Feedback: task.Feedback(feedback)}
	s, err := New(spec, m, agentName)
	if err != nil {
		return err
	}
	h.show(s, m == Play)
	return nil
}

// LoadTrace shows a Replay of episode (a number; "" is the first) of a
// .lctrace file.
func (h *Host) LoadTrace(data []byte, name, episode string) error {
	if episode == "" {
		episode = "0"
	}
	i, err := strconv.Atoi(episode)
	if err != nil {
		return fmt.Errorf("episode %q: not a number", episode)
	}
	s, err := OpenReplay(name, data, i)
	if err != nil {
		return err
	}
	h.show(s, true)
	return nil
}

// show puts s on show, paused when it waits for keys or a seek.
func (h *Host) show(s *Session, paused bool) {
	h.mu.Lock()
	h.s, h.paused, h.dirty = s, paused, true
	h.mu.Unlock()
}

// Key plays the action bound to a KeyboardEvent.key in Play; it reports
// whether a step was taken.
func (h *Host) Key(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil || h.s.Mode != Play {
		return false
	}
	act, ok := KeyAction(h.s.World.Rules(), key)
	if ok && h.s.Act(act) {
		h.dirty = true
		return true
	}
	return false
}

// Pause pauses ("true") or resumes Watch and Replay.
func (h *Host) Pause(on string) {
	h.mu.Lock()
	h.paused = on == "true"
	h.mu.Unlock()
}

// SetSpeed sets the steps per tick of Watch and Replay, 1 to 1000.
func (h *Host) SetSpeed(n string) error {
	v, err := strconv.Atoi(n)
	if err != nil || v < 1 || v > 1000 {
		return fmt.Errorf("speed %q: 1 to 1000 steps per tick", n)
	}
	h.mu.Lock()
	h.speed = v
	h.mu.Unlock()
	return nil
}

// Step takes one step of Watch or Replay (the page pauses first).
func (h *Host) Step() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s != nil && h.s.Tick() {
		h.dirty = true
	}
}

// Seek moves a Replay to just after step n.
func (h *Host) Seek(n string) error {
	v, err := strconv.Atoi(n)
	if err != nil {
		return fmt.Errorf("seek %q: not a number", n)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil {
		return fmt.Errorf("nothing to seek")
	}
	if err := h.s.Seek(v); err != nil {
		return err
	}
	h.dirty = true
	return nil
}

// HostStatus is the HUD's figures: the session's and whether it is paused.
type HostStatus struct {
	Status
	Paused bool `json:"paused"`
}

// Status returns the HUD's figures as JSON ("{}" with nothing on show).
func (h *Host) Status() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil {
		return "{}"
	}
	b, err := json.Marshal(HostStatus{h.s.Status(), h.paused})
	if err != nil {
		return "{}"
	}
	return string(b)
}

// Recording returns what was played as a .lctrace file.
func (h *Host) Recording(startUnixMs int64) ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil {
		return nil, fmt.Errorf("nothing played yet")
	}
	return h.s.Recording(startUnixMs)
}

// Tick is Ebiten's Update: it advances Watch and Replay by the speed's
// steps unless paused, and pauses at the episode's end; Play waits for
// keys.
func (h *Host) Tick() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil || h.paused || h.s.Mode == Play {
		return
	}
	for range h.speed {
		if !h.s.Tick() {
			h.paused = true
			return
		}
		h.dirty = true
	}
}

// Draw is Ebiten's Draw: it calls render with the world on show when the
// frame is stale, and reports whether anything is on show.
func (h *Host) Draw(render func(*sim.World)) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil {
		return false
	}
	if h.dirty {
		render(h.s.World)
		h.dirty = false
	}
	return true
}
