package suite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/json64"
	"github.com/longcraft/longcraft/sim"
)

// A Lock freezes a suite's task set: for every episode of its expansion,
// in order, the world seed the generator settled on, the goal it drew
// there and the planner's certificate. Scoring reads the lock and runs no
// planner, so a planner change cannot silently change the benchmark, and
// two runs that carry the same lock hash played the same tasks.
//
// Embedded suites ship one beside their YAML (suites/NAME.lock.json,
// written by `longcraft suite lock`); a suite file's lock is FILE.lock.json
// beside it.
type Lock struct {
	Format   int            `json:"format"`
	Suite    string         `json:"suite"`
	Rules    map[string]int `json:"rules"` // the version of each ruleset the suite's tiers use, when locked
	Tiers    string         `json:"tiers"` // sha256 of the definitions of the tiers the suite uses (their defaults are not in the episode ids)
	Episodes []Locked       `json:"episodes"`
	Hash     string         `json:"hash"` // sha256 of the lock without this field
}

// Locked is one episode of a lock.
type Locked struct {
	ID           string `json:"id"`
	Seed         uint64 `json:"seed,string"` // a string: float64 JSON readers round 64-bit seeds (read from a number too)
	Goal         string `json:"goal"`
	Attempts     int    `json:"attempts"`
	Certified    bool   `json:"certified"`
	PlannerSteps int    `json:"planner_steps"`
}

// numericLocked is Locked with its seed a bare number: the form a lock's
// hash reads, so that every lock keeps the hash it had before locks wrote
// seeds as strings (results and run.json name locks by it).
type numericLocked struct {
	ID           string `json:"id"`
	Seed         uint64 `json:"seed"`
	Goal         string `json:"goal"`
	Attempts     int    `json:"attempts"`
	Certified    bool   `json:"certified"`
	PlannerSteps int    `json:"planner_steps"`
}

// UnmarshalJSON reads an episode whose seed is a string or, as older lock
// files hold it, a number; like the rest of a lock, it refuses fields it
// does not know.
func (e *Locked) UnmarshalJSON(data []byte) error {
	type plain Locked // Locked's fields without this method
	episode := struct {
		*plain
		Seed json64.Uint `json:"seed"` // shadows plain's, which reads strings only
	}{plain: (*plain)(e)}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&episode); err != nil {
		return err
	}
	e.Seed = uint64(episode.Seed)
	return nil
}

// LockFormat is the lock file format's version.
const LockFormat = 1

// ErrNoLock reports a suite without a lock.
var ErrNoLock = errors.New("no lock")

// NewLock returns the lock of suite s from its tasks, given in expansion
// order (generated and, for a certified lock, certified).
func NewLock(s *Suite, tasks []*task.Task) (*Lock, error) {
	specs := s.Expand()
	if len(tasks) != len(specs) {
		return nil, fmt.Errorf("lock %s: %d tasks for %d episodes", s.Name, len(tasks), len(specs))
	}
	l := &Lock{Format: LockFormat, Suite: s.Name, Rules: rulesOf(specs), Tiers: tiersOf(specs), Episodes: []Locked{}}
	for i, t := range tasks {
		if t.ID != specs[i].ID() {
			return nil, fmt.Errorf("lock %s: task %d is %s, the suite's episode is %s", s.Name, i, t.ID, specs[i].ID())
		}
		l.Episodes = append(l.Episodes, Locked{ID: t.ID, Seed: t.Seed, Goal: t.Goal.String(),
			Attempts: t.Attempts, Certified: t.Certified, PlannerSteps: t.PlannerSteps})
	}
	l.Hash = l.computeHash()
	return l, nil
}

// rulesOf lists the rulesets the specs' tiers use, with this build's
// versions.
func rulesOf(specs []task.Spec) map[string]int {
	out := map[string]int{}
	for _, sp := range specs {
		if sp.Scenario != nil {
			if r, err := sim.RulesByName(sp.Scenario.Ruleset); err == nil {
				out[r.Name] = r.Version
			}
			continue
		}
		if tier, err := task.TierByName(sp.Tier); err == nil {
			if r, err := sim.RulesByName(tier.Ruleset); err == nil {
				out[r.Name] = r.Version
			}
		}
	}
	return out
}

// tiersOf hashes the definitions of the tiers the specs use: a change of
// a tier's defaults (budget, abundance, feedback, …) keeps the episode ids
// but changes the tasks.
func tiersOf(specs []task.Spec) string {
	used := map[string]bool{}
	for _, sp := range specs {
		used[sp.Tier] = true
	}
	var tiers []task.Tier
	for _, t := range task.Tiers() {
		if used[t.Name] {
			tiers = append(tiers, t)
		}
	}
	b, _ := json.Marshal(tiers)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// computeHash hashes the lock's content: its JSON without the hash.
func (l *Lock) computeHash() string {
	c := struct {
		Format   int             `json:"format"`
		Suite    string          `json:"suite"`
		Rules    map[string]int  `json:"rules"`
		Tiers    string          `json:"tiers"`
		Episodes []numericLocked `json:"episodes"`
		Hash     string          `json:"hash"` // always "": the hash is of the rest
	}{Format: l.Format, Suite: l.Suite, Rules: l.Rules, Tiers: l.Tiers}
	if l.Episodes != nil {
		c.Episodes = make([]numericLocked, len(l.Episodes))
	}
	for i := range l.Episodes {
		c.Episodes[i] = numericLocked(l.Episodes[i])
	}
	b, _ := json.Marshal(&c) // maps marshal in key order
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Marshal writes the lock as JSON, one episode a line.
func (l *Lock) Marshal() ([]byte, error) {
	var b bytes.Buffer
	head, err := json.Marshal(struct {
		Format int            `json:"format"`
		Suite  string         `json:"suite"`
		Rules  map[string]int `json:"rules"`
		Tiers  string         `json:"tiers"`
		Hash   string         `json:"hash"`
	}{l.Format, l.Suite, l.Rules, l.Tiers, l.Hash})
	if err != nil {
		return nil, err
	}
	b.Write(head[:len(head)-1])
	b.WriteString(`,"episodes":[` + "\n")
	for i := range l.Episodes {
		e, err := json.Marshal(&l.Episodes[i])
		if err != nil {
			return nil, err
		}
		b.Write(e)
		if i < len(l.Episodes)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// ParseLock reads a lock and checks its format and hash; name is used in
// errors.
func ParseLock(name string, data []byte) (*Lock, error) {
	var l Lock
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if l.Format != LockFormat {
		return nil, fmt.Errorf("lock %s: format %d, this build reads %d", name, l.Format, LockFormat)
	}
	if h := l.computeHash(); h != l.Hash {
		return nil, fmt.Errorf("lock %s: hash %s does not match its content (%s): the file was edited or cut", name, l.Hash, h)
	}
	return &l, nil
}

// LockPath is where the lock of a suite file lives.
func LockPath(suiteFile string) string { return suiteFile + ".lock.json" }

// LoadLock reads the lock of a suite: an embedded suite's by name, or the
// one beside a suite file. It returns ErrNoLock when there is none.
func LoadLock(nameOrPath string) (*Lock, error) {
	if IsEmbedded(nameOrPath) {
		data, err := embedded.ReadFile("suites/" + nameOrPath + ".lock.json")
		if err != nil {
			return nil, fmt.Errorf("suite %s: %w", nameOrPath, ErrNoLock)
		}
		return ParseLock(nameOrPath, data)
	}
	data, err := os.ReadFile(LockPath(nameOrPath))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("suite %s: %w", nameOrPath, ErrNoLock)
	}
	if err != nil {
		return nil, err
	}
	return ParseLock(LockPath(nameOrPath), data)
}

// Check reports whether l locks suite s as this build would play it: the
// same episodes in the same order, made under the same rules versions.
// relock is the command that rewrites it, for the error message.
func (l *Lock) Check(s *Suite, relock string) error {
	specs := s.Expand()
	if l.Suite != s.Name {
		return fmt.Errorf("lock of suite %q, not %q", l.Suite, s.Name)
	}
	want := rulesOf(specs)
	var names []string
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if l.Rules[n] != want[n] {
			return fmt.Errorf("suite %s was locked under %s v%d, this build has %s v%d: the lock is stale; relock with `%s`",
				s.Name, n, l.Rules[n], n, want[n], relock)
		}
	}
	if l.Tiers != tiersOf(specs) {
		return fmt.Errorf("suite %s was locked with other tier definitions than this build's: the lock is stale; relock with `%s`", s.Name, relock)
	}
	if len(l.Episodes) != len(specs) {
		return fmt.Errorf("suite %s has %d episodes, its lock %d: relock with `%s`", s.Name, len(specs), len(l.Episodes), relock)
	}
	for i, sp := range specs {
		if l.Episodes[i].ID != sp.ID() {
			return fmt.Errorf("suite %s: episode %d is %s, its lock has %s: relock with `%s`", s.Name, i, sp.ID(), l.Episodes[i].ID, relock)
		}
	}
	return nil
}

// Rebuild regenerates episode i's task from the lock, without the planner,
// and checks that the generator still draws the locked goal there.
func (l *Lock) Rebuild(i int, spec task.Spec) (*task.Task, error) {
	e := &l.Episodes[i]
	if e.ID != spec.ID() {
		return nil, fmt.Errorf("lock %s: episode %d is %s, not %s", l.Suite, i, e.ID, spec.ID())
	}
	t, err := task.Rebuild(spec, e.Seed)
	if err != nil {
		return nil, err
	}
	if g := t.Goal.String(); g != e.Goal {
		return nil, fmt.Errorf("lock %s: episode %s: the generator now draws %q on the locked world, the lock says %q: the lock is stale (relock with `longcraft suite lock`)",
			l.Suite, e.ID, g, e.Goal)
	}
	t.Attempts, t.Certified, t.PlannerSteps = e.Attempts, e.Certified, e.PlannerSteps
	return t, nil
}

// FrozenTasks indexes the embedded suites' locked tasks by episode id, so
// that a host that plays specs outside a scoring run (the HTTP server, the
// browser) plays an episode of an embedded suite as the same task score
// plays. Build it once (LoadFrozen) and keep it: loading checks every
// embedded suite and lock.
type FrozenTasks struct {
	byID map[string]frozenRef
}

type frozenRef struct {
	lock *Lock
	i    int
}

// LoadFrozen reads the embedded suites and their locks; a lock stale for
// this build is left out (TestEmbeddedLocksAreFresh fails the build).
func LoadFrozen() (*FrozenTasks, error) {
	f := &FrozenTasks{byID: map[string]frozenRef{}}
	for _, name := range Embedded() {
		s, err := Load(name)
		if err != nil {
			return nil, err
		}
		l, err := LoadLock(name)
		if errors.Is(err, ErrNoLock) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if l.Check(s, "longcraft suite lock "+name) != nil {
			continue
		}
		for i := range l.Episodes {
			if _, dup := f.byID[l.Episodes[i].ID]; !dup {
				f.byID[l.Episodes[i].ID] = frozenRef{l, i}
			}
		}
	}
	return f, nil
}

// Task returns the locked task of spec; ok is false when no embedded
// suite holds spec.
func (f *FrozenTasks) Task(spec task.Spec) (t *task.Task, ok bool, err error) {
	ref, ok := f.byID[spec.ID()]
	if !ok {
		return nil, false, nil
	}
	t, err = ref.lock.Rebuild(ref.i, spec)
	return t, err == nil, err
}

// Seed returns the locked world seed of spec; ok is false when no
// embedded suite holds spec.
func (f *FrozenTasks) Seed(spec task.Spec) (seed uint64, ok bool) {
	ref, ok := f.byID[spec.ID()]
	if !ok {
		return 0, false
	}
	return ref.lock.Episodes[ref.i].Seed, true
}

// Frozen is LoadFrozen().Task(spec), for a host that asks once.
func Frozen(spec task.Spec) (*task.Task, bool, error) {
	f, err := LoadFrozen()
	if err != nil {
		return nil, false, err
	}
	return f.Task(spec)
}
