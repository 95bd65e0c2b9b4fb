package player

import (
	"fmt"

	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// Rescore scores the played replies of a recorded primitive-level
// episode again, as Agent scored them in play: ep's actions are played
// on a fresh world of t (the task rebuilt from the trace's spec and
// seed), and before each step its note's raw reply is parsed and fed to
// a Probe with the world the action was chosen in and the outcome in
// full. The caller has replayed ep (episode.Replay): its actions are
// trusted to be the episode's. A trace without notes is an episode of no reply (a built-in
// agent's): nothing to score. complete is false when the trace does not
// hold every played reply, one note per step: its notes were left out
// (over the trace's bound on an episode's notes), so the replies cannot
// be scored again. A reply the trace cut (trace.WasCut) was over the
// parser's bound, and was invalid in play. A reply that says another
// action than its step played is an error: the runner plays what the
// reply says (noop for an invalid one).
func Rescore(t *task.Task, ep *trace.Episode) (s ReplyStats, complete bool, err error) {
	if t.Actions == task.ActionsSkills {
		return s, false, fmt.Errorf("rescore: %s is played at the skill level, whose replies make no probe claims", t.ID)
	}
	if len(ep.Notes) == 0 {
		return s, true, nil
	}
	if len(ep.Notes) != len(ep.Actions) {
		return s, false, nil
	}
	for i := range ep.Notes {
		if ep.Notes[i].Step != i || trace.LeftOut(&ep.Notes[i]) {
			return s, false, nil
		}
	}
	w, err := t.NewWorld()
	if err != nil {
		return s, false, fmt.Errorf("rescore: rebuild task %s: %w", t.ID, err)
	}
	ob, err := protocol.NewBuilder(t, protocol.Options{}, nil)
	if err != nil {
		return s, false, fmt.Errorf("rescore: %w", err)
	}
	actions := ob.Actions() // what every primitive observation offers
	var p Probe
	p.Reset(t)
	var last *sim.Outcome
	var out sim.Outcome
	for i, a := range ep.Actions {
		if int(a) >= len(w.Rules().Actions) {
			return s, false, fmt.Errorf("step %d plays action %d, which the rules do not have", i, a)
		}
		p.Decide(w, last)
		raw := ep.Notes[i].Raw
		var reply *protocol.Reply
		played := sim.ActNoop // an invalid reply's stand-in
		if r, err := protocol.ParseReply(raw, actions); err == nil && !trace.WasCut(raw) {
			reply = &r
			played, _ = w.Rules().ActionByName(r.Action)
		}
		if reply != nil {
			p.Replied(w, reply) // its belief is of w, before the step
		}
		if sim.Action(a) != played {
			// The runner plays what the reply says: a note that says
			// otherwise is not the step's reply.
			return s, false, fmt.Errorf("step %d plays %s, but its recorded reply says %s", i, w.Rules().Actions[a].Name, w.Rules().Actions[played].Name)
		}
		out = w.Step(sim.Action(a))
		last = &out
		p.Played(reply)
	}
	p.Finish(w, last)
	return p.Stats(), true, nil
}
