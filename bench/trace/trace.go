// Package trace records episodes compactly and replays them bit-exactly:
// a header (format and ruleset versions, seed, task, settings, agent),
// per-step columns of actions and outcome codes (one byte each), sparse
// agent notes, and state-hash checkpoints, encoded with msgpack. See
// docs/trace-format.md for the format.
package trace

import (
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/sim"
)

// Version is the trace format's major version. Readers reject traces of a
// later major version.
const Version = 1

// DefaultCheckpointEvery is the default number of steps between state-hash
// checkpoints.
const DefaultCheckpointEvery = 256

// Header says what was played, by whom, on which rules.
type Header struct {
	Version      int
	Ruleset      string // rules name ("classic", "extended", or with "+variants")
	RulesVersion int    // replays of older rules fail loudly
	Seed         uint64 // the world's seed
	MapSize      int
	Task         *task.Spec // nil for an episode outside any task
	Goal         string     // the goal as the agent read it
	Budget       int
	Feedback     string
	View         string // observability
	Agent        string // the agent's name (and model, for external players)
	StartUnixMs  int64  // wall-clock start; informational, never replayed
	// SaltCommitment names the salt the task's world seed was derived
	// from (held-out seeds, bench/task/salt.go); "": public seeds.
	SaltCommitment string
	// Build is the code that recorded the episode (provenance: version,
	// VCS revision, dirty flag); informational, never replayed; zero in
	// traces written before Longcraft recorded it.
	Build buildinfo.Build
}

// EpisodeID is the id of the episode's task as its results line names
// it: the spec's id, salted when the episode was played on held-out seeds;
// "" outside a task.
func (h *Header) EpisodeID() string {
	if h.Task == nil {
		return ""
	}
	return task.SaltedID(h.Task.ID(), h.SaltCommitment)
}

// Note is an agent's annotation of one step: its reasoning, raw model
// output, token count, latency, and stated belief or prediction. Only steps
// with something to say have a note.
type Note struct {
	Step      int
	Reasoning string
	Raw       string
	Tokens    int
	LatencyMs int
	Belief    string
	Scratch   string // the scratchpad notes the agent kept (score --notes)
}

// Metrics are the episode's final figures.
type Metrics struct {
	Success      bool
	Died         bool
	Steps        int
	Achievements uint64 // bit set in ruleset order
	RewardTenths int64  // total reward × 10 (exact: rewards are tenths)
}

// Episode is one recorded episode.
type Episode struct {
	Header          Header
	Actions         []byte // one per step
	Outcomes        []byte // one per step: OutcomeCode
	Notes           []Note
	Decisions       []Decision // skill-level episodes only
	CheckpointEvery int
	// Checkpoints[i] is the state hash after step (i+1)·CheckpointEvery.
	Checkpoints []uint64
	Initial     uint64 // the state hash after Reset, before any step
	Final       uint64 // the state hash after the last step
	Metrics     Metrics
}

// OutcomeCode packs an outcome's kind and reason into one byte.
func OutcomeCode(o *sim.Outcome) byte { return byte(o.Kind)<<4 | byte(o.Reason)&15 }

// DecodeOutcome splits an outcome code.
func DecodeOutcome(c byte) (sim.OutcomeKind, sim.Reason) {
	return sim.OutcomeKind(c >> 4), sim.Reason(c & 15)
}

// Recorder records an episode step by step. Its columns are allocated up
// front for the budget, so Step allocates nothing.
type Recorder struct {
	ep Episode
	// noteBytes counts the kept notes' sizes; notes past maxNoteBytes are
	// dropped (and counted) as they come, so a verbose agent's notes never
	// pile up in memory.
	noteBytes, dropped, droppedBytes int
}

// NewRecorder prepares to record episodes of up to budget steps (longer
// ones still record, growing the columns).
func NewRecorder(budget int) *Recorder {
	r := &Recorder{}
	r.ep.Actions = make([]byte, 0, budget)
	r.ep.Outcomes = make([]byte, 0, budget)
	r.ep.Checkpoints = make([]uint64, 0, budget/DefaultCheckpointEvery+1)
	return r
}

// Begin starts recording an episode of w, just reset, with header h.
func (r *Recorder) Begin(h Header, w *sim.World) {
	h.Version = Version
	h.Ruleset, h.RulesVersion = w.Rules().Name, w.Rules().Version
	h.Seed, h.MapSize = w.Seed(), w.Width()
	r.noteBytes, r.dropped, r.droppedBytes = 0, 0, 0
	r.ep = Episode{
		Header:          h,
		Actions:         r.ep.Actions[:0],
		Outcomes:        r.ep.Outcomes[:0],
		Checkpoints:     r.ep.Checkpoints[:0],
		Decisions:       r.ep.Decisions[:0],
		CheckpointEvery: DefaultCheckpointEvery,
		Initial:         w.Hash(),
	}
}

// Step records one step: the action, its outcome, and a checkpoint when
// one is due.
func (r *Recorder) Step(a sim.Action, o *sim.Outcome, w *sim.World) {
	r.ep.Actions = append(r.ep.Actions, byte(a))
	r.ep.Outcomes = append(r.ep.Outcomes, OutcomeCode(o))
	if len(r.ep.Actions)%r.ep.CheckpointEvery == 0 {
		r.ep.Checkpoints = append(r.ep.Checkpoints, w.Hash())
	}
}

// Annotate attaches an agent's note to the last recorded step. Strings
// over the trace's limit are cut, with a marker; once the episode's notes
// reach maxNoteBytes, further notes are counted and left out, and End adds
// one note saying how many.
func (r *Recorder) Annotate(n Note) {
	n.Step = max(len(r.ep.Actions)-1, 0) // a note before the first step is the first step's
	n = fitNote(n)
	if s := noteSize(&n); r.noteBytes+s > maxNoteBytes {
		r.dropped, r.droppedBytes = r.dropped+1, r.droppedBytes+s
		return
	} else {
		r.noteBytes += s
	}
	r.ep.Notes = append(r.ep.Notes, n)
}

// End closes the episode with its final state and metrics. The returned
// episode shares the recorder's columns until the next Begin.
func (r *Recorder) End(w *sim.World, m Metrics) *Episode {
	r.ep.Final = w.Hash()
	if r.dropped > 0 {
		r.ep.Notes = append(r.ep.Notes, droppedNote(max(len(r.ep.Actions)-1, 0), r.dropped, r.droppedBytes))
		r.dropped = 0
	}
	m.Steps = len(r.ep.Actions)
	r.ep.Metrics = m
	return &r.ep
}

// Decision is one decision of a skill-level episode: the command as the
// agent gave it, the step it began at (the steps before it), and its
// result's code ("ok" or the reason).
type Decision struct {
	Step   int
	Skill  string
	Result string
}

// Decide records a decision that began after step steps.
func (r *Recorder) Decide(step int, skill, result string) {
	r.ep.Decisions = append(r.ep.Decisions, Decision{Step: step, Skill: fitString(skill), Result: result})
}
