package run

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/longcraft/longcraft/bench/planner"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/internal/workers"
)

// A run on held-out seeds (score --salt): the seeds and ids are
// bench/task/salt.go's; this file makes the salted tasks of a run, checks
// that a resume or a merge continues the same salt, reads the salt from
// the command line, and checks a revealed salt against a run's results.

// SaltSecretFile is where --salt random keeps the salt it drew, in the
// run directory (mode 0600; exec agents never see the run directory).
const SaltSecretFile = "salt.secret"

// maxSaltBytes bounds a salt read from a file: a salt is a secret string,
// not a data file given by mistake.
const maxSaltBytes = 4096

// MinSaltBytes is the shortest salt score takes. A salt is what keeps
// the worlds from the agent, and the agent can search for it during the
// run: it has the public lock and its first observation, and each guess
// costs it about a millisecond (TestAgentCannotGuessAWeakSalt finds a
// 3-digit salt in 0.36 s). Length does not make a salt random, but a
// short one is certainly guessable.
const MinSaltBytes = 16

// SaltUsage says what a salt may be, for errors and help.
const SaltUsage = "a salt is a string of 16 to 4096 bytes, best random (an agent can search for a guessable salt during the run): --salt random draws 32 bytes from the OS and keeps them, in hex, in OUT/" + SaltSecretFile + "; --salt S takes S, --salt-file F the contents of F (without a trailing newline)"

// ResolveSalt reads the salt of one of score's flags: value is --salt's
// ("" when not given), file --salt-file's, out the run directory. "random"
// draws a new salt and returns, as secretPath, out/salt.secret, where
// Score keeps it (Options.SaltSecret) once it holds the run directory's
// lock: written before, a run refused by the lock (another run is using
// out) would leave its salt in the other run's directory. A run
// directory that already holds a run is refused (a new salt cannot
// continue it: resume with --salt-file OUT/salt.secret). No flag at all
// is no salt (public seeds). A salt shorter than MinSaltBytes is refused.
func ResolveSalt(value string, valueGiven bool, file, out string) (salt []byte, secretPath string, err error) {
	salt, secretPath, err = readSalt(value, valueGiven, file, out)
	if err == nil && len(salt) > 0 && len(salt) < MinSaltBytes {
		return nil, "", fmt.Errorf("a salt of %d bytes: an agent can find it by trying salts against the public lock during the run; %s", len(salt), SaltUsage)
	}
	return salt, secretPath, err
}

// ReadRevealedSalt reads a revealed salt for `salt check` from --salt or
// --salt-file, whatever its length: checking a guess must say it is not
// the run's salt.
func ReadRevealedSalt(value string, valueGiven bool, file string) ([]byte, error) {
	salt, _, err := readSalt(value, valueGiven, file, "")
	return salt, err
}

// readSalt is ResolveSalt without the length bound.
func readSalt(value string, valueGiven bool, file, out string) (salt []byte, secretPath string, err error) {
	switch {
	case valueGiven && file != "":
		return nil, "", fmt.Errorf("--salt and --salt-file: give one of them (%s)", SaltUsage)
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, "", fmt.Errorf("--salt-file: %w", err)
		}
		data = []byte(strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r"))
		if len(data) == 0 || len(data) > maxSaltBytes {
			return nil, "", fmt.Errorf("--salt-file %s: %d bytes: %s", file, len(data), SaltUsage)
		}
		return data, "", nil
	case !valueGiven:
		return nil, "", nil
	case value == "":
		return nil, "", fmt.Errorf("--salt: empty: %s", SaltUsage)
	case len(value) > maxSaltBytes:
		return nil, "", fmt.Errorf("--salt: %d bytes: %s", len(value), SaltUsage)
	case value != "random":
		return []byte(value), "", nil
	}
	if out == "" {
		return nil, "", fmt.Errorf("--salt random needs --out, where it keeps the salt")
	}
	secretPath = filepath.Join(out, SaltSecretFile)
	if err := freshForRandomSalt(out, secretPath); err != nil {
		return nil, "", err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, "", fmt.Errorf("--salt random: %w", err)
	}
	return []byte(hex.EncodeToString(b[:])), secretPath, nil
}

// freshForRandomSalt refuses a run directory that already holds a run (or
// a salt): a newly drawn salt cannot continue it.
func freshForRandomSalt(out, secretPath string) error {
	for _, f := range []string{secretPath, filepath.Join(out, results.ResultsFile)} {
		if _, err := os.Stat(f); err == nil {
			return fmt.Errorf("--salt random draws a new salt, and %s already holds a run (%s): continue it with --resume --salt-file %s, or use another --out", out, f, secretPath)
		}
	}
	return nil
}

// keepSaltSecret writes --salt random's salt to path (mode 0600, never
// over an existing file), under the run directory's lock.
func keepSaltSecret(path string, salt []byte) error {
	if err := freshForRandomSalt(filepath.Dir(path), path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("--salt random: %w", err)
	}
	if _, err := f.Write(append(salt, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("--salt random: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--salt random: %w", err)
	}
	return nil
}

// RedactSalt returns the command line args with the value of --salt
// replaced (but for "random", which is no secret): the command line is
// kept in the run directory (invocations.jsonl), the salt never is.
func RedactSalt(args []string) []string {
	out := append([]string(nil), args...)
	for i := 0; i < len(out); i++ {
		switch a := out[i]; {
		case a == "--":
			return out
		case a == "--salt" && i+1 < len(out):
			if out[i+1] != "random" {
				out[i+1] = "REDACTED"
			}
			i++
		case strings.HasPrefix(a, "--salt="):
			if a != "--salt=random" {
				out[i] = "--salt=REDACTED"
			}
		}
	}
	return out
}

// salted is a run's tasks on held-out seeds, made before the first
// episode is played.
type salted struct {
	commitment string
	lock       string // the hash of the lock the public seeds came from ("": SeedFor's)
	tasks      map[int]saltedTask
}

type saltedTask struct {
	t   *task.Task
	err error
}

// task returns the salted task of the episode at suite position index.
func (s *salted) task(index int, spec task.Spec) (*task.Task, error) {
	st, ok := s.tasks[index]
	if !ok {
		return nil, fmt.Errorf("held-out seeds: no task made for episode %d (%s): a bug of the runner", index, spec.ID())
	}
	return st.t, st.err
}

// publicSeeds finds the public seed a salted seed is derived from: the
// seed of the episode at its suite position in the run's lock when the
// run has one; else its seed in the embedded lock that holds it (recorded
// play of an embedded suite's episodes has no lock of its own, and must
// derive what their run derived); else SeedFor's.
type publicSeeds struct {
	lock   *suite.Lock
	frozen *suite.FrozenTasks
}

func newPublicSeeds(l *suite.Lock) (publicSeeds, error) {
	if l != nil {
		return publicSeeds{lock: l}, nil
	}
	f, err := suite.LoadFrozen()
	return publicSeeds{frozen: f}, err
}

func (p publicSeeds) seed(index int, spec task.Spec) (uint64, error) {
	if l := p.lock; l != nil {
		if index < 0 || index >= len(l.Episodes) || l.Episodes[index].ID != spec.ID() {
			return 0, fmt.Errorf("lock %s: episode %d is not %s", short(l.Hash), index, spec.ID())
		}
		return l.Episodes[index].Seed, nil
	}
	if s, ok := p.frozen.Seed(spec); ok {
		return s, nil
	}
	return task.SeedFor(spec.Split, spec.Family, spec.Tier, spec.Index), nil
}

// makeSalted generates (and, with certify, certifies) the salted tasks of
// the episodes at suite positions indices across nWorkers goroutines, one
// planner.Solver each, calling progress after each. An episode whose task
// cannot be made keeps its error: it is played as an error result, as an
// episode without a lock is. The tasks do not depend on nWorkers.
func makeSalted(ctx context.Context, salt []byte, l *suite.Lock, specs []task.Spec, indices []int, certify bool, nWorkers int, progress func(done, total int)) (*salted, error) {
	s := &salted{commitment: task.SaltCommitment(salt), tasks: make(map[int]saltedTask, len(specs))}
	if l != nil {
		s.lock = l.Hash
	}
	public, err := newPublicSeeds(l)
	if err != nil {
		return nil, err
	}
	made := make([]saltedTask, len(specs))
	var done atomic.Int64
	pool := workers.Pool[*planner.Solver]{Jobs: len(specs), Workers: nWorkers,
		New: func(int) (*planner.Solver, error) { return &planner.Solver{}, nil }}
	err = pool.Run(ctx, func(solver *planner.Solver, i int) error {
		base, err := public.seed(indices[i], specs[i])
		if err != nil {
			return err
		}
		certs := task.Certifiers{}
		if certify {
			certs = certifiers(solver.Solve)
		}
		made[i].t, made[i].err = task.GenerateSalted(specs[i], base, salt, certs)
		if progress != nil {
			progress(int(done.Add(1)), len(specs))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, m := range made {
		s.tasks[indices[i]] = m
	}
	return s, nil
}

// saltTasks makes the salted tasks a run still has to play: the episodes
// todo (specs at suite positions indices) and those of rebuild (results
// whose lost traces are played again). nil without a salt.
func saltTasks(ctx context.Context, o Options, todo []task.Spec, indices []int, rebuild []results.Result) (*salted, error) {
	if len(o.Salt) == 0 {
		return nil, nil
	}
	specs, at := slices.Clone(todo), slices.Clone(indices)
	for _, r := range rebuild {
		specs, at = append(specs, r.Spec), append(at, r.Index)
	}
	return makeSalted(ctx, o.Salt, o.Config.lock, specs, at, o.Certify, o.Workers, o.SaltProgress)
}

// errSaltDiffers reports results or a definition of another salt (or of
// public seeds) than this run's.
var errSaltDiffers = errors.New("salt commitment differs")

// checkSalt refuses to continue (or merge) a run of commitment was with
// one of commitment now.
func checkSalt(now, was string) error {
	if now == was {
		return nil
	}
	return fmt.Errorf("%w: %s here, %s there: not the same worlds", errSaltDiffers, commitmentName(now), commitmentName(was))
}

// commitmentName abbreviates a commitment for messages.
func commitmentName(c string) string {
	if c == "" {
		return "none (public seeds)"
	}
	return short(c) + "…"
}

// SaltCheck is what CheckSalt found.
type SaltCheck struct {
	Commitment string
	Checked    int      // results whose seed, id and goal were re-derived
	Errors     int      // results of episodes that could not be made (nothing to re-derive but the id)
	Problems   []string // every result that does not follow from the salt, named
}

// CheckSalt checks a revealed salt against the run in dir: that its
// commitment is the run's (run.json and every results line), and that
// each result's id, world seed (the salted seed of its public seed, after
// its recorded attempts) and goal are the salt's derivation. lockFile is
// the lock the run's public seeds came from when it is neither the
// embedded suite's nor kept in dir ("": look there). It does not replay:
// the traces are checked against the results by replay and verify.
func CheckSalt(dir string, salt []byte, lockFile string) (SaltCheck, error) {
	c := SaltCheck{Commitment: task.SaltCommitment(salt)}
	if len(salt) == 0 {
		return c, fmt.Errorf("salt check: %s", SaltUsage)
	}
	def, err := results.ReadDefinition(dir)
	if err != nil {
		return c, fmt.Errorf("salt check: %w", err)
	}
	if def.SaltCommitment == "" {
		return c, fmt.Errorf("salt check: %s was played on public seeds: it has no salt to check", dir)
	}
	if def.SaltCommitment != c.Commitment {
		return c, fmt.Errorf("salt check: %s: %w: the salt given commits to %s, the run to %s", dir, errSaltDiffers, short(c.Commitment)+"…", short(def.SaltCommitment)+"…")
	}
	rs, err := results.Read(filepath.Join(dir, results.ResultsFile))
	if err != nil {
		return c, fmt.Errorf("salt check: %w", err)
	}
	l, err := lockOf(dir, def, lockFile)
	if err != nil {
		return c, fmt.Errorf("salt check: %w", err)
	}
	if c, err = CheckSaltedResults(salt, l, rs); err != nil {
		return c, fmt.Errorf("salt check: %w", err)
	}
	if len(c.Problems) > 0 {
		return c, fmt.Errorf("salt check: %s: %d of %d results do not follow from the salt:\n%s", dir, len(c.Problems), len(rs), strings.Join(c.Problems, "\n"))
	}
	return c, nil
}

// CheckSaltedResults re-derives every result of rs from salt: its
// commitment, its id, its world seed (the salted seed of its public seed,
// the lock l's or SeedFor's when l is nil, after its recorded attempts)
// and its goal, naming each that does not follow in Problems.
func CheckSaltedResults(salt []byte, l *suite.Lock, rs []results.Result) (SaltCheck, error) {
	c := SaltCheck{Commitment: task.SaltCommitment(salt)}
	if len(salt) == 0 {
		return c, fmt.Errorf("no salt given: %s", SaltUsage)
	}
	public, err := newPublicSeeds(l)
	if err != nil {
		return c, err
	}
	bad := func(r results.Result, format string, a ...any) {
		c.Problems = append(c.Problems, fmt.Sprintf("episode %d (%s): ", r.Index, r.ID)+fmt.Sprintf(format, a...))
	}
	for _, r := range rs {
		if r.SaltCommitment != c.Commitment {
			bad(r, "salt commitment %s, not the salt's", commitmentName(r.SaltCommitment))
			continue
		}
		if want := task.SaltedID(r.Spec.ID(), c.Commitment); r.ID != want {
			bad(r, "id is not the salted id of %s (%s)", r.Spec.ID(), want)
			continue
		}
		if r.Err != "" {
			c.Errors++
			continue
		}
		base, err := public.seed(r.Index, r.Spec)
		if err != nil {
			bad(r, "%v", err)
			continue
		}
		if r.Attempts < 1 || r.Attempts > task.MaxAttempts {
			bad(r, "%d attempts recorded", r.Attempts)
			continue
		}
		if want := task.SeedAfter(task.SaltedSeed(salt, base, r.Spec.ID()), r.Attempts); r.Seed != want {
			bad(r, "world seed %d, the salt derives %d (attempt %d)", r.Seed, want, r.Attempts)
			continue
		}
		t, err := task.Rebuild(r.Spec, r.Seed)
		if err != nil {
			bad(r, "%v", err)
			continue
		}
		if g := t.Goal.String(); g != r.Goal {
			bad(r, "goal %q, the salted world draws %q", r.Goal, g)
			continue
		}
		c.Checked++
	}
	return c, nil
}

// lockOf finds the lock of hash def.Lock a run's public seeds came from:
// lockFile, the one kept in dir, or the embedded suite's. nil when the
// run had none (its public seeds are SeedFor's).
func lockOf(dir string, def results.Definition, lockFile string) (*suite.Lock, error) {
	if def.Lock == "" {
		return nil, nil
	}
	tried := []string{}
	try := func(name string, data []byte, err error) *suite.Lock {
		if err != nil {
			return nil
		}
		l, err := suite.ParseLock(name, data)
		if err != nil || l.Hash != def.Lock {
			return nil
		}
		return l
	}
	if lockFile != "" {
		data, err := os.ReadFile(lockFile)
		if err != nil {
			return nil, err
		}
		if l := try(lockFile, data, nil); l != nil {
			return l, nil
		}
		return nil, fmt.Errorf("%s is not the run's lock %s", lockFile, short(def.Lock))
	}
	kept := filepath.Join(dir, LockFile)
	data, err := os.ReadFile(kept)
	if l := try(kept, data, err); l != nil {
		return l, nil
	}
	if suite.IsEmbedded(def.Suite) {
		if l, err := suite.LoadLock(def.Suite); err == nil && l.Hash == def.Lock {
			return l, nil
		}
		tried = append(tried, "the embedded "+def.Suite+" lock")
	}
	return nil, fmt.Errorf("the run's public seeds come from lock %s, which is not at hand (tried %s): give it with --lock", short(def.Lock), strings.Join(append(tried, kept), ", "))
}
