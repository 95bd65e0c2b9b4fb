package run

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/longcraft/longcraft/bench/report"
	"github.com/longcraft/longcraft/bench/results"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/internal/buildinfo"
	"github.com/longcraft/longcraft/sim"
)

// Options describe a scoring run.
type Options struct {
	Suite    string // embedded suite name or YAML path
	Agent    string
	Out      string // run directory
	Config          // workers, certification, termination, traces
	Traces   string // all, failures or none
	Resume   bool   // continue a run from its results.jsonl
	Shard    int    // this shard's index in [0, Shards)
	Shards   int    // 0 or 1: no sharding
	Tiers    []string
	Families []string
	Seeds    int           // keep the first Seeds episodes of each family × tier (0: all)
	Set      []suite.Set   // overrides of every block of the suite (--set)
	Sweep    []suite.Sweep // the suite played once per value (--sweep), into one run

	// Args is the command line, kept in invocations.jsonl and the run
	// directory's lock file (nil: none). Score keeps it there with the
	// value of --salt redacted (RedactSalt), whoever calls it.
	Args []string

	// Salt, if not empty, plays held-out seeds (salt.go): every world seed
	// derived from the public one with the salt, every task generated
	// and certified before the first episode, SaltProgress (if not nil)
	// called after each.
	Salt         []byte
	SaltProgress func(done, total int)
	SaltFile     string // where the salt was read from (--salt-file): hidden from exec agents
	// SaltSecret, if not "", is where --salt random keeps the salt it drew
	// (ResolveSalt's secretPath): Score writes it once it holds the run
	// directory's lock, never over an existing file.
	SaltSecret string
	// weakSaltForTests lets a test play the attacker of a salt shorter
	// than MinSaltBytes, which Validate refuses everyone else.
	weakSaltForTests bool

	// AfterWrite, if not nil, is called after each write reaches the run
	// directory: "lock" (its lock file), "definition", "record" (a
	// trace), "result" (a results line), "index" and "footer" (the
	// trace's), "results" (the sorted rewrite), "summary" and "report".
	// The kill tests crash the process there; nothing else should need it.
	AfterWrite func(what string)
}

func (o *Options) after(what string) {
	if o.AfterWrite != nil {
		o.AfterWrite(what)
	}
}

// Plan expands the options' suite into the episodes this shard plays, with
// their positions in the whole suite. Filters that match nothing in the
// suite are an error naming the values it has.
func Plan(o Options) (name string, specs []task.Spec, indices []int, err error) {
	p, err := plan(o)
	return p.name, p.specs, p.indices, err
}

// planned is a run's plan: this shard's episodes and what defines them.
type planned struct {
	name      string
	specs     []task.Spec
	indices   []int
	suiteHash string // of every spec the suite expands to
	total     int    // episodes over all shards, after filters
}

func plan(o Options) (planned, error) {
	var p planned
	var all []task.Spec
	if agent.IsRecorded(o.Suite) {
		if len(o.Set) > 0 || len(o.Sweep) > 0 {
			return p, fmt.Errorf("--set and --sweep change a suite file or an embedded suite, not the tasks of recorded play (%s)", o.Suite)
		}
		r, err := agent.LoadRecorded(o.Suite)
		if err != nil {
			return p, err
		}
		p.name, all = r.SuiteName(), r.Specs()
	} else {
		s, err := suite.LoadSweep(o.Suite, o.Set, o.Sweep)
		if err != nil {
			return p, err
		}
		p.name, all = s.Name, s.Expand()
	}
	h := sha256.New()
	enc := json.NewEncoder(h)
	has := map[string]map[string]bool{"tier": {}, "family": {}}
	for _, sp := range all {
		// The hash is over the specs' numeric form (the index a bare
		// number, as before JSON outputs wrote it as a string: a
		// conversion drops Spec's MarshalJSON), so run.json of runs made
		// before still matches and they resume and merge.
		if err := enc.Encode(numericSpec(sp)); err != nil {
			return p, err
		}
		has["tier"][sp.Tier], has["family"][sp.Family] = true, true
	}
	p.suiteHash = hex.EncodeToString(h.Sum(nil))
	for kind, list := range map[string][]string{"tier": o.Tiers, "family": o.Families} {
		for _, v := range list {
			if !has[kind][v] {
				names := sortedKeys(has[kind])
				if kind == "tier" {
					slices.SortFunc(names, func(a, b string) int { return task.TierRank(a) - task.TierRank(b) })
				}
				return p, fmt.Errorf("--%s %s: suite %s has no such %s (it has %s)", kind, v, p.name, kind, strings.Join(names, ", "))
			}
		}
	}
	keep := func(list []string, v string) bool { return len(list) == 0 || slices.Contains(list, v) }
	// --seeds keeps the first N of each family × tier under each condition
	// (a sweep's every value keeps its own N).
	seen := map[[5]string]int{}
	shards := max(o.Shards, 1)
	for i, sp := range all {
		if !keep(o.Tiers, sp.Tier) || !keep(o.Families, sp.Family) {
			continue
		}
		k := [5]string{sp.Family, sp.Tier, strconv.Itoa(sp.Budget), string(sp.Feedback), string(sp.Observability)}
		if seen[k]++; o.Seeds > 0 && seen[k] > o.Seeds {
			continue
		}
		p.total++
		if i%shards != o.Shard {
			continue
		}
		p.specs = append(p.specs, sp)
		p.indices = append(p.indices, i)
	}
	if p.total == 0 {
		return p, fmt.Errorf("suite %s: the filters leave no episode", p.name)
	}
	return p, nil
}

// numericSpec is a task.Spec encoded by its fields' tags alone.
type numericSpec task.Spec

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// definition is what defines the run o plans as p, from suite lock lock.
func definition(o Options, p planned, lock string) results.Definition {
	d := results.Definition{Suite: p.name, SuiteHash: p.suiteHash, Lock: lock, SaltCommitment: task.SaltCommitment(o.Salt), Episodes: p.total,
		Tiers: o.Tiers, Families: o.Families, Seeds: o.Seeds, Shard: o.Shard, Shards: max(o.Shards, 1),
		Agent: o.Agent, Certify: o.Certify, NoProgress: o.NoProgress, TimeoutMs: o.Timeout.Milliseconds(), Traces: o.Traces}
	for _, r := range []*sim.Rules{sim.Classic(), sim.Extended()} {
		d.Rules = append(d.Rules, fmt.Sprintf("%s v%d", r.Name, r.Version))
	}
	if k, err := agent.Lookup(o.Agent); err == nil && !k.Offline {
		x := o.External
		d.Model, d.Temperature, d.MaxTokens, d.History = x.Model, x.Temperature, x.MaxTokens, x.History
		d.ImageSize, d.Symbolic, d.NoNotice = x.ImageSize, x.Symbolic, x.NoNotice
		d.Unsandboxed = x.NoSandbox && strings.HasPrefix(o.Agent, "exec:")
		d.PriceIn, d.PriceOut = o.PriceIn, o.PriceOut
		d.Reply, d.Notes, d.HistoryToks, d.Prompt = x.Reply, x.Notes, x.HistoryTokens, Config{Agent: o.Agent}.prompt()
		d.MaxEpisodeTokens, d.MaxRunTokens, d.MaxRunCost = o.MaxEpisodeTokens, o.MaxRunTokens, o.MaxRunCost
		d.StepTimeoutMs, d.CallTimeoutMs = x.StepTimeout.Milliseconds(), x.CallTimeout.Milliseconds()
		if u, err := url.Parse(x.BaseURL); err == nil && u.Host != "" {
			d.BaseURL = u.Scheme + "://" + u.Host
		}
	}
	return d
}

// Outcome is what Score leaves: the summary of every result in the run
// directory, and how this invocation went.
type Outcome struct {
	Summary       results.Summary
	Played        int // episodes played by this invocation
	Skipped       int // already in results.jsonl (resume)
	Replayed      int // a deterministic agent's result whose trace was lost: played again to rebuild it, giving the same result
	TracesMissing int // results whose traces were lost and cannot be rebuilt (an agent that is not deterministic)
	Steps         int // steps played by this invocation
	Elapsed       time.Duration
	Complete      bool // every planned episode has a result
	// BudgetSpent is the end of the run's budget once it was reached
	// (budget_tokens, budget_cost): the episodes without a result were not
	// started. A resume with the same budget starts none either.
	BudgetSpent task.End
}

// needsTrace reports whether a result's episode has a trace in the run's
// trace file when traces are kept as traces says (an episode that could
// not be played has none).
func needsTrace(traces string, r *results.Result) bool {
	return r.Err == "" && (traces == "all" || traces == "failures" && !r.Success)
}

// Score plays a suite with an agent into o.Out and leaves results.jsonl
// (a line per episode as it finishes), the traces, then results.jsonl in
// suite order, summary.json and report.html. progress, if not nil, is
// called with (done, total) after each episode.
//
// An episode is done once its trace (when kept) and then its result line
// are written, in that order, each flushed before the next episode's: a
// crash at any point loses at most the episodes being played. --resume
// checks run.json against this invocation's definition, drops a torn last
// line, and plays again any episode whose result lost its trace, dropping
// traces that have no result. On cancellation the results so far stay on
// disk and summary.json and report.html cover them, marked partial; the
// error is ctx's.
func Score(ctx context.Context, o Options, progress func(done, total int)) (oc Outcome, err error) {
	o.Args = RedactSalt(o.Args) // the command line is kept in the run directory; the salt never is
	if err := o.Validate(); err != nil {
		return oc, err
	}
	if o.Config.Build.IsZero() {
		o.Config.Build = buildinfo.Read()
	}
	p, err := plan(o)
	if err != nil {
		return oc, err
	}
	unlock, err := lockRun(o) // one writer per run directory, for the whole run
	if err != nil {
		return oc, err
	}
	defer unlock()
	o.after("lock")
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return oc, err
	}
	if o.SaltSecret != "" {
		if err := keepSaltSecret(o.SaltSecret, o.Salt); err != nil {
			return oc, err
		}
	}
	o.External.Hidden = append(append([]string(nil), o.External.Hidden...), hiddenPaths(o)...)
	resultsPath := filepath.Join(o.Out, results.ResultsFile)
	var have []results.Result
	switch prev, err := results.Read(resultsPath); {
	case err == nil && !o.Resume && len(prev) > 0:
		return oc, fmt.Errorf("%s already holds %d results: use --resume to continue the run, or another --out", resultsPath, len(prev))
	case err == nil:
		have = prev
	case !errors.Is(err, os.ErrNotExist):
		return oc, err
	}
	var saveLock func() error
	if o.Config.lock, saveLock, err = runLock(ctx, o, nil); err != nil {
		return oc, err
	}
	lockHash := ""
	if o.Config.lock != nil {
		lockHash = o.Config.lock.Hash
	}
	def := definition(o, p, lockHash)
	if o.Resume {
		switch was, err := results.ReadDefinition(o.Out); {
		case errors.Is(err, results.ErrNoDefinition) && len(have) == 0:
		case err != nil:
			return oc, fmt.Errorf("resume: %w", err)
		default:
			if err := checkSalt(def.SaltCommitment, was.SaltCommitment); err != nil {
				return oc, fmt.Errorf("resume %s: this invocation is not the run it continues (%w): use the run's salt (--salt-file), or another --out", o.Out, err)
			}
			if diff := def.Differs(was); diff != "" {
				return oc, fmt.Errorf("resume %s: this invocation is not the run it continues (%s): use another --out", o.Out, diff)
			}
		}
	}
	o.Config.Agent = o.Agent
	if agent.IsRecorded(o.Agent) {
		if o.Config.recorded, err = agent.LoadRecorded(o.Agent); err != nil {
			return oc, err
		}
	}
	kept := map[int]bool{}
	var keptResults []results.Result
	for _, r := range have {
		if want := o.Config.resultAgent(r.ID); r.Agent != want {
			return oc, fmt.Errorf("%s: results of agent %q, this run is %q", resultsPath, r.Agent, want)
		}
		if r.Lock != lockHash {
			return oc, fmt.Errorf("%s: results played from suite lock %q, this run's is %q: they are not the same tasks", resultsPath, short(r.Lock), short(lockHash))
		}
		if err := checkSalt(def.SaltCommitment, r.SaltCommitment); err != nil {
			return oc, fmt.Errorf("%s: episode %d: %w", resultsPath, r.Index, err)
		}
		if !kept[r.Index] { // a duplicate line is dropped
			kept[r.Index] = true
			keptResults = append(keptResults, r)
		}
	}
	have = keptResults
	// What a resume keeps must be what its traces say: a results file
	// edited between invocations (by hand, or by an agent that reached
	// it) is refused before anything is written.
	traced := map[string]bool{}
	if len(have) > 0 {
		if err := verifyResults(have, o.Out, def, true, false).Refuse("resume", o.Out); err != nil {
			return oc, err
		}
	}
	if err := saveLock(); err != nil {
		return oc, err
	}
	if err := results.WriteDefinition(o.Out, def); err != nil {
		return oc, err
	}
	o.after("definition")
	inv := results.NewInvocation("score", o.Args, time.Now())
	defer func() {
		inv.Played, inv.Skipped, inv.Replayed, inv.Complete = oc.Played, oc.Skipped, oc.Replayed, oc.Complete
		if err != nil {
			inv.Error = err.Error()
		}
		if ierr := results.AppendInvocation(o.Out, inv, time.Now()); err == nil {
			err = ierr
		}
	}()

	var tw *trace.Writer
	var rebuild []results.Result // results whose lost traces are played again
	o.Config.Traces = o.Traces == "all" || o.Traces == "failures"
	if o.Config.Traces {
		// Keep one trace per result; a result whose trace was lost is
		// played again, and a trace without its result (the crash came
		// between the two writes) is dropped, since its episode will be.
		byID := map[string]*results.Result{}
		for i := range have {
			byID[have[i].ID] = &have[i]
		}
		if tw, err = trace.OpenAppend(filepath.Join(o.Out, results.TraceFile), func(_ int, ep *trace.Episode) bool {
			if ep.Header.Task == nil {
				return false
			}
			id := ep.Header.EpisodeID()
			r := byID[id]
			if r == nil || traced[id] || !needsTrace(o.Traces, r) {
				return false
			}
			traced[id] = true
			return true
		}); err != nil {
			return oc, err
		}
		tw.AfterWrite = o.after
		defer func() {
			if tw != nil {
				tw.Close()
			}
		}()
		// A result whose trace was lost keeps its result: playing it again
		// and taking the new one would retry exactly the episodes that lack
		// a trace (with traces of failures only, the failures), a free
		// second chance. A deterministic agent's trace is rebuilt by
		// playing the episode again and checking it gives the recorded
		// result; another agent's stays missing, and the summary counts
		// it unverified.
		kind, _ := agent.Lookup(o.Agent)
		for _, r := range have {
			if needsTrace(o.Traces, &r) && !traced[r.ID] {
				if kind.Offline {
					rebuild = append(rebuild, r)
				} else {
					oc.TracesMissing++
				}
			}
		}
	}
	// The results file holds exactly the kept results before anything is
	// appended: a torn last line, duplicates and results to play again go.
	if err := results.WriteSorted(resultsPath, have); err != nil {
		return oc, err
	}
	// The episodes still to play: every planned one without a result.
	done := map[int]bool{}
	for _, r := range have {
		done[r.Index] = true
	}
	var todoSpecs []task.Spec
	var todoIdx []int
	for i, sp := range p.specs {
		if !done[p.indices[i]] {
			todoSpecs, todoIdx = append(todoSpecs, sp), append(todoIdx, p.indices[i])
		}
	}
	// Held-out seeds: their tasks, and those of rebuild, made now, in
	// parallel.
	if o.Config.salted, err = saltTasks(ctx, o, todoSpecs, todoIdx, rebuild); err != nil {
		return oc, err
	}
	if len(rebuild) > 0 {
		specs, idx := make([]task.Spec, len(rebuild)), make([]int, len(rebuild))
		recorded := map[int]results.Result{}
		for i, r := range rebuild {
			specs[i], idx[i], recorded[r.Index] = r.Spec, r.Index, r
		}
		cfg := o.Config
		cfg.Agent = o.Agent
		if err := Suite(ctx, specs, idx, cfg, func(d Done) error {
			// A newer binary may rebuild the trace: the result must be
			// the same, whichever build played it (the new trace's
			// header names the one that recorded it).
			again := d.Result
			again.Build = recorded[d.Result.Index].Build
			want, _ := json.Marshal(recorded[d.Result.Index])
			got, _ := json.Marshal(again)
			if !bytes.Equal(want, got) {
				return fmt.Errorf("resume: episode %d (%s) played again to rebuild its lost trace gave another result than the recorded one: the recorded result stands and the run stops", d.Result.Index, d.Result.ID)
			}
			if d.Trace == nil {
				return fmt.Errorf("resume: episode %d (%s) played again gave no trace", d.Result.Index, d.Result.ID)
			}
			oc.Replayed++
			traced[d.Result.ID] = true
			return tw.Append(d.Trace)
		}); err != nil {
			return oc, err
		}
	}
	oc.Skipped = len(p.specs) - len(todoSpecs)
	f, err := os.OpenFile(resultsPath, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return oc, err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	// Episodes' wall times, beside the results and apart from them.
	tf, err := os.OpenFile(filepath.Join(o.Out, results.TimingsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return oc, err
	}
	defer tf.Close()
	times := json.NewEncoder(tf)
	start := time.Now()
	o.Config.spend = newSpend(o.Config, have, o.Out)
	starts := &startWatch{agent: o.Agent}
	runErr := Suite(ctx, todoSpecs, todoIdx, o.Config, func(d Done) error {
		if err := starts.check(&d.Result); err != nil {
			return err // the agent cannot start: no result, no trace
		}
		// The trace first, then the result: a result on disk means its
		// trace is too.
		if tw != nil && d.Trace != nil && needsTrace(o.Traces, &d.Result) {
			if err := tw.Append(d.Trace); err != nil {
				return err
			}
			traced[d.Result.ID] = true
		}
		if err := enc.Encode(&d.Result); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		o.after("result")
		if err := times.Encode(&d.Timing); err != nil {
			return err
		}
		have = append(have, d.Result)
		oc.Played++
		oc.Steps += d.Result.Steps
		if progress != nil {
			progress(oc.Skipped+oc.Played, len(p.specs))
		}
		return nil
	})
	oc.Elapsed = time.Since(start)
	oc.BudgetSpent = o.Config.spend.spent()
	if tw != nil {
		err := tw.Close()
		tw = nil
		if err != nil && runErr == nil {
			runErr = err
		}
	}
	oc.Summary = summarize(def, have, traced)
	oc.Complete = len(have) == len(p.specs)
	results.CountMissing(&oc.Summary, p.specs, p.indices, have)
	if oc.Complete && errors.Is(runErr, context.Canceled) && ctx.Err() != nil {
		runErr = nil // the signal came after the last episode: the run is whole
	}
	if !oc.Complete {
		// A partial run still says where it stands.
		oc.Summary.Partial, oc.Summary.Planned = true, len(p.specs)
		werr := results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), oc.Summary)
		if werr == nil {
			werr = report.WriteReport(filepath.Join(o.Out, results.ReportFile), oc.Summary, have)
		}
		return oc, errors.Join(runErr, werr)
	}
	if runErr != nil {
		return oc, runErr
	}
	if err := results.WriteSorted(resultsPath, have); err != nil {
		return oc, err
	}
	o.after("results")
	if err := results.WriteSummary(filepath.Join(o.Out, results.SummaryFile), oc.Summary); err != nil {
		return oc, err
	}
	o.after("summary")
	if err := report.WriteReport(filepath.Join(o.Out, results.ReportFile), oc.Summary, have); err != nil {
		return oc, err
	}
	o.after("report")
	return oc, nil
}

// Merge combines the shard run directories of one run into out: the same
// results.jsonl, summary.json, report.html, run.json and set of traces as
// the run played unsharded. It refuses a shard set with a gap or an
// overlap, shards of different runs (their run.json differ in more than
// the shard), and unfinished shards, naming them.
func Merge(out string, dirs []string) (results.Summary, error) {
	fail := func(format string, a ...any) (results.Summary, error) {
		return results.Summary{}, fmt.Errorf("merge: "+format, a...)
	}
	if len(dirs) == 0 {
		return fail("no shard directories")
	}
	if ost, err := os.Stat(out); err == nil {
		for _, d := range dirs {
			if dst, err := os.Stat(d); err == nil && os.SameFile(ost, dst) {
				return fail("--out %s is the shard %s: merge into a directory of its own", out, d)
			}
		}
	}
	unlock, err := lockMerge(out, dirs)
	if err != nil {
		return fail("%w", err)
	}
	defer unlock()
	var def results.Definition
	byShard := map[int]string{}
	var all []results.Result
	traced := map[string]bool{}
	for k, d := range dirs {
		sd, err := results.ReadDefinition(d)
		if err != nil {
			return fail("%w", err)
		}
		if k == 0 {
			def = sd
		} else if err := checkSalt(sd.SaltCommitment, def.SaltCommitment); err != nil {
			return fail("%s and %s are not shards of one run (%w)", d, dirs[0], err)
		} else if diff := sd.Differs(def, "shard"); diff != "" {
			return fail("%s and %s are not shards of one run (%s)", d, dirs[0], diff)
		}
		if prev, dup := byShard[sd.Shard]; dup {
			return fail("shard %d of %d given twice: %s and %s", sd.Shard, sd.Shards, prev, d)
		}
		byShard[sd.Shard] = d
		var s results.Summary
		data, err := os.ReadFile(filepath.Join(d, results.SummaryFile))
		if err != nil {
			return fail("%s has no %s: is the shard finished?", d, results.SummaryFile)
		}
		if err := json.Unmarshal(data, &s); err != nil {
			return fail("%s: %w", filepath.Join(d, results.SummaryFile), err)
		}
		if s.Partial {
			return fail("%s is unfinished (%d of %d episodes): resume it first", d, s.Episodes, s.Planned)
		}
		rs, err := results.Read(filepath.Join(d, results.ResultsFile))
		if err != nil {
			return fail("%w", err)
		}
		for _, r := range rs {
			if r.Lock != def.Lock || !agent.IsRecorded(def.Agent) && r.Agent != def.Agent {
				return fail("%s: episode %d was played by %s from suite lock %s, the run is %s from %s: not the same tasks",
					d, r.Index, r.Agent, short(r.Lock), def.Agent, short(def.Lock))
			}
			if err := checkSalt(def.SaltCommitment, r.SaltCommitment); err != nil {
				return fail("%s: episode %d: %w", d, r.Index, err)
			}
		}
		// What is merged must be what the shard's traces say.
		v, err := Verify(d)
		if err != nil {
			return fail("%w", err)
		}
		if err := v.Refuse("merge", d); err != nil {
			return results.Summary{}, err // "merge: DIR does not match its traces: …"
		}
		for id := range v.traced {
			traced[id] = true
		}
		all = append(all, rs...)
	}
	var missing []string
	for i := range def.Shards {
		if _, ok := byShard[i]; !ok {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return fail("shard %s of %d missing (have %d of %d)", strings.Join(missing, ", "), def.Shards, len(byShard), def.Shards)
	}
	seen := map[int]bool{}
	for _, r := range all {
		if seen[r.Index] {
			return fail("episode %d (%s) in two shards", r.Index, r.ID)
		}
		seen[r.Index] = true
	}
	if len(all) != def.Episodes {
		return fail("the shards hold %d results, the run plans %d", len(all), def.Episodes)
	}
	// The traces first: they are the last thing that can refuse the
	// shard set (a lost trace file), and a refused merge should leave no
	// half-written run behind.
	if def.Traces != "none" && def.Traces != "" {
		if err := mergeTraces(out, dirs, all, def.Traces); err != nil {
			return fail("%w", err)
		}
	}
	def.Shard, def.Shards = 0, 1
	if err := results.WriteDefinition(out, def); err != nil {
		return results.Summary{}, err
	}
	// The shards' timings and invocations, then this merge's.
	if err := mergeTimings(out, dirs); err != nil {
		return fail("%w", err)
	}
	inv := results.NewInvocation("merge", append([]string{"merge", "--out", out}, dirs...), time.Now())
	inv.Merged, inv.Complete = dirs, true
	if err := os.Remove(filepath.Join(out, results.InvocationsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return results.Summary{}, err
	}
	for _, d := range dirs {
		invs, err := results.ReadInvocations(d)
		if err != nil {
			return fail("%w", err)
		}
		for _, i := range invs {
			if err := results.AppendInvocation(out, i, i.End); err != nil {
				return results.Summary{}, err
			}
		}
	}
	if err := results.WriteSorted(filepath.Join(out, results.ResultsFile), all); err != nil {
		return results.Summary{}, err
	}
	s := summarize(def, all, traced)
	if err := results.WriteSummary(filepath.Join(out, results.SummaryFile), s); err != nil {
		return results.Summary{}, err
	}
	if err := report.WriteReport(filepath.Join(out, results.ReportFile), s, all); err != nil {
		return results.Summary{}, err
	}
	return s, results.AppendInvocation(out, inv, time.Now())
}

// mergeTraces writes the shards' traces into out's trace file, in suite
// order, one per result that has one.
func mergeTraces(out string, dirs []string, all []results.Result, traces string) error {
	index := map[string]int{}
	for _, r := range all {
		index[r.ID] = r.Index
	}
	type located struct {
		file *trace.File
		i    int
		at   int // suite position
	}
	var eps []located
	for _, d := range dirs {
		tf, err := trace.Open(filepath.Join(d, results.TraceFile))
		if errors.Is(err, os.ErrNotExist) {
			continue // a shard whose episodes all succeeded, with traces of failures only
		}
		if err != nil {
			return err
		}
		defer tf.Close()
		for i := range tf.Index {
			ep, err := tf.Episode(i)
			if err != nil {
				return err
			}
			if ep.Header.Task == nil {
				return fmt.Errorf("%s: episode %d has no task", tf.Path, i)
			}
			at, ok := index[ep.Header.EpisodeID()]
			if !ok {
				return fmt.Errorf("%s: episode %d (%s) has no result", tf.Path, i, ep.Header.EpisodeID())
			}
			eps = append(eps, located{tf, i, at})
		}
	}
	// Every result that should have a trace has one: a shard whose trace
	// file was lost (not copied back from the cluster) is refused, not
	// merged into a run with traces missing.
	want := 0
	for i := range all {
		if needsTrace(traces, &all[i]) {
			want++
		}
	}
	if len(eps) != want {
		return fmt.Errorf("the shards' results need %d traces (traces %s), their trace files hold %d: is a shard's %s missing?", want, traces, len(eps), results.TraceFile)
	}
	sort.Slice(eps, func(a, b int) bool { return eps[a].at < eps[b].at })
	tw, err := trace.Create(filepath.Join(out, results.TraceFile))
	if err != nil {
		return err
	}
	for _, e := range eps {
		ep, err := e.file.Episode(e.i)
		if err == nil {
			err = tw.Append(ep)
		}
		if err != nil {
			tw.Close()
			return err
		}
	}
	return tw.Close()
}

// short abbreviates a lock hash for messages ("none" when empty).
func short(h string) string {
	switch {
	case h == "":
		return "none"
	case len(h) > 12:
		return h[:12]
	}
	return h
}

// mergeTimings writes the shards' timings.jsonl into out's, in suite order.
func mergeTimings(out string, dirs []string) error {
	var all []results.Timing
	for _, d := range dirs {
		ts, err := results.ReadTimings(d)
		if err != nil {
			return err
		}
		all = append(all, ts...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Index < all[j].Index })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range all {
		if err := enc.Encode(&all[i]); err != nil {
			return err
		}
	}
	return results.WriteAtomic(filepath.Join(out, results.TimingsFile), buf.Bytes())
}
