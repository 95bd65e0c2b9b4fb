package player

import (
	"context"
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

// Stats is what an external player cost and how well it knew its world.
type Stats struct {
	Usage
	Invalid int // replies that did not parse or named no action: played as noop
	// Beliefs and predictions are scored only when they claim something
	// checkable: an empty one ({} or no field the agent could know) is
	// neither right nor wrong, so a player cannot score by saying nothing.
	BeliefChecks  int // belief statements scored
	BeliefCorrect int // … that matched the state
	ExpectChecks  int // predictions scored (the episode's last one too, by Finish)
	ExpectCorrect int // … that matched what happened
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
	// The last reply's prediction, scored when its outcome arrives,
	// against the outcome in full (Observed), whatever the feedback level
	// let the player read.
	expect    *protocol.Expect
	full      sim.Outcome
	hasFull   bool
	invBefore [sim.MaxItems]int
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
	a.stats, a.err, a.invalid, a.expect, a.noted, a.hasFull, a.decisions, a.notes = Stats{}, nil, "", nil, false, false, 0, ""
	if err := a.p.Reset(a.ctx, a.t.Describe()); err != nil {
		a.err = fmt.Errorf("agent reset: %w", err)
	}
}

// Err is the transport error that ended the episode, if any.
func (a *Agent) Err() error { return a.err }

// Stats returns the episode's accounting.
func (a *Agent) Stats() Stats { return a.stats }

// Note returns the annotation of the last step, if it has one.
func (a *Agent) Note() (trace.Note, bool) { return a.note, a.noted }

// Act asks the player for the next action.
func (a *Agent) Act(w *sim.World, last *sim.Outcome) sim.Action {
	if a.err != nil {
		return sim.ActNoop
	}
	r := w.Rules()
	if a.expect != nil && last != nil {
		a.score(w, a.truth(last))
	}
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
	if err != nil {
		a.stats.Invalid++
		a.invalid = err.Error()
		return sim.ActNoop
	}
	a.invalid = ""
	a.note.Reasoning = reply.Reason
	a.keepNotes(reply.Notes)
	if reply.Belief != nil {
		a.checkBelief(w, reply.Belief)
		a.note.Belief = fmt.Sprint(*reply.Belief)
	}
	a.expect = reply.Expect
	for it := range r.Items {
		a.invBefore[it] = w.Inventory(sim.Item(it))
	}
	act, _ := r.ActionByName(reply.Action)
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
		a.stats.Invalid++
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

// checkBelief scores a belief about the state the action is chosen in:
// right when every claim holds. A position claim counts only when the
// observation gives coordinates (full observability); under partial
// observability the player cannot know them, so they are left unscored.
// A belief with no scored claim is not scored.
func (a *Agent) checkBelief(w *sim.World, b *protocol.Belief) {
	claims, ok := 0, true
	r := w.Rules()
	for name, n := range b.Inventory {
		it, known := r.ItemByName(name)
		ok = ok && known && w.Inventory(it) == n
		claims++
	}
	if a.t.Observability == task.Full {
		x, y := w.Player()
		if b.X != nil {
			ok = ok && *b.X == x
			claims++
		}
		if b.Y != nil {
			ok = ok && *b.Y == y
			claims++
		}
	}
	if claims == 0 {
		return
	}
	a.stats.BeliefChecks++
	if ok {
		a.stats.BeliefCorrect++
	}
}

// Finish scores the prediction of the episode's last reply against the
// last outcome; the runner calls it when the episode ends.
func (a *Agent) Finish(w *sim.World, last *sim.Outcome) {
	if a.expect != nil && last != nil {
		a.score(w, a.truth(last))
	}
	a.expect = nil
}

// Observed gives the evaluator's full outcome of the step just played
// (agent.Scorer): predictions are scored against what happened, not
// against what the feedback level let the player read (at none, a failed
// action reads as nothing happening).
func (a *Agent) Observed(full *sim.Outcome) {
	a.full, a.hasFull = *full, true
}

// truth is the outcome a prediction is scored against: the full one when
// the host gave it, else the one the player read.
func (a *Agent) truth(last *sim.Outcome) *sim.Outcome {
	if a.hasFull {
		return &a.full
	}
	return last
}

// score compares the previous reply's prediction with what happened.
func (a *Agent) score(w *sim.World, last *sim.Outcome) {
	e := a.expect
	a.expect = nil
	if e.Outcome == "" && len(e.Inventory) == 0 {
		return // predicts nothing
	}
	a.stats.ExpectChecks++
	ok := e.Outcome == "" || e.Outcome == last.Kind.String()
	r := w.Rules()
	for name, d := range e.Inventory {
		it, known := r.ItemByName(name)
		ok = ok && known && w.Inventory(it)-a.invBefore[it] == d
	}
	if ok {
		a.stats.ExpectCorrect++
	}
}
