package agent

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
)

// RecordedPrefix names the agent (and suite) of recorded play:
// "trace:FILE.lctrace" replays, task by task, the actions of the episodes
// in FILE, for example a human's play downloaded from the browser demo, so
// that a human baseline is scored by the same code and metrics as agents.
const RecordedPrefix = "trace:"

// IsRecorded says whether an agent or suite name is recorded play.
func IsRecorded(name string) bool { return strings.HasPrefix(name, RecordedPrefix) }

// Recorded is the play of a trace file, by task ID: loaded once per run
// (LoadRecorded) and shared by every worker's trace:FILE agents.
type Recorded struct {
	path    string
	specs   []task.Spec // in file order, each task once
	seeds   map[string]uint64
	actions map[string][]byte
	players map[string]string // who played each task: its header's agent
	salted  string            // a salt commitment the play was recorded under ("": public seeds only)
}

// LoadRecorded reads the episodes of a trace file (name is trace:FILE)
// that were played on a task. A task played twice keeps its first episode.
func LoadRecorded(name string) (*Recorded, error) {
	path := strings.TrimPrefix(name, RecordedPrefix)
	tf, err := trace.Open(path)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	r := &Recorded{path: path, seeds: map[string]uint64{}, actions: map[string][]byte{}, players: map[string]string{}}
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		if err != nil {
			return nil, err
		}
		if ep.Header.Task == nil {
			continue
		}
		id := ep.Header.EpisodeID()
		if _, dup := r.actions[id]; dup {
			continue
		}
		r.specs = append(r.specs, *ep.Header.Task)
		r.seeds[id], r.actions[id], r.players[id] = ep.Header.Seed, ep.Actions, ep.Header.Agent
		if ep.Header.SaltCommitment != "" {
			r.salted = ep.Header.SaltCommitment
		}
	}
	if len(r.specs) == 0 {
		return nil, fmt.Errorf("%s: no episode played on a task", path)
	}
	return r, nil
}

// Label names whose play task id's episode is, for results and summaries:
// "trace (planner)" for a planner's recorded episode, "trace (human)" for
// a browser recording, whatever the file is called. The run's agent
// stays trace:FILE (run.json, --resume): the file is what is replayed,
// its header what says who played.
func (r *Recorded) Label(id string) string {
	if p, ok := r.players[id]; ok {
		return RecordedLabel(p)
	}
	// A task the file has no play of (its episode is an error): the
	// file's players.
	seen := map[string]bool{}
	var labels []string
	for _, sp := range r.specs {
		if l := RecordedLabel(r.players[sp.ID()]); !seen[l] {
			seen[l] = true
			labels = append(labels, l)
		}
	}
	sort.Strings(labels)
	return strings.Join(labels, ", ")
}

// RecordedLabel is the label of recorded play by player (a trace
// header's agent). A replay's own trace names its player so already
// ("trace (planner)"): scoring it again keeps the label.
func RecordedLabel(player string) string {
	switch {
	case strings.HasPrefix(player, "trace ("):
		return player
	case player == "":
		return "trace (unnamed player)"
	}
	return "trace (" + player + ")"
}

// SuiteName names the suite of a trace's tasks in summaries.
func (r *Recorded) SuiteName() string { return RecordedPrefix + filepath.Base(r.path) }

// Specs lists the tasks played, in file order, each once.
func (r *Recorded) Specs() []task.Spec { return r.specs }

// policy returns the replay of task t's recorded actions.
func (r *Recorded) policy(t *task.Task) (*recordedPolicy, error) {
	acts, ok := r.actions[t.ID]
	if !ok && r.salted != "" && t.SaltCommitment != r.salted {
		return nil, fmt.Errorf("%s has no play of task %s: it was played on held-out seeds (salt commitment %.12s…): score it with that run's salt", r.path, t.ID, r.salted)
	}
	if !ok {
		return nil, fmt.Errorf("%s has no play of task %s", r.path, t.ID)
	}
	if r.seeds[t.ID] != t.Seed {
		return nil, fmt.Errorf("%s: task %s was played on seed %d, this build generates seed %d", r.path, t.ID, r.seeds[t.ID], t.Seed)
	}
	return &recordedPolicy{actions: acts}, nil
}

// recordedPolicy plays recorded actions in order; Stopped reports when
// they run out (the player stopped there).
type recordedPolicy struct {
	actions []byte
	next    int
}

// Reset starts the actions over.
func (p *recordedPolicy) Reset(uint64) { p.next = 0 }

// Act returns the next recorded action (noop past the end).
func (p *recordedPolicy) Act(*sim.World, *sim.Outcome) sim.Action {
	if p.next >= len(p.actions) {
		return sim.ActNoop
	}
	p.next++
	return sim.Action(p.actions[p.next-1])
}

// Stopped says whether every recorded action was played.
func (p *recordedPolicy) Stopped() bool { return p.next >= len(p.actions) }
