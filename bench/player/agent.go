package player

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
)

// AgentOptions say what an external player sees.
type AgentOptions struct {
	ImageSize     int           // PNG agent view of this size in each observation (0: none)
	Symbolic      bool          // the semantic local view in each observation (9×9, or Crafter's 9×7)
	InvalidNotice bool          // tell the player when its last reply was rejected (as BALROG does)
	Notes         bool          // the scratchpad: show the player the notes of its last reply
	StepTimeout   time.Duration // per step, transport retries included (0: none)
}

// Stats is what an external player cost and what its played replies
// show (ReplyStats: invalid outputs, the knowledge probes).
type Stats struct {
	Usage
	ReplyStats
}

// Agent plays a task through a Player, as the runner's agents do: it
// builds each observation (the last outcome filtered by the task's
// feedback level, an image and the symbolic view when asked), validates
// the reply, plays noop for an invalid one, scores beliefs and
// predictions, and keeps a trace note per step. A transport error ends the
// episode: Act then returns noop and Err reports it.
type Agent struct {
	p    Player
	t    *task.Task
	opts AgentOptions
	obs  *protocol.Builder
	ctx  context.Context

	stats     Stats
	err       error
	decisions int    // decisions asked this episode (the skill level)
	notes     string // the last reply's notes, shown back with the scratchpad on
	invalid   string // why the last reply was rejected
	note      trace.Note
	noted     bool
	// The replies' scoring (the probes, invalid outputs), and the reply
	// of the step being played, scored once the host says it was played
	// (Observed): nil for an invalid one.
	probe   Probe
	reply   *protocol.Reply
	replied bool
	full    sim.Outcome
	hasFull bool
	// Invalid decisions at the skill level, where the probes are not
	// asked for.
	skillInvalid int
}

// NewAgent connects p to task t. The atlas is needed only for images.
func NewAgent(ctx context.Context, p Player, t *task.Task, opts AgentOptions, a *render.Atlas) (*Agent, error) {
	ob, err := protocol.NewBuilder(t, protocol.Options{ImageSize: opts.ImageSize, Symbolic: opts.Symbolic}, a)
	if err != nil {
		return nil, fmt.Errorf("external agent: %w", err)
	}
	return &Agent{p: p, t: t, opts: opts, obs: ob, ctx: ctx}, nil
}

// Reset starts the episode on the player's side. The world seed is the
// runner's agent interface's; it is not passed on to the player.
func (a *Agent) Reset(uint64) {
	a.stats, a.err, a.invalid, a.noted, a.hasFull, a.decisions, a.notes = Stats{}, nil, "", false, false, 0, ""
	a.probe.Reset(a.t)
	a.reply, a.replied, a.skillInvalid = nil, false, 0
	if err := a.p.Reset(a.ctx, a.t.Describe()); err != nil {
		a.err = fmt.Errorf("agent reset: %w", err)
	}
}

// Err is the transport error that ended the episode, if any.
func (a *Agent) Err() error { return a.err }

// Stats returns the episode's accounting.
func (a *Agent) Stats() Stats {
	s := a.stats
	s.ReplyStats = a.probe.Stats()
	s.Invalid += a.skillInvalid
	return s
}

// Note returns the annotation of the last step, if it has one.
func (a *Agent) Note() (trace.Note, bool) { return a.note, a.noted }

// Act asks the player for the next action.
func (a *Agent) Act(w *sim.World, last *sim.Outcome) sim.Action {
	if a.err != nil {
		return sim.ActNoop
	}
	var full *sim.Outcome
	if last != nil {
		full = a.truth(last)
	}
	a.probe.Decide(w, full)
	a.reply, a.replied = nil, false
	obs := a.observe(w, last)
	ctx, cancel := a.stepContext()
	defer cancel()
	raw, ok := a.ask(ctx, obs)
	if !ok {
		return sim.ActNoop
	}
	reply, err := protocol.ParseReply(raw, obs.Actions)
	if ctx.Err() != nil && a.ctx.Err() == nil {
		// The step timeout covers reading the reply too.
		a.err = fmt.Errorf("agent: reply not read within the step timeout %s: %w", a.opts.StepTimeout, ctx.Err())
		return sim.ActNoop
	}
	a.replied = true
	if err != nil {
		a.invalid = err.Error()
		return sim.ActNoop
	}
	a.reply = &reply
	a.probe.Replied(w, a.reply) // its belief is of w, the world it chose in
	a.invalid = ""
	a.note.Reasoning = reply.Reason
	a.keepNotes(reply.Notes)
	if reply.Belief != nil {
		// As JSON: fmt would print the position's pointers' addresses.
		if b, err := json.Marshal(reply.Belief); err == nil {
			a.note.Belief = string(b)
		}
	}
	act, _ := w.Rules().ActionByName(reply.Action)
	return act
}

// Decide asks the player for the next skill (skill.Agent): the
// observation at the skill level, the reply's action a skill command. An
// invalid reply is counted and returned as it came, so that the episode
// plays it as an invalid decision (no step, one decision); a transport
// error ends the episode (Err).
func (a *Agent) Decide(w *sim.World, last *skill.Result) string {
	if a.err != nil {
		return ""
	}
	obs := a.obs.ObserveSkill(w, last, max(a.t.Decisions-a.decisions, 0))
	a.decisions++
	if a.opts.InvalidNotice && a.invalid != "" {
		obs.Invalid = a.invalid
	}
	if a.opts.Notes {
		obs.Notes = a.notes
	}
	ctx, cancel := a.stepContext()
	defer cancel()
	raw, ok := a.ask(ctx, obs)
	if !ok {
		return ""
	}
	reply, err := protocol.ParseSkillReply(raw, w.Rules())
	if err != nil {
		a.skillInvalid++
		a.invalid = err.Error()
		return reply.Action // the episode says why it is not a skill
	}
	a.invalid = ""
	a.note.Reasoning = reply.Reason
	a.keepNotes(reply.Notes)
	return reply.Action
}

// keepNotes keeps a reply's notes for the next observation and the
// trace, cut to the scratchpad's bound; a reply without notes keeps the
// previous ones (the model need not repeat them).
func (a *Agent) keepNotes(n string) {
	if !a.opts.Notes || n == "" {
		return
	}
	if len(n) > notesMax {
		cut := notesMax
		for cut > 0 && !utf8.RuneStart(n[cut]) {
			cut--
		}
		n = n[:cut]
	}
	a.notes = n
	a.note.Scratch = n
}

// stepContext is the context of one step's exchange: the episode's,
// bounded by the step timeout when there is one.
func (a *Agent) stepContext() (context.Context, context.CancelFunc) {
	if a.opts.StepTimeout > 0 {
		return context.WithTimeout(a.ctx, a.opts.StepTimeout)
	}
	return a.ctx, func() {}
}

// ask sends obs and returns the raw reply, accounting for its cost and
// keeping the step's note; false when the transport failed (Err).
func (a *Agent) ask(ctx context.Context, obs *protocol.Observation) (string, bool) {
	start := time.Now()
	raw, u, err := a.p.Act(ctx, obs)
	a.stats.Add(u)
	a.note, a.noted = trace.Note{Raw: raw, Tokens: u.PromptTokens + u.CompletionTokens, LatencyMs: int(time.Since(start).Milliseconds())}, true
	if err != nil {
		a.err = fmt.Errorf("agent: %w", err)
		return "", false
	}
	return raw, true
}

// observe builds the observation of w through the one builder, adding the
// notice of a rejected reply when asked for.
func (a *Agent) observe(w *sim.World, last *sim.Outcome) *protocol.Observation {
	obs := a.obs.Observe(w, last)
	if a.opts.InvalidNotice && a.invalid != "" {
		obs.Invalid = a.invalid
	}
	if a.opts.Notes {
		obs.Notes = a.notes
	}
	return obs
}

// Finish scores the prediction of the episode's last played reply
// against the last outcome; the runner calls it when the episode ends.
func (a *Agent) Finish(w *sim.World, last *sim.Outcome) {
	if last != nil {
		last = a.truth(last)
	}
	a.probe.Finish(w, last)
}

// Observed gives the evaluator's full outcome of the step just played
// (agent.Scorer): the step's reply is scored now that it was played, and
// predictions against what happened, not against what the feedback
// level let the player read (at none, a failed action reads as nothing
// happening).
func (a *Agent) Observed(full *sim.Outcome) {
	a.full, a.hasFull = *full, true
	if a.replied {
		a.probe.Played(a.reply)
		a.reply, a.replied = nil, false
	}
}

// truth is the outcome a prediction is scored against: the full one when
// the host gave it, else the one the player read.
func (a *Agent) truth(last *sim.Outcome) *sim.Outcome {
	if a.hasFull {
		return &a.full
	}
	return last
}
