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
	// Claim by claim, against the baselines (claims): the beliefs' scored
	// claims, the claims left unscored because the observation the
	// player answered states them (copies), and the predictions' claims.
	// Remembered is the part of Beliefs about things out of view
	// (checkRemembered).
	Beliefs      ClaimScore
	BeliefCopies int
	Predictions  ClaimScore
	Remembered   ClaimScore
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
	// The claims' tallies, and what persistence says of the next ones:
	// the outcome kind of the step before the predicted one, the position
	// relative to the start at the last decision (the start is where the
	// first decision was asked).
	beliefs, predictions claims
	remembered           claims   // the beliefs' remembered things, apart (Stats.Remembered)
	rememberedKeys       []string // their fields, by material: "remembered.water"
	persistKind          sim.OutcomeKind
	started              bool
	startX, startY       int
	lastFromStart        int64
}

// NewAgent connects p to task t. The atlas is needed only for images.
func NewAgent(ctx context.Context, p Player, t *task.Task, opts AgentOptions, a *render.Atlas) (*Agent, error) {
	ob, err := protocol.NewBuilder(t, protocol.Options{ImageSize: opts.ImageSize, Symbolic: opts.Symbolic}, a)
	if err != nil {
		return nil, fmt.Errorf("external agent: %w", err)
	}
	keys := make([]string, len(t.Rules().Materials))
	for m, info := range t.Rules().Materials {
		keys[m] = "remembered." + info.Name
	}
	return &Agent{p: p, t: t, opts: opts, obs: ob, ctx: ctx, rememberedKeys: keys}, nil
}

// Reset starts the episode on the player's side. The world seed is the
// runner's agent interface's; it is not passed on to the player.
func (a *Agent) Reset(uint64) {
	a.stats, a.err, a.invalid, a.expect, a.noted, a.hasFull, a.decisions, a.notes = Stats{}, nil, "", nil, false, false, 0, ""
	a.beliefs, a.predictions, a.remembered, a.persistKind, a.started, a.lastFromStart = claims{}, claims{}, claims{}, sim.OutNothing, false, 0
	if err := a.p.Reset(a.ctx, a.t.Describe()); err != nil {
		a.err = fmt.Errorf("agent reset: %w", err)
	}
}

// Err is the transport error that ended the episode, if any.
func (a *Agent) Err() error { return a.err }

// Stats returns the episode's accounting.
func (a *Agent) Stats() Stats {
	s := a.stats
	s.Remembered = a.remembered.score()
	s.Beliefs, s.Predictions = a.beliefs.score().plus(s.Remembered), a.predictions.score()
	return s
}

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
	// What persistence will say of this decision's claims: the step just
	// played happens again, the player is where it was.
	a.persistKind = sim.OutNothing
	if last != nil {
		a.persistKind = a.truth(last).Kind
	}
	if !a.started {
		a.startX, a.startY = w.Player()
		a.started = true
	}
	fromStart, persisted := a.fromStart(w), a.lastFromStart
	a.lastFromStart = fromStart
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
		a.checkBelief(w, reply.Belief, fromStart, persisted)
		// As JSON: fmt would print the position's pointers' addresses.
		if b, err := json.Marshal(reply.Belief); err == nil {
			a.note.Belief = string(b)
		}
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
// right when every scored claim holds. A claim is scored only where the
// observation the player answers does not state it, whatever its
// modalities: every observation carries the text, which states every
// item's count (vitals included; the image shows the inventory too), so
// inventory claims are copies, never scored; under full observability
// the text also states the coordinates (and did at the start), so x, y
// and from_start are copies too. Under partial observability nothing
// states the position: from_start (where the player is relative to its
// start, which it can only know by remembering its moves) is scored, while
// x and y are not, since the player has no frame for coordinates; nor
// does anything state what lies out of view, so remembered things there
// are scored too (checkRemembered). Copies are counted (BeliefCopies); a
// belief with no scored claim is not scored.
// fromStart is the true offset now, persisted the one at the last
// decision ("nothing changes").
func (a *Agent) checkBelief(w *sim.World, b *protocol.Belief, fromStart, persisted int64) {
	claims, ok := 0, true
	a.stats.BeliefCopies += len(b.Inventory)
	full := a.t.Observability == task.Full
	if full {
		for _, p := range []bool{b.X != nil, b.Y != nil, b.FromStart != nil} {
			if p {
				a.stats.BeliefCopies++
			}
		}
	} else if b.FromStart != nil {
		claimed := packOffset(b.FromStart.X, b.FromStart.Y)
		a.beliefs.add("from_start", claimed, fromStart, persisted)
		ok = ok && claimed == fromStart
		claims++
	}
	scored, right := a.checkRemembered(w, b.Remembered)
	claims, ok = claims+scored, ok && right
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

// score compares the previous reply's prediction with what happened:
// the reply is right when every claim held (ExpectCorrect), and each
// claim is tallied against the baselines (Predictions): persistence says
// the step before happens again and no count changes.
func (a *Agent) score(w *sim.World, last *sim.Outcome) {
	e := a.expect
	a.expect = nil
	if e.Outcome == "" && len(e.Inventory) == 0 {
		return // predicts nothing
	}
	a.stats.ExpectChecks++
	ok := e.Outcome == "" || e.Outcome == last.Kind.String()
	// Each field's base rate is taken among the steps that played the
	// same action: a prediction that only says what an action usually
	// does ("a move moves") is a constant given the action, and earns
	// nothing.
	r := w.Rules()
	given := "|" + r.Actions[last.Action].Name
	if e.Outcome != "" {
		a.predictions.add("outcome"+given, outcomeKind(e.Outcome), int64(last.Kind), int64(a.persistKind))
	}
	for name, d := range e.Inventory {
		it, known := r.ItemByName(name)
		change := 0 // an item the rules do not have never changes
		if known {
			change = w.Inventory(it) - a.invBefore[it]
		}
		ok = ok && known && change == d
		a.predictions.add("inventory."+name+given, int64(d), int64(change), 0)
	}
	if ok {
		a.stats.ExpectCorrect++
	}
}

// fromStart is the player's position relative to its start, packed.
func (a *Agent) fromStart(w *sim.World) int64 {
	x, y := w.Player()
	return packOffset(x-a.startX, y-a.startY)
}

// packOffset packs an offset into one value a claim is compared by.
func packOffset(x, y int) int64 { return int64(int32(x))<<32 | int64(uint32(int32(y))) }

// outcomeKind is the kind a prediction names, or -1 for no kind (never
// true).
func outcomeKind(name string) int64 {
	for k := sim.OutcomeKind(0); k.String() != "unknown"; k++ {
		if k.String() == name {
			return int64(k)
		}
	}
	return -1
}
