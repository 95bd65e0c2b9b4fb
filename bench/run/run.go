// Package run is the scoring runner: it plans a suite (shards, filters,
// the suite lock), generates and certifies each episode's task, plays it
// with an agent from the registry through bench/episode across workers,
// and records results, traces and the summary, with resume and merge.
// What it records is bench/results'; the pages are bench/report's.
//
// It must not import the HTTP server, the browser session or the CLI.
package run

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/longcraft/longcraft/bench/player"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/skill"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/agent/remote"
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/planner"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/internal/workers"
	"github.com/longcraft/longcraft/sim"
)

// Certify is the certifier of generated tasks: the planner on a copy.
func Certify(w *sim.World, goal task.Goal, budget int) (bool, int) {
	return planner.Solve(w, goal, budget)
}

// CertifySkills is the certifier of skill-level tasks: the oracle (the
// skill-level planner) plays a copy of the world through the episode core
// under full observability, within the task's decision and step budgets.
func CertifySkills(t *task.Task, w *sim.World) (bool, int) {
	full := *t
	full.Observability = task.Full
	c := w.Clone()
	e := episode.New(&full, c, episode.Options{})
	o := skill.NewOracle(t.Goal)
	o.Reset(t.Seed)
	for !e.Over() {
		e.SkillText(o.Decide(c, e.LastSkillFull()))
	}
	return e.Success(), e.Steps()
}

// certifiers are the run's certifiers at both action levels.
func certifiers(primitive task.Certifier) task.Certifiers {
	return task.Certifiers{Primitive: primitive, Skills: CertifySkills}
}

// Config is how episodes are played.
type Config struct {
	Agent      string
	Workers    int            // 0: one per core
	Certify    bool           // certify tasks with the planner before playing
	NoProgress int            // end an episode after this many steps without progress (0: never)
	Timeout    time.Duration  // end an episode after this wall-clock time (0: never)
	Traces     bool           // record each episode's trace into Done.Trace
	External   agent.External // settings of external players (openai, exec:CMD)
	// Prices of a model's tokens, US dollars per million (0: cost not
	// measured): the results' cost_usd.
	PriceIn, PriceOut float64
	// Budgets of an external agent: its tokens in one episode, and the
	// tokens and cost of the whole run (0: none). An episode that reaches
	// one ends as budget_tokens or budget_cost; once a run's is reached no
	// other episode starts.
	MaxEpisodeTokens int
	MaxRunTokens     int
	MaxRunCost       float64
	// Build is the code playing (provenance): every results line and
	// trace header records it. Score sets the running binary's
	// (buildinfo.Read) when it is zero; tests inject others.
	Build buildinfo.Build
	spend *spend // the run's, shared by its workers (Score sets it)

	recorded *agent.Recorded // the play of a trace:FILE agent, loaded by Score
	lock     *suite.Lock     // the suite's frozen tasks, by suite position; nil: generate
	salted   *salted         // the run's tasks on held-out seeds (salt.go); nil: public seeds
}

// model is the model an external player asks ("" for other agents).
// prompt is the id of the prompt the run's agent reads, when it reads
// Longcraft's.
func (c Config) prompt() string {
	if k, err := agent.Lookup(c.Agent); err == nil && k.Prompted {
		return player.PromptID()
	}
	return ""
}

func (c Config) model() string {
	if k, err := agent.Lookup(c.Agent); err == nil && k.Remote {
		return c.External.Model
	}
	return ""
}

// resultAgent names the agent of task id's episode in its results line:
// the run's agent, or for recorded play whose play it is (agent.Recorded
// .Label: "trace (planner)").
func (c Config) resultAgent(id string) string {
	if c.recorded != nil {
		return c.recorded.Label(id)
	}
	return c.Agent
}

// summaryAgent names a run's agent in its summary: the run's agent, or
// for recorded play the labels of its lines ("trace (human)"; several
// players' labels joined by ", ").
func summaryAgent(runAgent string, rs []results.Result) string {
	if !agent.IsRecorded(runAgent) {
		return runAgent
	}
	seen := map[string]bool{}
	var labels []string
	for _, r := range rs {
		if !seen[r.Agent] {
			seen[r.Agent] = true
			labels = append(labels, r.Agent)
		}
	}
	if len(labels) == 0 {
		return runAgent
	}
	sort.Strings(labels)
	return strings.Join(labels, ", ")
}

// worker plays episodes on one goroutine, reusing its worlds, recorder
// and external player.
type worker struct {
	ctx    context.Context // cancelled: the episode being played is abandoned
	cfg    Config
	index  int
	worlds map[int]*sim.World // by map size
	rec    *trace.Recorder
	agents *agent.Source // opened on first use; keeps an external player's connection
}

func newWorker(ctx context.Context, cfg Config, index int) *worker {
	return &worker{ctx: ctx, cfg: cfg, index: index, worlds: map[int]*sim.World{}, rec: trace.NewRecorder(10000)}
}

// close releases the worker's external player.
func (p *worker) close() {
	if p.agents != nil {
		_ = p.agents.Close()
	}
}

// source returns the worker's agent source, opening it on first use.
func (p *worker) source() (*agent.Source, error) {
	if p.agents == nil {
		src, err := agent.Open(p.cfg.Agent, agent.Options{External: p.cfg.External, Recorded: p.cfg.recorded, Worker: p.index,
			Remote: remote.Connector{}})
		if err != nil {
			return nil, err
		}
		p.agents = src
	}
	return p.agents, nil
}

// agent returns the worker's agent for task t, whose calls use ctx.
func (p *worker) agent(ctx context.Context, t *task.Task) (agent.Agent, error) {
	src, err := p.source()
	if err != nil {
		return nil, err
	}
	return src.NewIn(ctx, t)
}

// timeoutAt ends the episode's calls (cancel) once the run's --timeout
// has passed since the episode started, so that a call in progress at the
// deadline (a hung agent) is cut short and the episode ends then. It is
// armed when the episode's own clock starts (newEpisode), not before the
// agent is made and reset: an agent's start-up then costs no episode any
// of its time, whatever the number of workers. The returned func disarms it.
func (p *worker) timeoutAt(cancel context.CancelFunc) (stop func() bool) {
	if p.cfg.Timeout <= 0 {
		return func() bool { return false }
	}
	return time.AfterFunc(p.cfg.Timeout, cancel).Stop
}

// world returns the worker's world for t, reset to t's start.
func (p *worker) world(t *task.Task) (*sim.World, error) {
	if w, ok := p.worlds[t.MapSize]; ok {
		if err := t.ResetWorld(w); err == nil {
			return w, nil
		}
	}
	w, err := t.NewWorld()
	if err != nil {
		return nil, err
	}
	p.worlds[t.MapSize] = w
	return w, nil
}

// Play generates the task of spec and plays it with cfg's agent.
func Play(spec task.Spec, cfg Config) results.Result {
	res, _ := PlayTrace(spec, cfg)
	return res
}

// PlayTrace is Play, returning the episode's trace too.
func PlayTrace(spec task.Spec, cfg Config) (results.Result, *trace.Episode) {
	cfg.Traces = true
	w := newWorker(context.Background(), cfg, 0)
	defer w.close()
	res, ep, _ := w.play(0, spec) // never abandoned: the context is never cancelled
	return res, ep
}

// Done is one finished episode, handed to Suite's callback.
type Done struct {
	Result results.Result
	Trace  *trace.Episode // when Config.Traces
	Timing results.Timing // its wall-clock cost (provenance: not part of the result)
}

// Suite plays specs (indices[i] is spec i's position in the expanded
// suite) across cfg.Workers goroutines and hands each finished episode to
// done, one call at a time. Results do not depend on the number of workers
// (each is a function of its spec alone); only the order of the calls
// does. On cancellation it stops starting episodes, abandons running ones
// (cancelling their agents' calls: they get no result, and a resumed run
// plays them again), and returns ctx's error.
func Suite(ctx context.Context, specs []task.Spec, indices []int, cfg Config, done func(Done) error) error {
	if _, err := agent.Lookup(cfg.Agent); err != nil {
		return err
	}
	var mu sync.Mutex
	failed := false // a done error: later episodes are not handed on
	pool := workers.Pool[*worker]{Jobs: len(specs), Workers: cfg.Workers,
		New:     func(k int) (*worker, error) { return newWorker(ctx, cfg, k), nil },
		Release: (*worker).close}
	return pool.Run(ctx, func(p *worker, i int) error {
		if cfg.spend.spent() != "" {
			return nil // the run's budget is spent: no episode starts (Score says so)
		}
		start := time.Now()
		res, ep, err := p.play(indices[i], specs[i])
		if err != nil {
			return nil // abandoned: pool.Run returns ctx's error
		}
		tm := results.Timing{Index: res.Index, ID: res.ID, WallMs: float64(time.Since(start).Microseconds()) / 1000, Decisions: res.Decisions}
		if tm.Decisions > 0 {
			tm.PerStepMs = tm.WallMs / float64(tm.Decisions)
		}
		mu.Lock()
		defer mu.Unlock()
		if failed {
			return nil
		}
		if err := done(Done{Result: res, Trace: ep, Timing: tm}); err != nil {
			failed = true
			return err
		}
		return nil
	})
}
