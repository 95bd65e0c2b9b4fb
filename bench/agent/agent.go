// Package agent is the one registry of agents: every agent a run, the
// browser or a command plays — the built-in policies, the planner,
// external players (openai, exec:CMD) and recorded play (trace:FILE) —
// comes from New or a Source by name, and what an agent can do beyond
// acting is told by the optional interfaces it implements (Failer,
// Annotator, Stopper, Finisher, Coster), in the way io.WriterTo extends
// io.Writer. No caller compares agent names; the help and the validation
// of every --agent flag are generated from Kinds.
//
// It owns the construction of agents only: episodes are bench/episode's,
// observations bench/protocol's, transports bench/player's. It must not
// import the runner, the server or the browser session.
package agent

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/longcraft/longcraft/bench/planner"
	"github.com/longcraft/longcraft/bench/policy"
	"github.com/longcraft/longcraft/bench/skill"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// Agent chooses each action from the world and the outcome of its last
// action, as the task's feedback level lets it read it. Reset starts an
// episode with a seed for the agent's own randomness; the runner passes
// the task's world seed, which built-in policies may use but external
// players are never told.
type Agent = policy.Policy

// Decider is an agent of the skill level (a task whose Actions are
// skills): each decision a skill command as text (bench/skill).
type Decider = skill.Agent

// DeciderMaker is a Maker whose kind also plays the skill level.
type DeciderMaker interface {
	MakeDecider(t *task.Task) (Decider, error)
}

// Failer is an agent that can fail (an external player's transport): a
// non-nil Err ends the episode as agent_error, and the action returned
// with it is not played.
type Failer interface{ Err() error }

// Annotator is an agent that explains its steps: the note of the last
// action goes into the trace.
type Annotator interface {
	Note() (trace.Note, bool)
}

// Stopper is an agent that can run out of actions (recorded play): the
// episode ends as stopped.
type Stopper interface{ Stopped() bool }

// Scorer is an agent that scores predictions: after every step the host
// gives it the outcome in full (never shown to the player), so that a
// prediction is scored against what happened whatever the feedback level.
// It is also the word that the step was played: a reply is scored only
// then, as the trace, which records played steps alone, can show.
type Scorer interface {
	Observed(full *sim.Outcome)
}

// Finisher is an agent that scores something when the episode ends (an
// external player's last prediction).
type Finisher interface {
	Finish(w *sim.World, last *sim.Outcome)
}

// Options configure the agents that need settings.
type Options struct {
	External External // openai and exec:CMD
	// Recorded is the loaded play of trace:FILE (LoadRecorded); nil: the
	// Source loads it.
	Recorded *Recorded
	Worker   int // the worker's index (an OpenAI player's sampling seed)
	// Remote connects external players (bench/agent/remote.Connector);
	// nil where there is none (the browser): those kinds cannot be made.
	// It is a separate package so that the browser's build carries no
	// HTTP client or process launcher.
	Remote Remote
}

// Remote makes the agents of the kinds that talk to another process.
type Remote interface {
	Check(name string, o Options) error
	Open(name string, o Options) (Maker, error)
}

// Maker makes one kind's agents for successive tasks; a kind that keeps a
// connection closes it.
type Maker interface {
	Make(t *task.Task) (Agent, error)
	io.Closer
}

// External configures external players: "openai" (any OpenAI-compatible
// server) and "exec:CMD" (a program speaking JSON lines on stdio).
type External struct {
	Model       string
	BaseURL     string
	Temperature float64
	MaxTokens   int
	History     int
	CallTimeout time.Duration
	Retries     int
	StepTimeout time.Duration // exec: per message
	ImageSize   int           // PNG observations of this size (0: text only)
	Symbolic    bool
	NoNotice    bool // do not tell the player its reply was invalid
	// Reply is how a model answers: json, schema (response_format) or
	// tools (a function call); HistoryTokens bounds the history by size
	// too; Notes turns the scratchpad on.
	Reply         string
	HistoryTokens int
	Notes         bool
	// exec: the sandbox (docs/players.md). Env passes environment
	// variables to the agent (NAME, or NAME=VALUE); Hidden are paths it
	// must neither read nor write (the runner adds its run directory,
	// suite, lock and salt); NoSandbox runs it as the evaluator's plain
	// child instead.
	Env       []string
	Hidden    []string
	NoSandbox bool
}

// ContextMaker is a Maker whose agents make calls (external players):
// MakeIn makes them with ctx, the episode's, bounding every call, so
// that an episode's deadline ends a call in progress. Make's agents call
// with the background context.
type ContextMaker interface {
	MakeIn(ctx context.Context, t *task.Task) (Agent, error)
	MakeDeciderIn(ctx context.Context, t *task.Task) (Decider, error)
}

// Kind is one entry of the registry.
type Kind struct {
	Name  string // the name, or the prefix of names (Prefix)
	Usage string // how to write it: "explorer", "exec:COMMAND"
	Help  string
	// Prefix: the name is Name followed by an argument (exec:CMD).
	Prefix bool
	// Offline: it needs no I/O (the browser can play it).
	Offline bool
	// NeedsTask: it reads the task's goal (the planner): it cannot play a
	// plain world.
	NeedsTask bool
	// Remote: Options.Remote makes it (it talks to another process).
	Remote bool
	// Prompted: a model that reads Longcraft's own prompt
	// (bench/player/prompt.tmpl), whose id its results record.
	Prompted bool
	check    func(name string, o Options) error // settings it needs (nil: none)
	open     func(name string, o Options) (Maker, error)
}

// Kinds is the registry, in the order help lists it: the built-in
// policies (bench/policy's list), then the planner, the external players
// and recorded play.
func Kinds() []Kind {
	var kinds []Kind
	for _, b := range policy.Builtins() {
		kinds = append(kinds, Kind{Name: b.Name, Usage: b.Name, Help: b.Help, Offline: true,
			open: func(string, Options) (Maker, error) { return policyMaker(b.Name), nil }})
	}
	return append(kinds, []Kind{
		{Name: "planner", Usage: "planner", Help: "reads the whole state and the goal: the ceiling and the certifier", Offline: true, NeedsTask: true,
			open: func(string, Options) (Maker, error) { return plannerMaker{}, nil }},
		{Name: "openai", Usage: "openai", Help: "a language or vision model behind an OpenAI-compatible API (--model, --base-url)", NeedsTask: true, Remote: true, Prompted: true,
			check: func(_ string, o Options) error {
				if o.External.Model == "" || o.External.BaseURL == "" {
					return fmt.Errorf("agent openai needs a model and a base URL (--model, --base-url; the key comes from OPENAI_API_KEY)")
				}
				return nil
			}},
		{Name: "exec:", Usage: "exec:COMMAND", Help: "a program in any language speaking JSON lines on stdio (docs/players.md)", Prefix: true, NeedsTask: true, Remote: true},
		{Name: RecordedPrefix, Usage: RecordedPrefix + "FILE.lctrace", Help: "recorded play, e.g. a human's from the browser demo, replayed task by task", Prefix: true, NeedsTask: true,
			open: func(name string, o Options) (Maker, error) {
				r := o.Recorded
				if r == nil {
					var err error
					if r, err = LoadRecorded(name); err != nil {
						return nil, err
					}
				}
				return recordedMaker{r}, nil
			}},
	}...)
}

// Lookup returns the kind of agent name.
func Lookup(name string) (Kind, error) {
	for _, k := range Kinds() {
		if name == k.Name && !k.Prefix || k.Prefix && strings.HasPrefix(name, k.Name) && len(name) > len(k.Name) {
			return k, nil
		}
	}
	return Kind{}, fmt.Errorf("unknown agent %q: %s", name, Usages())
}

// Check reports whether agent name can be made with o, without making one
// (nor connecting, nor reading a trace).
func Check(name string, o Options) error {
	k, err := Lookup(name)
	if err != nil {
		return err
	}
	if k.check != nil {
		if err := k.check(name, o); err != nil {
			return err
		}
	}
	if k.Remote {
		if o.Remote == nil {
			return fmt.Errorf("agent %s talks to another process, which this build cannot start (offline agents: %v)", name, Names(func(k Kind) bool { return k.Offline }))
		}
		return o.Remote.Check(name, o)
	}
	return nil
}

// Usages lists how to name every agent, for errors and flag help.
func Usages() string {
	var u []string
	for _, k := range Kinds() {
		u = append(u, k.Usage)
	}
	return strings.Join(u, ", ")
}

// Help describes every agent, one line each.
func Help() string {
	var b strings.Builder
	for _, k := range Kinds() {
		fmt.Fprintf(&b, "  %-22s %s\n", k.Usage, k.Help)
	}
	return b.String()
}

// Names lists the names of the agents that need no argument and match
// keep (nil: all), sorted; e.g. the offline ones the browser offers.
func Names(keep func(Kind) bool) []string {
	var names []string
	for _, k := range Kinds() {
		if !k.Prefix && (keep == nil || keep(k)) {
			names = append(names, k.Name)
		}
	}
	sort.Strings(names)
	return names
}

// Source makes the agents of one name for successive tasks, keeping what
// they share (an external player's connection, one per worker). It is not
// safe for concurrent use: give each worker its own.
type Source struct {
	kind Kind
	m    Maker
}

// Open prepares the agents of name.
func Open(name string, o Options) (*Source, error) {
	k, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := Check(name, o); err != nil {
		return nil, err
	}
	open := k.open
	if k.Remote {
		open = o.Remote.Open
	}
	m, err := open(name, o)
	if err != nil {
		return nil, err
	}
	return &Source{kind: k, m: m}, nil
}

// Kind is the source's entry of the registry.
func (s *Source) Kind() Kind { return s.kind }

// New returns the agent for task t (nil: a plain world, which agents that
// read the goal refuse).
func (s *Source) New(t *task.Task) (Agent, error) {
	if t == nil && s.kind.NeedsTask {
		return nil, fmt.Errorf("agent %s plays tasks only (it reads the goal)", s.kind.Usage)
	}
	return s.m.Make(t)
}

// NewIn is New for an episode whose context is ctx: an agent that makes
// calls stops waiting on one when ctx ends (a deadline: the runner's
// --timeout).
func (s *Source) NewIn(ctx context.Context, t *task.Task) (Agent, error) {
	if cm, ok := s.m.(ContextMaker); ok && t != nil {
		return cm.MakeIn(ctx, t)
	}
	return s.New(t)
}

// NewDeciderIn is NewDecider for an episode whose context is ctx.
func (s *Source) NewDeciderIn(ctx context.Context, t *task.Task) (Decider, error) {
	if cm, ok := s.m.(ContextMaker); ok {
		return cm.MakeDeciderIn(ctx, t)
	}
	return s.NewDecider(t)
}

// NewDecider returns the skill-level agent for task t, or an error
// saying that this kind plays primitive actions only.
func (s *Source) NewDecider(t *task.Task) (Decider, error) {
	dm, ok := s.m.(DeciderMaker)
	if !ok {
		return nil, fmt.Errorf("agent %s plays primitive actions only: task %s is at the skill level (skill-level agents: %s)", s.kind.Usage, t.ID, strings.Join(SkillKinds(), ", "))
	}
	return dm.MakeDecider(t)
}

// SkillKinds names the agents that play the skill level.
func SkillKinds() []string {
	var names []string
	for _, k := range Kinds() {
		if k.open != nil {
			if m, err := k.open(k.Name, Options{Recorded: &Recorded{}}); err == nil {
				if _, ok := m.(DeciderMaker); ok {
					names = append(names, k.Usage)
				}
			}
		}
	}
	return names
}

// Close releases what the agents share (an exec process).
func (s *Source) Close() error { return s.m.Close() }

// New returns the agent name for task t (nil: a plain world). It makes
// the agents that hold nothing to release; a remote kind keeps a
// connection across tasks, which a Source owns and closes.
func New(name string, t *task.Task, o Options) (Agent, error) {
	s, err := Open(name, o)
	if err != nil {
		return nil, err
	}
	if s.kind.Remote {
		_ = s.Close()
		return nil, fmt.Errorf("agent %s keeps a connection: make it with Open and Close the Source", name)
	}
	return s.New(t)
}

type policyMaker string

func (p policyMaker) Make(*task.Task) (Agent, error) { return policy.New(string(p)) }
func (policyMaker) Close() error                     { return nil }

// MakeDecider gives each built-in policy its skill-level counterpart:
// random draws skills, explorer (the fair baseline) is the learner that
// reads only the goal and the results it is told, noop idles.
func (p policyMaker) MakeDecider(t *task.Task) (Decider, error) {
	switch p {
	case "random":
		return &skill.Random{}, nil
	case "explorer":
		return skill.NewLearner(t.Goal), nil
	case "noop":
		return skill.Idle{}, nil
	}
	return nil, fmt.Errorf("agent %s has no skill level", string(p))
}

type plannerMaker struct{}

func (plannerMaker) Make(t *task.Task) (Agent, error) { return planner.New(t.Goal), nil }
func (plannerMaker) Close() error                     { return nil }

// MakeDecider is the skill level's ceiling: the oracle that reads the
// rules and the whole world.
func (plannerMaker) MakeDecider(t *task.Task) (Decider, error) { return skill.NewOracle(t.Goal), nil }

type recordedMaker struct{ r *Recorded }

func (m recordedMaker) Make(t *task.Task) (Agent, error) { return m.r.policy(t) }
func (recordedMaker) Close() error                       { return nil }
