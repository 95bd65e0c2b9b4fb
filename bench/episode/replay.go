package episode

import (
	"errors"
	"fmt"
	"slices"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// Replay plays a recorded episode again through this package's rule: its
// task rebuilt from the trace's spec and seed, its recorded actions (at
// the skill level, its recorded decisions) played in order, and the
// replay's own trace compared with the recording, outcome by outcome,
// checkpoint by checkpoint, down to the final hash and metrics. It is the
// one place a trace turns into an episode's figures: the returned
// episode's Metrics are what the trace proves, whatever a results line
// says. noProgress is the run's --no-progress (it decides an end); the
// wall-clock timeout is not replayed, so an episode that a host stopped
// (timeout, agent_error, stopped, a budget of tokens) replays as not over.
// A *trace.Divergence says where the recording and the replay part.
func Replay(rec *trace.Episode, noProgress int) (*Episode, error) {
	h := &rec.Header
	if h.Task == nil {
		return nil, errors.New("the episode was played outside any task")
	}
	t, err := task.Rebuild(*h.Task, h.Seed)
	if err != nil {
		return nil, fmt.Errorf("rebuild task: %w", err)
	}
	w, err := t.NewWorld()
	if err != nil {
		return nil, fmt.Errorf("rebuild task %s: %w", t.ID, err)
	}
	if err := h.SameRules(w); err != nil {
		return nil, err
	}
	if hash := w.Hash(); hash != rec.Initial {
		return nil, &trace.Divergence{Step: -1, What: fmt.Sprintf("initial state hash %016x, recorded %016x", hash, rec.Initial)}
	}
	e := New(t, w, Options{NoProgress: noProgress, Recorder: trace.NewRecorder(len(rec.Actions)), Agent: h.Agent, StartUnixMs: h.StartUnixMs, Build: h.Build})
	if t.Actions == task.ActionsSkills {
		for i, d := range rec.Decisions {
			if e.Over() {
				return nil, &trace.Divergence{Step: e.Steps(), What: fmt.Sprintf("the episode ended (%s) after %d decisions; the trace records %d", e.End(), i, len(rec.Decisions))}
			}
			e.SkillText(d.Skill)
		}
	} else {
		for i, a := range rec.Actions {
			if e.Over() {
				return nil, &trace.Divergence{Step: i, What: fmt.Sprintf("the episode ended (%s) after %d steps; the trace records %d", e.End(), i, len(rec.Actions))}
			}
			e.Step(sim.Action(a))
			if c := trace.OutcomeCode(e.LastFull()); c != rec.Outcomes[i] {
				k, r := trace.DecodeOutcome(rec.Outcomes[i])
				return nil, &trace.Divergence{Step: i, What: fmt.Sprintf("action %d gave %s/%s, recorded %s/%s", a, e.LastFull().Kind, e.LastFull().Reason, k, r)}
			}
		}
	}
	if err := sameRecording(e.Trace(), rec); err != nil {
		return nil, err
	}
	return e, nil
}

// sameRecording compares a replay's trace with the recorded one.
func sameRecording(got, rec *trace.Episode) error {
	if i := firstDifference(got.Actions, rec.Actions); i >= 0 {
		return &trace.Divergence{Step: i, What: fmt.Sprintf("the replay's %d actions differ from the %d recorded (the decisions played other steps)", len(got.Actions), len(rec.Actions))}
	}
	if i := firstDifference(got.Outcomes, rec.Outcomes); i >= 0 {
		return &trace.Divergence{Step: i, What: "outcome differs from the recorded one"}
	}
	if got.CheckpointEvery == rec.CheckpointEvery {
		if i := firstDifference(got.Checkpoints, rec.Checkpoints); i >= 0 {
			return &trace.Divergence{Step: (i+1)*rec.CheckpointEvery - 1, What: "state hash differs from the checkpoint"}
		}
	}
	last := len(rec.Actions) - 1
	if got.Final != rec.Final {
		return &trace.Divergence{Step: last, What: fmt.Sprintf("final state hash %016x, recorded %016x", got.Final, rec.Final)}
	}
	if !slices.Equal(got.Decisions, rec.Decisions) {
		return &trace.Divergence{Step: last, What: "the replay's decisions or their results differ from the recorded ones"}
	}
	if got.Metrics != rec.Metrics {
		return &trace.Divergence{Step: last, What: fmt.Sprintf("recorded metrics %+v, the replay gives %+v", rec.Metrics, got.Metrics)}
	}
	return nil
}

// firstDifference is the first index where a and b differ (the shorter's
// length when one is a prefix of the other), or -1.
func firstDifference[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
