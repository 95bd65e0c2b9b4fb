package run

import (
	"context"
	"errors"
	"time"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/agent/remote"
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// errAbandoned marks an episode cut short by the run's cancellation: it
// has no result (it did not end by its task's rules), and a resumed run
// plays it again.
var errAbandoned = errors.New("episode abandoned: the run was cancelled")

// play generates the task of spec and plays it; the episode's trace is
// returned when the config records traces. When the worker's context is
// cancelled mid-episode (Ctrl-C) it returns errAbandoned.
func (p *worker) play(index int, spec task.Spec) (results.Result, *trace.Episode, error) {
	res := results.Result{Index: index, ID: spec.ID(), Spec: spec, Agent: p.cfg.resultAgent(spec.ID()), Model: p.cfg.model(), Prompt: p.cfg.prompt(), Build: p.cfg.Build}
	res.End = "error"
	t, err := p.task(index, spec, &res)
	if err != nil {
		res.Err = err.Error()
		return res, nil, nil
	}
	res.Seed, res.Goal, res.Certified, res.PlannerSteps, res.Attempts = t.Seed, t.Goal.String(), t.Certified, t.PlannerSteps, t.Attempts
	res.Observability, res.Feedback = string(t.Observability), string(t.Feedback)
	// The episode's agent calls: the worker's context, ended by the
	// episode's --timeout too (timeoutAt).
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	ea, err := p.episodeAgent(ctx, t)
	if err != nil {
		res.Err = err.Error()
		return res, nil, nil
	}
	m := p.meter(ea.ag)
	e, err := p.newEpisode(t, traceAgent(res.Agent, res.Model))
	if err != nil {
		res.Err = err.Error()
		return res, nil, nil
	}
	defer p.timeoutAt(cancel)()
	res.Ruleset = e.World().Rules().Name
	if err := p.loop(ctx, e, &ea, &m, &res); err != nil {
		return res, nil, err
	}
	if f, ok := ea.ag.(agent.Finisher); ok && !ea.skills {
		f.Finish(e.World(), e.Last()) // the last reply's prediction
	}
	return p.finish(res, e, ea.ag)
}

// task is the task of spec, the index-th episode of the suite: held out
// (salted), rebuilt from the suite's lock, or generated (certified when
// the run certifies). It records in res the id, salt and lock it is of.
func (p *worker) task(index int, spec task.Spec, res *results.Result) (*task.Task, error) {
	if p.cfg.salted != nil {
		t, err := p.cfg.salted.task(index, spec)
		res.ID, res.SaltCommitment, res.Lock = task.SaltedID(res.ID, p.cfg.salted.commitment), p.cfg.salted.commitment, p.cfg.salted.lock
		return t, err
	}
	if p.cfg.lock != nil {
		t, err := p.cfg.lock.Rebuild(index, spec)
		res.Lock = p.cfg.lock.Hash
		return t, err
	}
	var cert task.Certifier
	if p.cfg.Certify {
		cert = Certify
	}
	return task.GenerateWith(spec, certifiers(cert))
}

// episodeAgent is an episode's agent: a policy at the primitive level, a
// decider at the skill level (one loop plays either), and what else it
// does, found once rather than at every step.
type episodeAgent struct {
	ag        any // policy or decider
	policy    agent.Agent
	decider   agent.Decider
	skills    bool
	failer    agent.Failer
	stopper   agent.Stopper
	annotator agent.Annotator
	scorer    agent.Scorer
}

// episodeAgent makes the agent of task t, whose calls use ctx, reset to
// t's seed.
func (p *worker) episodeAgent(ctx context.Context, t *task.Task) (episodeAgent, error) {
	ea := episodeAgent{skills: t.Actions == task.ActionsSkills}
	if ea.skills {
		src, err := p.source()
		if err == nil {
			ea.decider, err = src.NewDeciderIn(ctx, t)
		}
		if err != nil {
			return ea, err
		}
		ea.ag = ea.decider
		ea.decider.Reset(t.Seed)
	} else {
		var err error
		if ea.policy, err = p.agent(ctx, t); err != nil {
			return ea, err
		}
		ea.ag = ea.policy
		ea.policy.Reset(t.Seed)
	}
	ea.failer, _ = ea.ag.(agent.Failer)
	ea.stopper, _ = ea.ag.(agent.Stopper)
	ea.annotator, _ = ea.ag.(agent.Annotator)
	ea.scorer, _ = ea.ag.(agent.Scorer)
	return ea, nil
}

// loop plays e with ea until it is over: each decision asked, paid for
// (m), then played, unless the episode ended meanwhile (its --timeout,
// ctx; the agent's failure; its budget). It returns errAbandoned when
// the run is cancelled or its budget spent.
func (p *worker) loop(ctx context.Context, e *episode.Episode, ea *episodeAgent, m *meter, res *results.Result) error {
	w := e.World()
	for !e.Over() {
		if p.ctx.Err() != nil || p.cfg.spend.spent() != "" {
			return errAbandoned // cancelled, or the run's budget is spent (by another worker)
		}
		if ea.stopper != nil && ea.stopper.Stopped() {
			e.Stop(task.EndStopped) // the recorded player stopped here
			break
		}
		var a sim.Action
		var text string
		if ea.skills {
			text = ea.decider.Decide(w, e.LastSkill())
		} else {
			a = ea.policy.Act(w, e.Last())
		}
		if p.ctx.Err() != nil { // the call was cancelled, not the agent's failure
			return errAbandoned
		}
		// The call is paid for whatever comes of it.
		c := m.charge()
		switch {
		case c.run:
			return errAbandoned // the run's budget is spent: no result, as for Ctrl-C
		case c.noUsage:
			e.Stop(task.EndAgentError)
			res.AgentError = errNoUsage
		}
		if e.Over() {
			break
		}
		if ctx.Err() != nil { // the episode's --timeout cut the call short
			e.Stop(task.EndTimeout)
			break
		}
		// A failed external player answered nothing: its stand-in is not
		// played.
		if ea.failer != nil && ea.failer.Err() != nil {
			e.Stop(task.EndAgentError)
			break
		}
		if ea.skills {
			e.SkillText(text)
		} else {
			e.Step(a)
		}
		if c.episode != "" {
			e.Stop(c.episode) // the reply was paid for and played; no other is asked
		}
		ea.observe(e)
	}
	return nil
}

// observe hands the agent what its decision did: the full outcome to a
// scorer (at the primitive level), and takes an annotator's note.
func (ea *episodeAgent) observe(e *episode.Episode) {
	if ea.scorer != nil && !ea.skills {
		ea.scorer.Observed(e.LastFull())
	}
	if ea.annotator != nil {
		if n, ok := ea.annotator.Note(); ok {
			e.Annotate(n)
		}
	}
}

// newEpisode starts an episode of t on the worker's world for its size,
// with the run's limits and, when it records traces, its recorder, the
// header naming agent.
func (p *worker) newEpisode(t *task.Task, who string) (*episode.Episode, error) {
	w, err := p.world(t)
	if err != nil {
		return nil, err
	}
	opts := episode.Options{NoProgress: p.cfg.NoProgress, Timeout: p.cfg.Timeout, Build: p.cfg.Build}
	if p.cfg.Traces {
		opts.Recorder, opts.Agent, opts.StartUnixMs = p.rec, who, time.Now().UnixMilli()
	}
	return episode.New(t, w, opts), nil
}

// finish fills res from the ended episode e and its agent ag (a policy or
// a decider): the metrics, an external player's error and cost, and the
// trace when the run records them.
func (p *worker) finish(res results.Result, e *episode.Episode, ag any) (results.Result, *trace.Episode, error) {
	res.Metrics = e.Metrics()
	// An agent whose call the episode's deadline cut short did not fail.
	if f, ok := ag.(agent.Failer); ok && f.Err() != nil && res.AgentError == "" && e.End() != task.EndTimeout {
		res.AgentError = f.Err().Error()
	}
	if c, ok := ag.(remote.Coster); ok {
		externalStats(&res, c.Stats(), p.cfg.PriceIn, p.cfg.PriceOut)
	}
	if !p.cfg.Traces {
		return res, nil, nil
	}
	return res, e.Trace(), nil
}
