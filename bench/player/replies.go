package player

import (
	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// ReplyStats is what an episode's played replies show, scored by the
// evaluator: the replies that could not be used, and the knowledge
// probes. Every figure rests on the replies and the world alone, both in
// the trace (a step's note keeps its raw reply), so that longcraft verify
// recomputes them (Rescore) with the very code that scored them in play.
type ReplyStats struct {
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

// Probe scores one episode's played replies, decision by decision: the
// one scoring of the probes, fed by Agent during play and by Rescore
// from a trace. Only a played reply is scored (Played): a reply whose
// step a host stopped before playing it (a timeout, a spent budget) is
// in no trace, and counts for nothing.
//
// Per primitive decision, in order: Decide with the world the action is
// chosen in and the last step's outcome in full; Replied with that world
// and the reply, if it could be used, before its step is played (its
// belief is of that world); Played with the reply once its step is
// played (nil for an invalid one); after the last step, Finish.
type Probe struct {
	full  bool       // full observability: the text states the coordinates
	view  sim.Window // the local view the text and the symbolic view cover
	stats ReplyStats
	// The claims' tallies, and what persistence says of the next ones:
	// the outcome kind of the step before the predicted one, the position
	// relative to the start at the last decision (the start is where the
	// first decision was asked).
	beliefs, predictions claims
	persistKind          sim.OutcomeKind
	started              bool
	startX, startY       int
	lastFromStart        int64
	// The decision being made: the true offset from the start now and
	// at the last decision, and the inventory its step starts from.
	fromStart, persisted int64
	invBefore            [sim.MaxItems]int
	// The last played reply's prediction, scored at the next decision or
	// by Finish, against the outcome in full.
	expect *protocol.Expect
	// The beliefs' remembered things, tallied apart (Stats.Remembered),
	// under their fields by material ("remembered.water").
	remembered     claims
	rememberedKeys []string
	// The belief of the reply Replied was given, judged on the world it
	// was chosen in and counted once Played says its step was played.
	pending pendingBelief
}

// pendingBelief is a belief judged and not yet counted.
type pendingBelief struct {
	reply     *protocol.Reply // whose belief it is (nil: none)
	copies    int
	fromStart bool  // from_start was claimed (and is scored)
	claimed   int64 // … as this offset
	things    [protocol.MaxRemembered]judgedThing
	n         int
	scored    bool // some claim was scored
	ok        bool // … and every scored claim held
}

// judgedThing is one remembered thing's claim: its material, whether it
// held, and whether each baseline held on its tile.
type judgedThing struct {
	m                       sim.Material
	right, nearest, typical bool
}

// Reset starts an episode of task t.
func (p *Probe) Reset(t *task.Task) {
	keys := p.rememberedKeys
	if len(keys) != len(t.Rules().Materials) {
		keys = make([]string, len(t.Rules().Materials))
		for m, info := range t.Rules().Materials {
			keys[m] = "remembered." + info.Name
		}
	}
	*p = Probe{full: t.Observability == task.Full, view: t.View.Window(), beliefs: claims{}, predictions: claims{}, remembered: claims{},
		rememberedKeys: keys, persistKind: sim.OutNothing}
}

// Stats totals the episode's replies so far.
func (p *Probe) Stats() ReplyStats {
	s := p.stats
	s.Remembered = p.remembered.score()
	s.Beliefs, s.Predictions = p.beliefs.score().plus(s.Remembered), p.predictions.score()
	return s
}

// Decide opens a decision in w, after the step whose full outcome is last
// (nil before the first step): the last played reply's prediction is
// scored, and what this decision's belief is judged by is taken.
func (p *Probe) Decide(w *sim.World, last *sim.Outcome) {
	if p.expect != nil && last != nil {
		p.score(w, last)
	}
	p.expect = nil
	// What persistence will say of this decision's claims: the step just
	// played happens again, the player is where it was.
	p.persistKind = sim.OutNothing
	if last != nil {
		p.persistKind = last.Kind
	}
	if !p.started {
		p.startX, p.startY = w.Player()
		p.started = true
	}
	x, y := w.Player()
	p.fromStart, p.persisted = packOffset(x-p.startX, y-p.startY), p.lastFromStart
	p.lastFromStart = p.fromStart
	for it := range w.Rules().Items {
		p.invBefore[it] = w.Inventory(sim.Item(it))
	}
}

// Replied judges the belief of reply, the decision's usable reply, on w,
// the world it was chosen in (before its step is played); Played counts
// it if its step is played.
func (p *Probe) Replied(w *sim.World, reply *protocol.Reply) {
	p.pending = pendingBelief{reply: reply}
	if reply.Belief != nil {
		p.judgeBelief(w, reply.Belief)
	}
}

// Played scores the reply of the decision Decide opened, now that its
// step was played: nil is a reply that could not be used (played as
// noop). Its belief (judged by Replied) is counted now, its prediction
// scored at the next Decide or Finish.
func (p *Probe) Played(reply *protocol.Reply) {
	b := p.pending
	p.pending = pendingBelief{}
	if reply == nil {
		p.stats.Invalid++
		return
	}
	if b.reply == reply {
		p.countBelief(&b)
	}
	p.expect = reply.Expect
}

// Finish scores the last played reply's prediction against the last
// step's outcome in full, in w as it ended.
func (p *Probe) Finish(w *sim.World, last *sim.Outcome) {
	if p.expect != nil && last != nil {
		p.score(w, last)
	}
	p.expect = nil
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
// belief with no scored claim is not scored. It is judged by the true
// offset at the decision, and "nothing changes" by the one at the
// decision before.
func (p *Probe) judgeBelief(w *sim.World, b *protocol.Belief) {
	pb := &p.pending
	pb.ok = true
	pb.copies += len(b.Inventory)
	if p.full {
		for _, c := range []bool{b.X != nil, b.Y != nil, b.FromStart != nil} {
			if c {
				pb.copies++
			}
		}
	} else if b.FromStart != nil {
		pb.fromStart, pb.claimed = true, packOffset(b.FromStart.X, b.FromStart.Y)
		pb.ok = pb.ok && pb.claimed == p.fromStart
		pb.scored = true
	}
	p.checkRemembered(w, b.Remembered)
}

// countBelief counts a judged belief: its copies, its claims against the
// baselines, and the belief as right when every scored claim held.
func (p *Probe) countBelief(b *pendingBelief) {
	p.stats.BeliefCopies += b.copies
	if b.fromStart {
		p.beliefs.add("from_start", b.claimed, p.fromStart, p.persisted)
	}
	for _, t := range b.things[:b.n] {
		p.remembered.judge(p.rememberedKeys[t.m], t.right, t.nearest, t.typical)
	}
	if !b.scored {
		return
	}
	p.stats.BeliefChecks++
	if b.ok {
		p.stats.BeliefCorrect++
	}
}

// score compares the last played reply's prediction with what happened
// (last, in full, leading to w): the reply is right when every claim
// held (ExpectCorrect), and each claim is tallied against the baselines
// (Predictions): persistence says the step before happens again and no
// count changes.
func (p *Probe) score(w *sim.World, last *sim.Outcome) {
	e := p.expect
	p.expect = nil
	if e.Outcome == "" && len(e.Inventory) == 0 {
		return // predicts nothing
	}
	p.stats.ExpectChecks++
	ok := e.Outcome == "" || e.Outcome == last.Kind.String()
	// Each field's base rate is taken among the steps that played the
	// same action: a prediction that only says what an action usually
	// does ("a move moves") is a constant given the action, and earns
	// nothing.
	r := w.Rules()
	given := "|" + r.Actions[last.Action].Name
	if e.Outcome != "" {
		p.predictions.add("outcome"+given, outcomeKind(e.Outcome), int64(last.Kind), int64(p.persistKind))
	}
	for name, d := range e.Inventory {
		it, known := r.ItemByName(name)
		if !known {
			// The reply is wrong, but a name the rules do not have is no
			// claim to tally: any number of them would each be a field of
			// its own, held for the episode.
			ok = false
			continue
		}
		change := w.Inventory(it) - p.invBefore[it]
		ok = ok && change == d
		p.predictions.add("inventory."+name+given, int64(d), int64(change), 0)
	}
	if ok {
		p.stats.ExpectCorrect++
	}
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
