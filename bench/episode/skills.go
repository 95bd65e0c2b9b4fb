package episode

import (
	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Decisions is the number of decisions taken: skills at the skill level,
// steps at the primitive one.
func (e *Episode) Decisions() int {
	if e.t.Actions == task.ActionsSkills {
		return e.decisions
	}
	return e.steps
}

// LastSkill is the last skill's result as the agent may read it at the
// task's feedback level (nil at none, and before the first decision).
func (e *Episode) LastSkill() *skill.Result {
	if e.decisions == 0 {
		return nil
	}
	return skill.Filter(e.lastSkill, e.t.Feedback)
}

// LastSkillFull is the last skill's result in full, for the evaluator.
func (e *Episode) LastSkillFull() *skill.Result {
	if e.decisions == 0 {
		return nil
	}
	return &e.lastSkill
}

// SkillText parses and plays one decision written as text ("collect
// wood"). A command that is not a skill takes no step and still counts as
// a decision (its result says invalid), as an invalid primitive reply
// costs a step: an agent cannot stall for free.
func (e *Episode) SkillText(text string) skill.Result {
	if e.end != "" {
		return skill.Result{Skill: text, Reason: skill.ReasonInterrupted, Detail: "episode over"}
	}
	c, err := skill.Parse(text, e.w.Rules())
	if err != nil {
		return e.decide(text, skill.Result{Skill: text, Reason: skill.ReasonInvalid, Detail: err.Error()})
	}
	return e.Skill(c)
}

// Skill plays one skill to its end: the executor's primitive steps, each
// through Step (so each counts against the step budget and the one rule
// of the episode's end applies after it), then one decision. It returns
// the full result; agents read LastSkill. The episode must be at the
// skill level.
func (e *Episode) Skill(c skill.Command) skill.Result {
	if e.end != "" {
		return skill.Result{Skill: c.String(), Reason: skill.ReasonInterrupted, Detail: "episode over"}
	}
	done, res := e.skills.Begin(e.w, c)
	var last *sim.Outcome // the skill's own last step, in full
	for !done {
		var a sim.Action
		if a, done, res = e.skills.Next(e.w, last); done {
			break
		}
		e.Step(a)
		last = &e.out
		if e.end != "" {
			res = e.cut(c)
			break
		}
	}
	return e.decide(c.String(), res)
}

// cut is the result of a skill the episode's end interrupted.
func (e *Episode) cut(c skill.Command) skill.Result {
	res := skill.Result{Skill: c.String(), Reason: skill.ReasonInterrupted, Detail: string(e.end)}
	switch {
	case e.end == task.EndGoal:
		res = skill.Result{Skill: c.String(), OK: true, Detail: "goal reached"}
	case e.w.Dead():
		res.Detail = "death"
	}
	res.Steps = e.skills.Steps()
	return res
}

// decide counts one decision with its result, records it, and applies
// the episode's end.
func (e *Episode) decide(text string, res skill.Result) skill.Result {
	e.decisions++
	if !res.OK {
		e.failedSkills++
	}
	e.lastSkill = res
	if e.opts.Recorder != nil {
		e.opts.Recorder.Decide(e.steps-res.Steps, text, res.Code())
	}
	if e.prog.StagesReached() > e.progressStage || e.w.Achievements()&e.milestones != e.progressAch {
		e.progressStage, e.progressAch, e.progressAt = e.prog.StagesReached(), e.w.Achievements()&e.milestones, e.decisions
	}
	e.judge()
	if e.end == "" && e.opts.NoProgress > 0 && e.decisions-e.progressAt >= e.opts.NoProgress {
		e.end = task.EndNoProgress
	}
	// A decision that took no step is timed too: failing skills must not
	// outlast the timeout.
	if e.end == "" && e.opts.Timeout > 0 && e.now().Sub(e.start) > e.opts.Timeout {
		e.end = task.EndTimeout
	}
	return res
}

// CopyFrom makes e a copy of src played on e's own world, which the
// caller has made a copy of src's (sim.World.CopyFrom): a branch of the
// episode for planners and counterfactual probes. The branch records no
// trace. It allocates only when e's bookkeeping is smaller than src's.
func (e *Episode) CopyFrom(src *Episode) {
	w, prog, cov, skills := e.w, e.prog, e.cov, e.skills
	*e = *src
	e.w = w
	if prog == nil || prog == src.prog {
		prog = new(task.Progress)
	}
	prog.CopyFrom(src.prog)
	e.prog = prog
	e.cov = src.cov
	e.cov.CopyInto(&cov)
	e.cov = cov
	e.skills = skills
	e.skills.CopyFrom(&src.skills)
	e.opts.Recorder = nil
}
