// Package episode is the one definition of an episode: a task's world
// played step by step, deciding the budget, death, the wall-clock timeout,
// progress and milestones, the task's reward, a typed end and success.
// The runner (bench/run), the HTTP server (bench/serve) and the browser
// session (wasm/session) all play through it, as every host of etcd's raft
// goes through RawNode; none keeps its own copy of these rules. The end and
// success themselves are task.Judge's.
//
// An Episode is synchronous and owns no goroutine; hosts call Step with
// the action their agent chose. It reads a clock only for the timeout,
// through Options.Now. It must not import the runner, the server, the
// players or the renderer, nor do any I/O.
package episode

import (
	"math/bits"
	"time"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/internal/grid"
	"github.com/longcraft/longcraft/sim"
)

// Options are a host's limits and recording. Zero values disable them.
type Options struct {
	// NoProgress ends the episode (no_progress) after this many steps
	// without reaching a milestone or a stage of the goal.
	NoProgress int
	// Timeout ends the episode (timeout) once this much wall-clock time has
	// passed since New, checked after every step.
	Timeout time.Duration
	// Now is the clock Timeout reads; nil means time.Now.
	Now func() time.Time
	// Scratch, when set, is shared with the other episodes the host plays
	// on the same goroutine (nil: the episode keeps its own).
	Scratch *Scratch
	// Bare keeps only what decides the episode's end, success and reward:
	// no behaviour or exploration metrics (they read as zero), for hosts
	// that step millions of episodes for learning (bench/vec).
	Bare bool
	// Recorder records the episode's trace (nil: none). Agent names the
	// player in its header; StartUnixMs is informational.
	Recorder    *trace.Recorder
	Agent       string
	StartUnixMs int64
	// Build is the code playing, which the trace header records
	// (provenance, never replayed).
	Build buildinfo.Build
}

// Episode is one task being played. The fields every step reads and
// writes come first, within the struct's first cache lines: a host
// stepping thousands of episodes in turn (bench/vec) then brings in
// those lines, not the whole struct, whose coverage, tracker and skill
// executor a bare episode never touches.
type Episode struct {
	t            *task.Task
	w            *sim.World
	prog         *task.Progress
	out          sim.Outcome // the last step's outcome, in full
	steps        int
	rewardTenths int64
	end          task.End
	success      bool
	milestones   sim.AchievementSet
	opts         Options

	// seen is out as the agent may see it, derived from out by Last on
	// demand: seenAt is the step it was derived at (0: not yet), so a
	// host that never asks (bench/vec) never filters.
	seen   sim.Outcome
	seenAt int

	start time.Time
	tr    Tracker
	cov   Coverage

	// The skill level (t.Actions == skills): the executor, the decisions
	// taken, the last skill's result, and the decision of the last
	// progress (for NoProgress, counted in decisions there).
	skills        skill.Executor
	decisions     int
	lastSkill     skill.Result
	failedSkills  int
	progressAt    int
	progressStage int
	progressAch   sim.AchievementSet
}

// New starts an episode of task t on w, which must have just been reset to
// t's start (t.NewWorld or t.ResetWorld).
func New(t *task.Task, w *sim.World, opts Options) *Episode {
	e := &Episode{}
	e.Begin(t, w, opts)
	return e
}

// Begin starts e over as a new episode of t on w (just reset), reusing
// its bookkeeping's memory: a host that plays many episodes in turn keeps
// one Episode per world.
func (e *Episode) Begin(t *task.Task, w *sim.World, opts Options) {
	cov, skills, prog := e.cov, e.skills, e.prog
	if prog == nil {
		prog = new(task.Progress)
	}
	prog.Reset(t.Goal, w) // in the last episode's memory
	*e = Episode{t: t, w: w, opts: opts, prog: prog, cov: cov, skills: skills}
	e.tr.Reset(w)
	if !opts.Bare {
		e.cov.Begin(w, opts.Scratch)
	}
	if t.Actions == task.ActionsSkills {
		e.skills.Reset(w, t.Observability == task.Full)
	}
	for _, m := range t.Milestones {
		if a, ok := w.Rules().Achievement(m); ok {
			e.milestones |= 1 << a
		}
	}
	if opts.Timeout > 0 {
		e.start = e.now()
	}
	if opts.Recorder != nil {
		h := Header(t, opts.Agent, opts.StartUnixMs)
		h.Build = opts.Build
		opts.Recorder.Begin(h, w)
	}
	e.judge() // a task could hold at its start (the generators never make one)
}

// Scratch is memory a host may share between the episodes it plays on
// one goroutine, so that each does not keep its own: the flood fill that
// measures the reachable area at the start.
type Scratch struct {
	grid  grid.Grid
	flood grid.Flood // Coverage's fill of the walkable tiles
}

// Header is the trace header of an episode of t played by agent.
func Header(t *task.Task, agent string, startUnixMs int64) trace.Header {
	h := trace.Header{Goal: t.Goal.String(), Budget: t.Budget, Feedback: string(t.Feedback),
		View: string(t.Observability), Agent: agent, StartUnixMs: startUnixMs}
	if t.Spec.Family != "" {
		spec := t.Spec
		h.Task, h.SaltCommitment = &spec, t.SaltCommitment
	}
	return h
}

func (e *Episode) now() time.Time {
	if e.opts.Now != nil {
		return e.opts.Now()
	}
	return time.Now()
}

// Task is the episode's task.
func (e *Episode) Task() *task.Task { return e.t }

// World is the episode's world. Hosts read it (to observe, to render) and
// never step it themselves.
func (e *Episode) World() *sim.World { return e.w }

// Progress follows the goal's stages.
func (e *Episode) Progress() *task.Progress { return e.prog }

// Steps is the number of steps taken.
func (e *Episode) Steps() int { return e.steps }

// Last is the last step's outcome as the agent may see it: filtered by
// the task's feedback level (at none a failure looks like nothing
// happened). Nil before the first step. It derives that outcome on its
// first call after a step and keeps it in e, so it writes: like every
// method of an Episode, it is not for concurrent use.
func (e *Episode) Last() *sim.Outcome {
	if e.steps == 0 {
		return nil
	}
	if e.seenAt != e.steps {
		e.seen, e.seenAt = e.t.Seen(e.out), e.steps
	}
	return &e.seen
}

// LastFull is the last step's outcome in full, for the evaluator (its
// reward, a prediction's scoring); never hand it to an agent. Nil before
// the first step.
func (e *Episode) LastFull() *sim.Outcome {
	if e.steps == 0 {
		return nil
	}
	return &e.out
}

// RewardTenths is the reward so far, in tenths (Crafter's reward: +1 a step
// with a new unlock, ±0.1 per health point).
func (e *Episode) RewardTenths() int64 { return e.rewardTenths }

// End says how the episode ended, or "" while it goes on.
func (e *Episode) End() task.End { return e.end }

// Over reports whether the episode has ended.
func (e *Episode) Over() bool { return e.end != "" }

// Terminated reports a Gymnasium termination: the goal reached or the
// player dead. Every other end is a truncation.
func (e *Episode) Terminated() bool { return e.end == task.EndGoal || e.end == task.EndDeath }

// Success is the task's success by task.Judge, whatever ended the episode.
func (e *Episode) Success() bool { return e.success }

// Step plays action a, unless the episode is over; it reports whether a
// step was taken.
func (e *Episode) Step(a sim.Action) bool {
	if e.end != "" {
		return false
	}
	e.w.StepTo(a, &e.out)
	e.steps++
	before := e.prog.StagesReached()
	reached := e.prog.Update(e.w)
	advanced := reached || e.prog.StagesReached() > before
	e.rewardTenths += e.out.RewardTenths()
	if e.t.Actions == task.ActionsSkills {
		e.skills.Saw(e.w)
	}
	if !e.opts.Bare {
		fresh := e.cov.Step(e.w, &e.out)
		e.tr.Step(e.w, a, &e.out, advanced || e.out.Unlocked&e.milestones != 0, fresh)
	}
	if e.opts.Recorder != nil {
		e.opts.Recorder.Step(a, &e.out, e.w)
	}
	e.judge()
	if e.end == "" && e.opts.NoProgress > 0 && e.t.Actions != task.ActionsSkills && e.steps-e.tr.LastProgress() >= e.opts.NoProgress {
		e.end = task.EndNoProgress
	}
	if e.end == "" && e.opts.Timeout > 0 && e.now().Sub(e.start) > e.opts.Timeout {
		e.end = task.EndTimeout
	}
	return true
}

// judge applies the task's one rule.
func (e *Episode) judge() {
	end, success := e.t.Judge(e.w, e.prog, e.steps, e.decisions)
	e.success = success
	if e.end == "" {
		e.end = end
	}
}

// Stop ends the episode for a host's reason (agent_error, stopped) unless
// it has already ended.
func (e *Episode) Stop(end task.End) {
	if e.end == "" {
		e.end = end
	}
}

// Annotate attaches an agent's note to the last step's trace record.
func (e *Episode) Annotate(n trace.Note) {
	if e.opts.Recorder != nil && e.steps > 0 {
		e.opts.Recorder.Annotate(n)
	}
}

// Metrics are an episode's figures: one results line's outcome fields.
type Metrics struct {
	Success      bool    `json:"success"` // the goal was reached (not merely "done")
	End          string  `json:"end"`     // goal, death, budget, no_progress, timeout, agent_error, stopped
	Steps        int     `json:"steps"`
	Decisions    int     `json:"decisions"`     // the agent's choices: skills at the skill level, steps at the primitive one
	SkillsFailed int     `json:"skills_failed"` // skills that did not succeed (0 at the primitive level)
	Died         bool    `json:"died"`
	Return       float64 `json:"return"`        // Crafter reward summed
	Stages       int     `json:"stages"`        // leaf goals reached
	StagesTotal  int     `json:"stages_total"`  // leaf goals in all
	Milestones   int     `json:"milestones"`    // milestones reached
	MilestonesOf int     `json:"milestones_of"` // milestones listed
	Achievements uint64  `json:"achievements"`  // bit set, ruleset order
	Unlocked     int     `json:"unlocked"`      // achievements unlocked
	// UnlockSteps is the step of each unlock, ascending: the anytime curve
	// of unlocks over steps (results written before it have none).
	UnlockSteps []int  `json:"unlock_steps,omitempty"`
	LastOutcome string `json:"last_outcome"` // what the last action did, in full ("" before any step)
	Behaviour
	Exploration
}

// Metrics returns the episode's figures so far (final once it is over).
func (e *Episode) Metrics() Metrics {
	m := Metrics{Success: e.success, End: string(e.end), Steps: e.steps, Decisions: e.steps, Died: e.w.Dead(),
		Return: float64(e.rewardTenths) / 10, Behaviour: e.tr.Behaviour(), Exploration: e.cov.Exploration()}
	if e.t.Actions == task.ActionsSkills {
		m.Decisions, m.SkillsFailed = e.decisions, e.failedSkills
	}
	m.Stages, m.StagesTotal = e.prog.Stages()
	if e.steps > 0 {
		m.LastOutcome = text.Outcome(e.out, e.w.Rules())
	}
	ach := e.w.Achievements()
	m.Achievements, m.Unlocked = uint64(ach), bits.OnesCount64(uint64(ach))
	m.UnlockSteps = e.tr.UnlockSteps()
	// Milestones: the achievements along the goal's chain, and the goal's
	// stages when it has several (waypoints, sequences).
	m.MilestonesOf = bits.OnesCount64(uint64(e.milestones))
	m.Milestones = bits.OnesCount64(uint64(ach & e.milestones))
	if m.StagesTotal > 1 {
		m.MilestonesOf += m.StagesTotal
		m.Milestones += m.Stages
	}
	return m
}

// Trace returns the episode's trace so far (Options.Recorder), as a copy
// the caller owns; nil when not recording.
func (e *Episode) Trace() *trace.Episode {
	if e.opts.Recorder == nil {
		return nil
	}
	ep := e.opts.Recorder.End(e.w, trace.Metrics{Success: e.success, Died: e.w.Dead(),
		Achievements: uint64(e.w.Achievements()), RewardTenths: e.rewardTenths})
	cp := *ep // the recorder reuses its columns
	cp.Actions = append([]byte(nil), ep.Actions...)
	cp.Outcomes = append([]byte(nil), ep.Outcomes...)
	cp.Checkpoints = append([]uint64(nil), ep.Checkpoints...)
	cp.Notes = append([]trace.Note(nil), ep.Notes...)
	cp.Decisions = append([]trace.Decision(nil), ep.Decisions...)
	return &cp
}
