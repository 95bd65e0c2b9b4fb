package trace

import (
	"fmt"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Divergence describes where a replay left the recording.
type Divergence struct {
	Step int    // the first step (0-based) whose outcome or hash differs; -1: the initial state
	What string // what differs
}

func (d *Divergence) Error() string {
	if d.Step < 0 {
		return "replay diverged before the first step: " + d.What
	}
	return fmt.Sprintf("replay diverged at step %d: %s", d.Step, d.What)
}

// RulesMismatch refuses an episode recorded under another ruleset or
// another version of it than this build's: its actions would not mean the
// same world, so it is not replayed at all.
type RulesMismatch struct {
	Recorded        string // the episode's ruleset
	RecordedVersion int
	Build           string // the ruleset this build has under that name
	BuildVersion    int
}

func (m *RulesMismatch) Error() string {
	return fmt.Sprintf("recorded with rules %s v%d, this build has %s v%d: the replay would not be faithful",
		m.Recorded, m.RecordedVersion, m.Build, m.BuildVersion)
}

// Replay summarises a replayed episode.
type Replay struct {
	Steps       int
	Checkpoints int // checkpoints verified, initial and final included
}

// World builds the world an episode was recorded in: its task's world
// (rules, variants, landmarks) or a plain world of its ruleset and size.
// Traces of other rules versions are refused.
func World(h *Header) (*sim.World, error) {
	var w *sim.World
	if h.Task != nil {
		t, err := task.Rebuild(*h.Task, h.Seed)
		if err != nil {
			return nil, fmt.Errorf("rebuild task: %w", err)
		}
		if w, err = t.NewWorld(); err != nil {
			return nil, err
		}
	} else {
		r, err := sim.RulesByName(h.Ruleset)
		if err != nil {
			return nil, fmt.Errorf("episode outside a task: %w", err)
		}
		if w, err = sim.New(sim.Config{Width: h.MapSize, Height: h.MapSize, Rules: r}); err != nil {
			return nil, err
		}
		w.Reset(h.Seed)
	}
	if err := h.SameRules(w); err != nil {
		return nil, err
	}
	return w, nil
}

// SameRules refuses a world whose rules are not the recorded ones (name
// and version) with a *RulesMismatch: the recorded actions would not mean
// the same world there.
func (h *Header) SameRules(w *sim.World) error {
	if r := w.Rules(); r.Name != h.Ruleset || r.Version != h.RulesVersion {
		return &RulesMismatch{h.Ruleset, h.RulesVersion, r.Name, r.Version}
	}
	return nil
}

// Run re-simulates ep from its seed and actions, checking every outcome
// code and checkpoint; it returns a *Divergence error at the first
// difference.
func Run(ep *Episode) (Replay, error) {
	w, err := World(&ep.Header)
	if err != nil {
		return Replay{}, err
	}
	return RunOn(w, ep)
}

// RunOn replays ep on w, which must be the episode's world, freshly built
// or reset (see World).
func RunOn(w *sim.World, ep *Episode) (Replay, error) {
	var rep Replay
	if h := w.Hash(); h != ep.Initial {
		return rep, &Divergence{Step: -1, What: fmt.Sprintf("initial state hash %016x, recorded %016x", h, ep.Initial)}
	}
	rep.Checkpoints++
	every := ep.CheckpointEvery
	var reward int64
	for i, a := range ep.Actions {
		out := w.Step(sim.Action(a))
		reward += out.RewardTenths()
		if c := OutcomeCode(&out); c != ep.Outcomes[i] {
			wk, wr := DecodeOutcome(ep.Outcomes[i])
			return rep, &Divergence{Step: i, What: fmt.Sprintf("action %s gave %s/%s, recorded %s/%s",
				actionName(w, a), out.Kind, out.Reason, wk, wr)}
		}
		rep.Steps++
		if (i+1)%every == 0 {
			if h := w.Hash(); h != ep.Checkpoints[(i+1)/every-1] {
				return rep, &Divergence{Step: i, What: fmt.Sprintf("state hash %016x after this step, checkpoint %016x", h, ep.Checkpoints[(i+1)/every-1])}
			}
			rep.Checkpoints++
		}
	}
	if h := w.Hash(); h != ep.Final {
		return rep, &Divergence{Step: len(ep.Actions) - 1, What: fmt.Sprintf("final state hash %016x, recorded %016x", h, ep.Final)}
	}
	rep.Checkpoints++
	// The recorded metrics must be the replay's: a trace whose metrics
	// were edited (or written by a buggy recorder) is caught here. Success
	// is the task's judgement, which bench/episode makes; the rest is the
	// world's.
	m := ep.Metrics
	got := Metrics{Success: m.Success, Died: w.Dead(), Steps: len(ep.Actions), Achievements: uint64(w.Achievements()), RewardTenths: reward}
	if got != m {
		return rep, &Divergence{Step: len(ep.Actions) - 1, What: fmt.Sprintf("recorded metrics %s, the replay gives %s", m, got)}
	}
	return rep, nil
}

// String prints metrics for messages.
func (m Metrics) String() string {
	return fmt.Sprintf("{died %t, steps %d, achievements %#x, reward %.1f}", m.Died, m.Steps, m.Achievements, float64(m.RewardTenths)/10)
}

func actionName(w *sim.World, a byte) string {
	if int(a) < len(w.Rules().Actions) {
		return w.Rules().Actions[a].Name
	}
	return fmt.Sprintf("#%d", a)
}
