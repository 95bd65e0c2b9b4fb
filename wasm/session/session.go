// Package session is the browser demo's game logic, kept free of Ebiten and
// of syscall/js so it builds and is tested natively: a task being played by
// a human (Play), by a built-in agent (Watch), or re-simulated from a trace
// (Replay), with the HUD's figures and the recording of what was played.
//
// The Ebiten front end (package main in wasm/) only turns keys into actions
// and copies the frames render/ produced to the screen.
package session

import (
	"bytes"
	"fmt"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/episode"
	"github.com/longcraft/longcraft/bench/planner"
	"github.com/longcraft/longcraft/bench/protocol"
	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/sim"
)

// Mode is what drives the session's steps.
type Mode int

// The modes of a session.
const (
	Play   Mode = iota // a human's keys
	Watch              // a built-in agent
	Replay             // a recorded trace
)

// String names the mode as the page shows it.
func (m Mode) String() string {
	switch m {
	case Play:
		return "play"
	case Watch:
		return "watch"
	case Replay:
		return "replay"
	}
	return fmt.Sprintf("mode(%d)", int(m))
}

// snapshotEvery is how many steps apart Replay keeps world snapshots, so a
// step back re-simulates at most this many steps.
const snapshotEvery = 256

// snapshot is a replay's state at a multiple of snapshotEvery steps.
type snapshot struct {
	world  *sim.World
	reward int64 // tenths, so far
}

// Agents lists the agents Watch can play: the registry's offline ones.
func Agents() []string { return agent.Names(func(k agent.Kind) bool { return k.Offline }) }

// Session is one episode shown in the browser.
type Session struct {
	Mode  Mode
	Task  *task.Task
	World *sim.World
	Agent string // who acts: "human", a built-in agent, or the trace's agent

	header trace.Header
	obs    *protocol.Builder // the text an agent reads, built as every transport builds it; nil without a task

	// Play and Watch: the episode, played through the one episode core
	// (bench/episode) that the runner and the server use, recording its
	// trace as it goes.
	game   *episode.Episode
	policy agent.Agent

	// Replay only: the trace re-simulated step by step (its end is the
	// trace's), the goal's stages for the HUD, and snapshots to seek.
	ep      *trace.Episode
	prog    *task.Progress
	steps   int
	last    sim.Outcome
	stepped bool
	reward  int64      // tenths
	snaps   []snapshot // snaps[i] is the episode after i·snapshotEvery steps
}

// New starts a Play or Watch session of the task of spec. name is the
// agent that plays in Watch mode: one of Agents (the offline ones).
func New(spec task.Spec, mode Mode, name string) (*Session, error) {
	if mode == Replay {
		return nil, fmt.Errorf("new session: a replay starts from a trace (OpenReplay)")
	}
	// The task `longcraft score` plays: an embedded suite's locked one, or
	// else generated and certified by the planner as score locks a custom
	// suite.
	t, ok, err := suite.Frozen(spec)
	if err == nil && !ok {
		t, err = task.Generate(spec, planner.Solve)
	}
	if err != nil {
		return nil, fmt.Errorf("new session %s: %w", spec.ID(), err)
	}
	w, err := t.NewWorld()
	if err != nil {
		return nil, fmt.Errorf("new session %s: %w", spec.ID(), err)
	}
	s := &Session{Mode: mode, Task: t, World: w, Agent: "human"}
	if mode == Watch {
		// Without Options.Remote the registry refuses the agents that
		// talk to another process, naming the offline ones.
		if s.policy, err = agent.New(name, t, agent.Options{}); err != nil {
			return nil, fmt.Errorf("new session: %w", err)
		}
		s.policy.Reset(t.Seed)
		s.Agent = name
	}
	s.game = episode.New(t, w, episode.Options{Recorder: trace.NewRecorder(t.Budget), Agent: s.Agent, Build: buildinfo.Read()})
	if s.obs, err = protocol.NewBuilder(t, protocol.Options{}, nil); err != nil {
		return nil, fmt.Errorf("new session %s: %w", spec.ID(), err)
	}
	s.header = episode.Header(t, s.Agent, 0)
	return s, nil
}

// OpenReplay starts a Replay session of episode i of a .lctrace file held
// in data.
func OpenReplay(name string, data []byte, i int) (*Session, error) {
	tf, err := trace.OpenReader(name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(tf.Index) {
		return nil, fmt.Errorf("replay %s: episode %d of %d", name, i, len(tf.Index))
	}
	ep, err := tf.Episode(i)
	if err != nil {
		return nil, err
	}
	w, err := trace.World(&ep.Header)
	if err != nil {
		return nil, fmt.Errorf("replay %s episode %d: %w", name, i, err)
	}
	if got := w.Hash(); got != ep.Initial {
		return nil, fmt.Errorf("replay %s episode %d: initial state hash %016x, trace says %016x", name, i, got, ep.Initial)
	}
	s := &Session{Mode: Replay, World: w, Agent: ep.Header.Agent, header: ep.Header, ep: ep}
	if ep.Header.Task != nil {
		if s.Task, err = task.Rebuild(*ep.Header.Task, ep.Header.Seed); err != nil {
			return nil, fmt.Errorf("replay %s episode %d: %w", name, i, err)
		}
		s.prog = task.NewProgress(s.Task.Goal, w)
		if s.obs, err = protocol.NewBuilder(s.Task, protocol.Options{}, nil); err != nil {
			return nil, fmt.Errorf("replay %s episode %d: %w", name, i, err)
		}
	}
	s.snaps = []snapshot{{world: w.Clone()}}
	return s, nil
}

// Episodes counts the episodes of a .lctrace file held in data.
func Episodes(name string, data []byte) (int, error) {
	tf, err := trace.OpenReader(name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, err
	}
	return len(tf.Index), nil
}

// FindEpisode returns the position in a .lctrace file held in data of the
// first episode played on the task with ID id (as the report names them).
func FindEpisode(name string, data []byte, id string) (int, error) {
	tf, err := trace.OpenReader(name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, err
	}
	return tf.FindEpisode(id)
}

// Ended says why the episode is over ("goal", "death", "budget"), or "";
// a replay never ends: it stops at the trace's last step.
func (s *Session) Ended() string {
	if s.game == nil {
		return ""
	}
	return string(s.game.End())
}

// Steps is the number of steps taken.
func (s *Session) Steps() int {
	if s.game != nil {
		return s.game.Steps()
	}
	return s.steps
}

// Budget is the episode's step budget (a replay's: its length).
func (s *Session) Budget() int {
	if s.Mode == Replay {
		return len(s.ep.Actions)
	}
	return s.Task.Budget
}

// Act takes one step with action a, unless the episode is over. It returns
// false when no step was taken.
func (s *Session) Act(a sim.Action) bool {
	if int(a) >= len(s.World.Rules().Actions) {
		return false
	}
	if s.game != nil {
		return s.game.Step(a) // the episode core ends it by task.Judge
	}
	if s.steps >= len(s.ep.Actions) {
		return false
	}
	s.last = s.World.Step(a)
	s.stepped = true
	s.steps++
	s.reward += s.last.RewardTenths()
	if s.prog != nil {
		s.prog.Update(s.World)
	}
	if n := s.steps; n%snapshotEvery == 0 && n/snapshotEvery == len(s.snaps) {
		s.snaps = append(s.snaps, snapshot{s.World.Clone(), s.reward})
	}
	return true
}

// Tick advances the session by one step of whoever drives it: the agent in
// Watch, the trace in Replay. Play sessions wait for keys.
func (s *Session) Tick() bool {
	switch s.Mode {
	case Watch:
		return s.Act(s.policy.Act(s.World, s.game.Last()))
	case Replay:
		if n := s.steps; n < len(s.ep.Actions) {
			return s.Act(sim.Action(s.ep.Actions[n]))
		}
	}
	return false
}

// Seek moves a replay to just after step n (0: the start), re-simulating
// from the nearest snapshot at or before n.
func (s *Session) Seek(n int) error {
	if s.Mode != Replay {
		return fmt.Errorf("seek: only a replay can move in time")
	}
	n = max(0, min(n, len(s.ep.Actions)))
	k := min(n/snapshotEvery, len(s.snaps)-1)
	if cur := s.steps; cur > n || cur < k*snapshotEvery {
		s.World.CopyFrom(s.snaps[k].world)
		s.steps = k * snapshotEvery
		s.stepped = false
		s.reward = s.snaps[k].reward
		if s.prog != nil {
			s.prog = task.NewProgress(s.Task.Goal, s.World)
		}
	}
	for s.steps < n {
		s.Tick()
	}
	return nil
}

// Note returns the agent's annotation of the last step taken in a replay.
func (s *Session) Note() (trace.Note, bool) {
	if s.Mode != Replay || s.steps == 0 {
		return trace.Note{}, false
	}
	step := s.steps - 1
	for _, n := range s.ep.Notes {
		if n.Step == step {
			return n, true
		}
	}
	return trace.Note{}, false
}

// Hash is the world's state hash, the figure the browser tests compare with
// a native replay.
func (s *Session) Hash() uint64 { return s.World.Hash() }

// Status is the HUD's content.
type Status struct {
	Mode       string `json:"mode"`
	Agent      string `json:"agent"`
	TaskID     string `json:"task"`
	Goal       string `json:"goal"`
	Seed       uint64 `json:"seed,omitempty,string"` // not in Play: a scored human must not regenerate the map; a string, since JavaScript numbers round 64-bit seeds
	Step       int    `json:"step"`
	Budget     int    `json:"budget"`
	Milestones string `json:"milestones"` // e.g. "collect_wood ✓, place_table ·"
	Stages     string `json:"stages"`     // "1/3" for multi-stage goals
	Last       string `json:"last"`       // the last outcome, as the agent read it
	Ended      string `json:"ended"`
	Hash       string `json:"hash"`
	Reward     string `json:"reward"`
	Note       string `json:"note"` // a replay's agent note at this step
	// Observation is the text observation an agent reads at this step
	// (bench/protocol's builder, as every transport sends it).
	Observation string `json:"observation"`
}

// Status reports the HUD's figures.
func (s *Session) Status() Status {
	st := Status{Mode: s.Mode.String(), Agent: s.Agent, Goal: s.header.Goal,
		Step: s.Steps(), Budget: s.Budget(), Ended: s.Ended(), Hash: fmt.Sprintf("%016x", s.World.Hash())}
	if s.header.Task != nil {
		st.TaskID = s.header.Task.ID()
	}
	if s.Mode != Play {
		// A human playing a task is an agent being scored (a trace:FILE
		// baseline): the seed would let them regenerate the map.
		st.Seed = s.World.Seed()
	}
	r := s.World.Rules()
	reward, last, prog := s.reward, &s.last, s.prog
	if !s.stepped {
		last = nil
	} else if s.Task != nil {
		f := s.Task.Seen(s.last) // a replay shows what the agent read too
		last = &f
	}
	if s.game != nil {
		reward, last, prog = s.game.RewardTenths(), s.game.Last(), s.game.Progress()
	}
	st.Reward = fmt.Sprintf("%.1f", float64(reward)/10)
	if last != nil {
		st.Last = text.Outcome(*last, r) // as the agent read it: at the task's feedback level
	}
	if s.Task != nil {
		ach := s.World.Achievements()
		for i, m := range s.Task.Milestones {
			if i > 0 {
				st.Milestones += ", "
			}
			mark := "·"
			if a, ok := r.Achievement(m); ok && ach&(1<<a) != 0 {
				mark = "✓"
			}
			st.Milestones += m + " " + mark
		}
		if prog != nil {
			if got, total := prog.Stages(); total > 1 {
				st.Stages = fmt.Sprintf("%d/%d", got, total)
			}
		}
	}
	if s.obs != nil {
		st.Observation = s.obs.Observe(s.World, last).Text // last is filtered
	}
	if n, ok := s.Note(); ok {
		st.Note = n.Reasoning
		if n.Tokens > 0 {
			st.Note += fmt.Sprintf(" (%d tokens)", n.Tokens)
		}
	}
	return st
}

// Recording encodes what was played as a one-episode .lctrace file, which
// `longcraft replay` verifies: the episode core's own trace, with its
// checkpoints, outcome codes and metrics exactly as a native run's would
// be. startUnixMs is informational.
func (s *Session) Recording(startUnixMs int64) ([]byte, error) {
	if s.game == nil {
		return nil, fmt.Errorf("record: a replay is already a trace")
	}
	ep := s.game.Trace()
	ep.Header.StartUnixMs = startUnixMs
	var buf bytes.Buffer
	tw, err := trace.NewWriter("recording", &buf)
	if err == nil {
		err = tw.Append(ep)
	}
	if err == nil {
		err = tw.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return buf.Bytes(), nil
}
