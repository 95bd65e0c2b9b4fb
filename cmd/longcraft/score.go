package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/longcraft/longcraft/bench/report"
	"github.com/longcraft/longcraft/bench/results"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/run"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
)

func newScoreCmd() *cobra.Command {
	var sf scoreFlags
	cmd := &cobra.Command{
		Use:     "score",
		Short:   "Score an agent on a suite: results.jsonl, summary.json, report.html, traces",
		Long:    fmt.Sprintf(scoreLong, suite.Embedded(), agent.Help()),
		Example: scoreExample,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return sf.score(cmd) },
	}
	sf.define(cmd)
	return cmd
}

// scoreLong is score's help, with the embedded suites and the agents' help
// to fill in.
const scoreLong = `score plays every episode of --suite (embedded: %v, or a YAML file)
with --agent across --workers cores, and writes to --out:

  results.jsonl     one line per episode, appended as each finishes, naming
                    the build that played it (seeds as strings: jq and
                    JavaScript round integers over 2^53)
  episodes.lctrace  the traces (--traces all, failures or none)
  summary.json      per family × tier: success rate with a 95%% Wilson
                    interval, ends, means and medians of every metric
  report.html       the report, one self-contained page
  run.json          what defines the run (--resume and merge check it)
  invocations.jsonl when, where and by which build it was played
  timings.jsonl     each episode's wall time and time per decision

The tasks come from the suite's lock (bench/suite/suites/NAME.lock.json for
an embedded suite, FILE.lock.json beside a suite file): every episode's
world seed, goal and planner certificate, frozen by "longcraft suite lock",
so score runs no planner and every result carries the lock's hash. A suite
file without a lock is certified once and its lock kept in --out
(suite.lock.json). A lock made under other rules versions is refused.

Results do not depend on --workers. Ctrl-C stops the episodes in play and
writes the partial summary (a second Ctrl-C quits at once); --resume
continues a run, refusing one of another definition. --set key=value
changes every block (and scenario) of the suite, --sweep key=v1,v2 plays it
once per value into one run (docs/tasks.md).

A run directory has one writer at a time: while a score (or a merge) writes
--out, another score, --resume or merge into it is refused at once, naming
the process that holds it (OUT/.longcraft.lock; a run that was killed
leaves the file, which blocks nothing).

An episode the agent fails (no reply, a crash, a timeout, a model server
that errs) ends as agent_error: the table, summary.json ("agent_errors",
also in "errors") and report.html count them per group, and the run exits
with code 3 unless --allow-agent-errors. An agent that fails its first
episode before playing a step (a command that does not exist, a server not
listening) stops the run there, with the cause, and records no result for
that episode: fix the agent and --resume.

Exit codes: 0 the run is complete (or its --max-run-* budget was reached);
1 bad usage or another error (an interrupted run too); 3 agent errors: the
run finished with agent_error episodes, or stopped because the agent could
not start; 4 the results do not match their traces.

Scenarios (hand-written episodes in a suite: a goal, a map, a start, …) play
like any episode. At the skill level (docs/skills.md) every decision is a
skill (collect wood, make compass, explore east) that the simulation carries
out step by step; the agents random, explorer (the learner) and planner (the
oracle), and external players, play that level too. The reference setups:
  longcraft score --suite explorer-chain --agent explorer --out runs/chain
  longcraft score --suite multigoal-grid --agent random --out runs/grid

Held-out seeds: the lock's seeds are public, and a table of a planner's
play on them wins them blind. A score to publish plays --salt random (or
--salt-file F, --salt S): every world seed is derived from the lock's and
the salt with a keyed hash, the tasks are generated and certified before
the first episode (with a progress line), and the episode ids change with
the salt; run.json, results, summary and traces record the salt's
commitment, never the salt. Reveal the salt after publishing: anyone can
re-run the run and check it ("longcraft salt check"; docs/tasks.md).
Without a salt the table says "public seeds (memorisable)".

--shard i/n plays every n-th episode (defaults from Kubernetes Indexed Jobs,
JOB_COMPLETION_INDEX with --shards, and Slurm arrays, SLURM_ARRAY_TASK_ID
and SLURM_ARRAY_TASK_COUNT); "longcraft merge" joins the shards
(docs/scale-out.md).

An exec:COMMAND agent runs in a sandbox (Linux user, PID and mount
namespaces): an empty working directory of its own, the file tree
read-only, --out, the suite file and its lock unreadable, no other process
visible, and every process it starts killed with it and with longcraft. It
keeps the network and gets only the environment --agent-env passes. Where
the sandbox cannot be set up, score refuses; --no-sandbox runs the agent
unprotected (docs/players.md says what each enforces).

Agents (--agent):
%s`

const scoreExample = `  longcraft score --suite default --agent explorer --out runs/explorer
  longcraft score --suite standard --agent planner --tier hard --seeds 5 --out runs/hard
  longcraft score --suite default --agent random --out runs/r --shard 0/2
  longcraft score --agent trace:human.lctrace --out runs/human   # a human baseline
  longcraft score --suite default --agent explorer --set families=obtain,collect --sweep budget=100,300,1000 --out runs/b`

// scoreFlags are score's flags: the run's options, and those read into
// them (the overrides, the shard, the salt).
type scoreFlags struct {
	o              run.Options
	sets, sweeps   []string
	shard          string
	quiet          bool
	concurrency    int
	salt, saltFile string
}

// define defines score's flags on cmd.
func (sf *scoreFlags) define(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&sf.o.Suite, "suite", "default", "embedded suite name or suite YAML file")
	f.StringVar(&sf.o.Agent, "agent", "explorer", "one of "+agent.Usages()+" (see above; trace:FILE's tasks are the suite unless --suite is given)")
	f.StringVarP(&sf.o.Out, "out", "o", "", "run directory (required)")
	f.IntVar(&sf.o.Workers, "workers", 0, "parallel workers (0: one per core)")
	f.BoolVar(&sf.o.Certify, "certify", true, "a suite file without a lock: certify each task with the planner (and keep the lock in --out); false plays them uncertified")
	f.IntVar(&sf.o.NoProgress, "no-progress", 0, "end an episode after this many steps (decisions, at the skill level) without a milestone (0: never)")
	f.DurationVar(&sf.o.Timeout, "timeout", 0, "end an episode after this wall-clock time (0: never)")
	f.StringVar(&sf.o.Traces, "traces", "all", "record traces of all episodes, failures only, or none")
	f.BoolVar(&sf.o.Resume, "resume", false, "continue the run in --out, skipping finished episodes")
	f.Bool("allow-agent-errors", false, "exit 0 even when episodes ended agent_error (they are still counted and shown)")
	f.StringVar(&sf.shard, "shard", "", "play shard i of n (\"i/n\"); default from the job environment")
	f.IntVar(&sf.o.Shards, "shards", 0, "shard count, with JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)")
	f.StringSliceVar(&sf.o.Tiers, "tier", nil, "only these tiers (repeatable)")
	f.StringSliceVar(&sf.o.Families, "family", nil, "only these families (repeatable)")
	f.IntVar(&sf.o.Seeds, "seeds", 0, "only the first N episodes of each family × tier and condition (budget, feedback, view) (0: all)")
	f.StringArrayVar(&sf.sweeps, "sweep", nil, "play the suite once per value, key=v1,v2,... (repeatable: every combination), into one run; keys budget, feedback, observability and the scenario knobs grid, size, tour, decisions; the report plots success against each")
	f.StringArrayVar(&sf.sets, "set", nil, "override a field of every block of the suite, key=value (repeatable): budget, feedback, observability, split, seeds.from, seeds.count, tiers, families (a,b); of every scenario those and grid, size, tour, decisions, actions; the changed suite is certified and locked in --out")
	f.BoolVarP(&sf.quiet, "quiet", "q", false, "no progress output")
	f.StringVar(&sf.salt, "salt", "", "held-out seeds: derive every world seed from the lock's and this salt (\"random\": draw one and keep it in OUT/"+run.SaltSecretFile+"); reveal it only after the run is published")
	f.StringVar(&sf.saltFile, "salt-file", "", "held-out seeds: the salt is this file's contents (without a trailing newline)")
	f.IntVar(&sf.concurrency, "concurrency", 0, "external agents: episodes played at once (sets --workers)")
	externalFlags(cmd, &sf.o)
}

// externalFlags defines the flags of external agents (openai, exec:) on
// cmd.
func externalFlags(cmd *cobra.Command, o *run.Options) {
	f := cmd.Flags()
	x := &o.External
	f.StringVar(&x.Model, "model", "", "openai: the model name")
	f.StringVar(&x.BaseURL, "base-url", "", "openai: the server, e.g. http://localhost:8000/v1 (vLLM) or https://api.openai.com/v1")
	f.Float64Var(&x.Temperature, "temperature", 0, "openai: sampling temperature")
	f.Float64Var(&o.PriceIn, "price-in", 0, "external agents: US dollars per million prompt tokens (cost_usd in the results; 0: not measured)")
	f.Float64Var(&o.PriceOut, "price-out", 0, "external agents: US dollars per million completion tokens")
	f.IntVar(&x.MaxTokens, "max-tokens", 0, "openai: completion token limit (0: the server's)")
	f.IntVar(&x.History, "history", 4, "openai: past observation/reply pairs kept in the prompt")
	f.DurationVar(&x.CallTimeout, "call-timeout", 60*time.Second, "openai: timeout of one call")
	f.IntVar(&x.Retries, "retries", 5, "openai: retries on 429, 5xx, timeouts and connection errors (exponential backoff with jitter; 0: none)")
	f.DurationVar(&x.StepTimeout, "step-timeout", 30*time.Second, "exec: timeout of one reply")
	f.StringArrayVar(&x.Env, "agent-env", nil, "exec: pass an environment variable to the sandboxed agent, NAME (its value here) or NAME=VALUE (repeatable); it gets only these, PATH, LANG, LC_ALL, HOME and TMPDIR")
	f.StringArrayVar(&x.Hidden, "agent-hide", nil, "exec: a path the sandboxed agent must neither read nor write, besides --out, the suite file and its lock (repeatable), e.g. ~/.ssh")
	f.BoolVar(&x.NoSandbox, "no-sandbox", false, "exec: run the agent without the sandbox, as longcraft's own user and environment: it can read and write the run's files (docs/players.md)")
	f.IntVar(&x.ImageSize, "image-size", 0, "external agents: include a PNG agent view of this size (0: text only)")
	f.BoolVar(&x.Symbolic, "symbolic", false, "external agents: include the semantic local view (9×9; Crafter's 9×7 in the crafter and balrog-crafter suites)")
	f.BoolVar(&x.NoNotice, "no-invalid-notice", false, "external agents: do not say when a reply was invalid")
	f.StringVar(&x.Reply, "reply", "json", "openai: how the model answers: json (a JSON object in its text), schema (response_format json_schema, the server constrains it), tools (a call of the function act)")
	f.BoolVar(&x.Notes, "notes", false, "external agents: the scratchpad: a reply's \"notes\" are shown back at the next step and kept in the trace")
	f.IntVar(&x.HistoryTokens, "history-tokens", 0, "openai: also bound the history by its estimated tokens (bytes/4; 0: by --history alone)")
	f.IntVar(&o.MaxEpisodeTokens, "max-episode-tokens", 0, "external agents: end an episode (budget_tokens) once its calls used this many tokens (0: no limit)")
	f.IntVar(&o.MaxRunTokens, "max-run-tokens", 0, "external agents: end the run once its calls used this many tokens: the episodes in play end as budget_tokens, no other starts (0: no limit)")
	f.Float64Var(&o.MaxRunCost, "max-run-cost", 0, "external agents: end the run once its calls cost this many US dollars at --price-in/--price-out (budget_cost; 0: no limit)")
}

// score reads the flags into the run's options, checks them
// (run.Options.Validate, before the suite is loaded), and scores.
func (sf *scoreFlags) score(cmd *cobra.Command) error {
	o := &sf.o
	if agent.IsRecorded(o.Agent) && !cmd.Flags().Changed("suite") {
		o.Suite = o.Agent // the tasks that were played
	}
	if sf.concurrency > 0 {
		o.Workers = sf.concurrency
	}
	if err := o.Validate(); err != nil { // Score checks them again, for library callers
		return err
	}
	if err := sf.overrides(); err != nil {
		return err
	}
	if err := applyProtocol(cmd, &o.External, o.Suite, sf.quiet); err != nil {
		return err
	}
	var err error
	if o.Shard, o.Shards, err = parseShard(sf.shard, cmd.Flags().Changed("shards"), o.Shards); err != nil {
		return err
	}
	o.Args = append([]string{"longcraft"}, os.Args[1:]...) // Score redacts the salt
	if err := applySalt(cmd, o, sf.salt, sf.saltFile, sf.quiet); err != nil {
		return err
	}
	return runScore(cmd, *o, sf.quiet)
}

// overrides parses --set and --sweep into the run's options.
func (sf *scoreFlags) overrides() error {
	for _, kv := range sf.sets {
		set, err := suite.ParseSet(kv)
		if err != nil {
			return err
		}
		sf.o.Set = append(sf.o.Set, set)
	}
	for _, kv := range sf.sweeps {
		sw, err := suite.ParseSweep(kv)
		if err != nil {
			return err
		}
		sf.o.Sweep = append(sf.o.Sweep, sw)
	}
	return nil
}

// applyProtocol takes the suite's protocol settings (balrog-crafter's
// history of 16, temperature 1.0, …) for the external player's flags that
// were not given, and says so.
func applyProtocol(cmd *cobra.Command, x *agent.External, suiteName string, quiet bool) error {
	if agent.IsRecorded(suiteName) {
		return nil
	}
	s, err := suite.Load(suiteName)
	if err != nil || s.Protocol == nil {
		return nil // score reports a suite that does not load
	}
	p, f := s.Protocol, cmd.Flags()
	var took []string
	if p.History > 0 && !f.Changed("history") {
		x.History = p.History
		took = append(took, fmt.Sprintf("--history %d", p.History))
	}
	if p.Temperature != nil && !f.Changed("temperature") {
		x.Temperature = *p.Temperature
		took = append(took, fmt.Sprintf("--temperature %g", *p.Temperature))
	}
	if p.MaxTokens > 0 && !f.Changed("max-tokens") {
		x.MaxTokens = p.MaxTokens
		took = append(took, fmt.Sprintf("--max-tokens %d", p.MaxTokens))
	}
	if p.InvalidNotice != nil && !f.Changed("no-invalid-notice") {
		x.NoNotice = !*p.InvalidNotice
		took = append(took, fmt.Sprintf("--no-invalid-notice=%t", x.NoNotice))
	}
	if len(took) > 0 && !quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "suite %s follows protocol %s (%s): external players get %s unless given\n", s.Name, p.Name, p.Reference, strings.Join(took, ", "))
	}
	return nil
}

// parseShard reads "i/n", or the job environment when it is empty.
func parseShard(s string, shardsSet bool, shards int) (int, int, error) {
	if s == "" {
		if v, ok := os.LookupEnv("SLURM_ARRAY_TASK_ID"); ok {
			s = v + "/" + os.Getenv("SLURM_ARRAY_TASK_COUNT")
		} else if v, ok := os.LookupEnv("JOB_COMPLETION_INDEX"); ok && shardsSet {
			s = v + "/" + strconv.Itoa(shards)
		} else {
			return 0, 1, nil
		}
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("shard %q: want i/n with 0 ≤ i < n", s)
	}
	return i, n, nil
}

func runScore(cmd *cobra.Command, o run.Options, quiet bool) (err error) {
	var progress func(done, total int)
	if !quiet {
		if term.IsTerminal(int(os.Stderr.Fd())) {
			var bar *progressbar.ProgressBar
			progress = func(done, total int) {
				if bar == nil {
					bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(os.Stderr),
						progressbar.OptionSetDescription("episodes"), progressbar.OptionShowCount(),
						progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
				}
				_ = bar.Set(done)
			}
		} else {
			last := time.Now()
			progress = func(done, total int) {
				if time.Since(last) > 10*time.Second || done == total {
					fmt.Fprintf(os.Stderr, "%d/%d episodes\n", done, total)
					last = time.Now()
				}
			}
		}
	}
	oc, err := run.Score(cmd.Context(), o, progress)
	if oc.Summary.Episodes > 0 {
		printTable(cmd.OutOrStdout(), oc)
		if r := oc.Summary.Run; r != nil && r.Unsandboxed { // as run.json records it
			fmt.Fprintln(cmd.OutOrStdout(), "agent unsandboxed (--no-sandbox): it could read and write this run's files, so these results are its word; run.json records it (\"unsandboxed\": true)")
		}
		if ts, terr := results.ReadTimings(o.Out); terr == nil && len(ts) > 0 {
			t := results.SummarizeTimings(ts)
			fmt.Fprintf(cmd.OutOrStdout(), "wall time on this machine (timings.jsonl): %.3g ms per episode, %.3g ms per decision (medians; 90th percentiles %.3g and %.3g)\n",
				t.WallMedianMs, t.PerStepMedianMs, t.WallP90Ms, t.PerStepP90Ms)
		}
	}
	allowAgentErrors, _ := cmd.Flags().GetBool("allow-agent-errors")
	var cannotStart *run.AgentStartError
	if errors.As(err, &cannotStart) {
		return withExitCode(exitAgentErrors, err)
	}
	if err == nil && (oc.Complete || oc.BudgetSpent != "") {
		defer func() { err = agentErrorsExit(oc.Summary, allowAgentErrors, err) }()
	}
	switch {
	case err == nil && oc.Complete:
		fmt.Fprintf(cmd.OutOrStdout(), "wrote %s/{%s,%s,%s}\n", o.Out, results.ResultsFile, results.SummaryFile, results.ReportFile)
		return nil
	case errors.Is(err, cmd.Context().Err()) && err != nil:
		return fmt.Errorf("interrupted: %d episodes in %s so far (summary above is partial); --resume continues", oc.Summary.Episodes, o.Out)
	case err == nil && oc.BudgetSpent != "":
		fmt.Fprintf(cmd.OutOrStdout(), "the run's budget was reached (%s): %d of %d episodes have a result, the episodes in play ended as %s, no other was started; wrote %s (summary and report are partial)\n",
			oc.BudgetSpent, oc.Summary.Episodes, oc.Summary.Planned, oc.BudgetSpent, o.Out)
		return nil
	case err == nil:
		return fmt.Errorf("incomplete run")
	}
	return err
}

// printTable prints the summary as a terminal table.
func printTable(w io.Writer, oc run.Outcome) {
	s := oc.Summary
	fmt.Fprintf(w, "suite %s, agent %s: %d episodes", s.Suite, s.Agent, s.Episodes)
	if oc.Played > 0 {
		fmt.Fprintf(w, " (%d played in %.1fs, %.0f steps/s", oc.Played, oc.Elapsed.Seconds(), float64(oc.Steps)/oc.Elapsed.Seconds())
		if oc.Skipped > 0 {
			fmt.Fprintf(w, ", %d resumed", oc.Skipped)
		}
		fmt.Fprint(w, ")")
	}
	if s.Lock != "" {
		fmt.Fprintf(w, ", tasks from lock %.12s", s.Lock)
	}
	fmt.Fprintf(w, ", %s", task.SeedsLabel(s.SaltCommitment))
	fmt.Fprintln(w)
	_ = results.WriteTable(w, s)
	if o := s.Overall; o.Calls > 0 {
		fmt.Fprintf(w, "external agent: %d model calls, %d tokens, %.0f ms per call", o.Calls, o.Tokens, float64(o.LatencyMs)/float64(o.Calls))
		if o.TokensPerSuccess.OK {
			fmt.Fprintf(w, ", %.0f tokens per success", o.TokensPerSuccess.Value)
		}
		if st := o.Metrics["state_consistency"]; st.N > 0 {
			fmt.Fprintf(w, ", state consistency %.0f%% (%d beliefs)", 100*st.Mean, o.BeliefsScored)
		}
		if st := o.Metrics["world_model_accuracy"]; st.N > 0 {
			fmt.Fprintf(w, ", world-model accuracy %.0f%% (%d predictions)", 100*st.Mean, o.PredictionsScored)
		}
		// The skills over the baselines: an accuracy alone rewards claims
		// anyone could make (docs/metrics.md).
		if o.StateSkill != nil {
			fmt.Fprintf(w, ", state skill %s", o.StateSkill)
		}
		if o.WorldModelSkill != nil {
			fmt.Fprintf(w, ", world-model skill %s", o.WorldModelSkill)
		}
		fmt.Fprintln(w)
	}
	if n := s.Errors - s.AgentErrors; n > 0 {
		fmt.Fprintf(w, "%d episodes could not be generated (see \"error\" in results.jsonl)\n", n)
	}
	if s.AgentErrors > 0 {
		fmt.Fprintf(w, "%d of %d episodes ended agent_error: the agent failed (no reply, a crash, a timeout), they are not its play (see \"agent_error\" in results.jsonl)\n", s.AgentErrors, s.Episodes)
	}
	if oc.Replayed > 0 {
		fmt.Fprintf(w, "%d lost traces rebuilt by playing their episodes again (each gave its recorded result)\n", oc.Replayed)
	}
	if oc.TracesMissing > 0 && traces(s) == "all" {
		fmt.Fprintf(w, "%d results lost their traces, which cannot be rebuilt (the agent is not deterministic): longcraft verify, merge and report refuse this run until those episodes are played again in a new run\n", oc.TracesMissing)
	}
	if s.Unverified > 0 {
		fmt.Fprintf(w, "unverified: %d of %d results have no trace (--traces %s, or traces lost): they stand on the runner's word, unchecked by replay\n", s.Unverified, s.Episodes, traces(s))
	}
}

// traces is the run's --traces, for messages.
func traces(s results.Summary) string {
	if s.Run != nil && s.Run.Traces != "" {
		return s.Run.Traces
	}
	return "?"
}

func newMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge RUN_DIR...",
		Short: "Combine the run directories of shards into one run",
		Long: `merge reads the results of finished shard runs (longcraft score --shard i/n)
and writes, in --out, the results.jsonl, summary.json and report.html that an
unsharded run would have written, byte for byte. It refuses overlapping or
mismatched shards, an --out another process writes, and shards a score run
is still writing (each directory's .longcraft.lock names its holder).`,
		Example: "  longcraft merge --out runs/all runs/shard-*",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out is required")
			}
			s, err := run.Merge(out, args)
			if err != nil {
				return err
			}
			printTable(cmd.OutOrStdout(), run.Outcome{Summary: s})
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "merged run directory (required)")
	return cmd
}

func newReportCmd() *cobra.Command {
	var rf reportFlags
	cmd := &cobra.Command{
		Use:     "report RUN_DIR...",
		Short:   "Compare the runs of several agents on one suite in one HTML page",
		Long:    reportLong,
		Example: reportExample,
		Args:    cobra.MinimumNArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return rf.report(cmd, args) },
	}
	cmd.Flags().StringVarP(&rf.out, "out", "o", "compare.html", "the page to write")
	cmd.Flags().BoolVar(&rf.allowMixed, "allow-mixed", false, "compare runs of different suite locks, unpaired")
	return cmd
}

const reportLong = `report reads the summary.json and results.jsonl of finished runs (one agent
each, same suite) and writes a self-contained page: success by group per agent
with 95% Wilson intervals and every metric, for the groups each run's own
report has (family, tier, view, feedback, budget, rules: none pooled), and
every two runs compared group by group and overall on the episodes they
share (paired: the difference in success
with Newcombe's interval for paired proportions and an exact McNemar test,
and paired bootstrap intervals for steps, milestones, return and valid
actions). It prints the
comparisons as sentences. Runs played from different suite locks did not
play the same episodes: they are refused unless --allow-mixed, which
compares them unpaired (Newcombe's interval, no test).`

const reportExample = "  longcraft report --out runs/compare.html runs/random runs/explorer runs/planner"

// reportFlags are report's flags.
type reportFlags struct {
	out        string
	allowMixed bool
}

// report compares the runs in dirs, each verified against its traces
// while no run may write it, writes the page and prints the comparison.
func (rf *reportFlags) report(cmd *cobra.Command, dirs []string) error {
	release, err := run.ReadLockDirs(dirs)
	if err != nil {
		return err
	}
	defer release()
	for _, d := range dirs { // what is compared must be what the traces say
		if _, err := os.Stat(d); err != nil {
			continue // Compare names it
		}
		v, err := run.Verify(d)
		if err != nil {
			return err
		}
		if err := v.Refuse("report", d); err != nil {
			return err
		}
	}
	c, err := report.Compare(dirs, report.CompareOptions{AllowMixed: rf.allowMixed})
	if err != nil {
		return err
	}
	if err := report.WriteComparison(rf.out, c); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	printComparison(w, c)
	fmt.Fprintf(w, "wrote %s\n", rf.out)
	return nil
}

// printComparison prints the runs' open-ended figures, their groups as
// their reports and tables show them, their seeds, and the sentences
// comparing their success.
func printComparison(w io.Writer, c *report.Comparison) {
	aw := 10
	for _, a := range c.Agents {
		aw = max(aw, len(a))
	}
	printOpenEnded(w, c, aw)
	if !c.Open {
		printGroups(w, c, aw)
	}
	for i, r := range c.Runs {
		if r != nil {
			fmt.Fprintf(w, "%s: %s\n", c.Agents[i], task.SeedsLabel(r.SaltCommitment))
		}
	}
	for _, p := range c.Pairs {
		if !c.Open && p.Sentence != "" { // the sentences compare success (none where no task defines it)
			fmt.Fprintln(w, p.Sentence)
		}
	}
}

// printOpenEnded prints each run's Crafter score and progression per
// ruleset on open-ended episodes; where no task defines success, no
// success figure. aw is the agents' column width.
func printOpenEnded(w io.Writer, c *report.Comparison, aw int) {
	for _, row := range c.Rulesets {
		fmt.Fprintf(w, "open-ended, %s rules\n", row.Ruleset)
		for i, l := range row.Runs {
			switch {
			case l == nil:
			case l.Err != "":
				fmt.Fprintf(w, "  %-*s %5d  no score: %s\n", aw, c.Agents[i], l.Episodes, l.Err)
			default:
				fmt.Fprintf(w, "  %-*s %5d  Crafter score %.2f%%, progression %.2f%% ± %.2f\n", aw, c.Agents[i], l.Episodes, l.CrafterScore, l.Progression, l.ProgressionSE)
			}
		}
	}
}

// printGroups prints each group's success per run, with its interval and
// its agent errors and missing episodes. aw is the agents' column width.
func printGroups(w io.Writer, c *report.Comparison, aw int) {
	for _, k := range c.Keys {
		fmt.Fprintln(w, k)
		for i, g := range c.Groups[k] {
			if g.Episodes == 0 && g.Missing == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-*s %5d  %5.1f%% [%5.1f, %5.1f]", aw, c.Agents[i], g.Episodes, 100*g.Rate, 100*g.Low, 100*g.High)
			if g.AgentErrors > 0 || g.Missing > 0 {
				fmt.Fprintf(w, "  (%d agent errors, %d missing)", g.AgentErrors, g.Missing)
			}
			fmt.Fprintln(w)
		}
	}
}
