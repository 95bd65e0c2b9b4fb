package results

import (
	"fmt"
	"io"
	"strings"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
)

// Metric is one per-episode metric, declared once: the summary aggregates
// it, the terminal table and the report show it, and docs/metrics.md
// (WriteMetricsDoc) defines it, all from this declaration.
type Metric struct {
	Name       string // the key in summary.json's metrics and the anchor in docs/metrics.md
	Title      string // the report's column and histogram title
	Column     string // the terminal table's column header ("": not in the terminal table)
	Unit       string
	Range      string
	Definition string
	// NotMeasured says when an episode does not measure it: those
	// episodes are left out of its mean and median (the count is the
	// statistic's n), and a group with none shows "–", never 0.
	NotMeasured string
	Percent     bool    // shown as a percentage
	External    bool    // external agents only: the cost and knowledge table
	Histogram   bool    // the report draws its distribution
	Max         float64 // the histogram's upper bound and the metric's, when it has one (0: the data's maximum)
	// Min is the least value an episode can have (0 for most) and Signed
	// says it has none (Crafter's return falls with health): what every
	// interval of the metric must stay above (TestIntervalsStayInRange).
	Min    float64
	Signed bool
	// Of reads the metric from an episode's result; false: not measured.
	Of func(r Result) (float64, bool)
}

// achievementsRange is the achievements metric's range, counted from the
// built-in tables once (Metrics is called for every result line).
var achievementsRange = fmt.Sprintf("0 to the ruleset's achievements (%d classic, %d extended)",
	len(sim.Classic().Achievements), len(sim.Extended().Achievements))

// Metrics lists every per-episode metric, in the order tables show them.
// Errored episodes (a task that could not be generated) measure none.
func Metrics() []Metric {
	always := "always measured"
	return []Metric{
		{Name: "steps", Title: "steps", Column: "steps", Unit: "steps", Range: "0 to the budget", Histogram: true,
			Definition:  "Steps taken before the episode ended (goal, death, budget, or a host's stop).",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.Steps), true }},
		{Name: "decisions", Title: "decisions", Column: "decide", Unit: "decisions", Range: "0 to the decision budget",
			Definition:  "The agent's choices: skills at the skill level (each runs as many steps as it takes, and a skill that cannot start takes none), steps at the primitive level, where every decision is one step.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.Decisions), true }},
		{Name: "skills_failed", Title: "failed skills", Unit: "fraction", Range: "0–1", Percent: true,
			Definition:  "Skills that did not succeed (could not start, were interrupted, or failed) over decisions: at the skill level, how often the agent chose a skill it could not carry out.",
			NotMeasured: "a primitive-level episode",
			Of: func(r Result) (float64, bool) {
				skills := r.Spec.Scenario != nil && r.Spec.Scenario.Actions == task.ActionsSkills
				return Fraction(r.SkillsFailed, r.Decisions), skills && r.Decisions > 0
			}},
		{Name: "return", Title: "return", Unit: "reward", Range: "any", Signed: true,
			Definition:  "Crafter's reward summed over the episode: +1 for each step that unlocks an achievement for the first time, ±0.1 per health point gained or lost.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return r.Return, true }},
		{Name: "milestones", Title: "milestones", Column: "milestone", Unit: "fraction", Range: "0–1", Percent: true, Histogram: true, Max: 1,
			Definition:  "Milestones reached over milestones listed: the achievements along the goal's dependency chain, plus the goal's stages when it has several (waypoints, obtain then return).",
			NotMeasured: "a task with no milestones (survive)",
			Of:          func(r Result) (float64, bool) { return Fraction(r.Milestones, r.MilestonesOf), r.MilestonesOf > 0 }},
		{Name: "achievements", Title: "achievements unlocked", Unit: "count", Range: achievementsRange,
			Definition:  "Achievements unlocked in the episode.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.Unlocked), true }},
		{Name: "valid_action_ratio", Title: "valid actions", Column: "valid", Unit: "fraction", Range: "0–1", Percent: true, Histogram: true, Max: 1,
			Definition:  "Steps whose action did something (moved, collected, placed, made, attacked, ate, drank, slept) over steps taken; a noop, a blocked move and a failed action do not count.",
			NotMeasured: "an episode of no step", Of: func(r Result) (float64, bool) { return r.ValidActionRatio.Value, r.ValidActionRatio.OK }},
		{Name: "effective_action_ratio", Title: "effective actions", Column: "effective", Unit: "fraction", Range: "0–1", Percent: true, Histogram: true, Max: 1,
			Definition: "Steps that left net new state, which no later step can take back, over steps taken: the step moved onto a tile the player had never stood on in the episode, collected something it could hold (a count gained), placed, made, ate (the cow or plant is gone), hit a creature, or drank or slept and so raised its drink or energy. " +
				"Valid actions count every move, so an agent alternating move_left and move_right scores about 95% there and one effective step (its first move) here; a move back to a known tile, a drink or a sleep at the maximum and a collect or a make with a full inventory are valid but not effective, and so is a collect or a place that leaves the state (position, faced tile, counts) one of the last 64 collects and places left: a stone placed and mined back over and over counts once each way. " +
				"Revisiting a known place to use it is not penalised by what it does there (the collect, the make), only the walk back earns nothing: read it as the share of steps that added something, not as efficiency.",
			NotMeasured: "an episode of no step", Of: func(r Result) (float64, bool) { return r.EffectiveActionRatio.Value, r.EffectiveActionRatio.OK }},
		{Name: "failed_actions", Title: "failed actions", Unit: "count", Range: "0 to steps",
			Definition:  "Actions that failed for a stated reason (missing tool, material or station, invalid target, …).",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.FailedActions), true }},
		{Name: "precondition_discovery", Title: "discovery", Column: "discov", Unit: "fraction", Range: "0–1", Percent: true,
			Definition:  "Of the distinct items and stations that failures said were missing, the fraction the agent later obtained (held or placed): whether it acts on what a failure reveals. It reads the full outcome, whatever the feedback level let the agent read.",
			NotMeasured: "no failure named anything missing",
			Of:          func(r Result) (float64, bool) { return r.Discovery.Value, r.Discovery.OK }},
		{Name: "recovery_cost", Title: "recovery cost", Unit: "steps", Range: "≥ 1", Min: 1,
			Definition:  "Mean steps from the first failure after a milestone (or the start) to the next milestone or stage reached.",
			NotMeasured: "no failure was followed by a milestone",
			Of:          func(r Result) (float64, bool) { return r.RecoveryCost.Value, r.RecoveryCost.OK }},
		{Name: "repeated_failure_rate", Title: "repeated failures", Column: "repeat", Unit: "fraction", Range: "0–1", Percent: true, Histogram: true, Max: 1,
			Definition:  "Failed actions that repeat the previous failed action with nothing succeeding in between, over failed actions.",
			NotMeasured: "no action failed", Of: func(r Result) (float64, bool) { return r.RepeatedFailures.Value, r.RepeatedFailures.OK }},
		{Name: "task_reward", Title: "task reward", Unit: "reward", Range: "0 to 0.5 × (stages − 1) + 1",
			Definition:  "The task's reward in the multi-goal style: +0.5 for each intermediate stage reached (waypoints, obtain then return), +1.0 for the goal; a one-stage task gives 1 or 0. A scenario's reward field sets other weights. Reported beside Crafter's return.",
			NotMeasured: always, Of: func(r Result) (float64, bool) {
				stage, goal := 5, 10 // tenths
				if sc := r.Spec.Scenario; sc != nil && sc.Reward != nil {
					stage, goal = sc.Reward.StageTenths, sc.Reward.GoalTenths
				}
				tenths := stage * min(r.Stages, max(r.StagesTotal-1, 0))
				if r.Success {
					tenths += goal
				}
				return float64(tenths) / 10, true
			}},
		{Name: "stages", Title: "stages", Unit: "fraction", Range: "0–1", Percent: true,
			Definition:  "Sub-goals (the goal's leaf stages) reached over those it has: the trajectory-level completion of a multi-stage goal.",
			NotMeasured: "a goal of one stage", Of: func(r Result) (float64, bool) { return Fraction(r.Stages, r.StagesTotal), r.StagesTotal > 1 }},
		{Name: "tiles_visited", Title: "tiles visited", Unit: "tiles", Range: "1 to the map's area", Histogram: true, Min: 1,
			Definition:  "Distinct tiles the player stood on.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.TilesVisited), r.Err == "" }},
		{Name: "visited_share", Title: "reachable area visited", Unit: "fraction", Range: "0 to about 1", Percent: true,
			Definition:  "Tiles visited over the walkable tiles connected to the start when the episode began (the area reachable without mining, placing or bridging); mining opens more, so it may pass 100%.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return r.VisitedShare, r.Err == "" && r.Reachable > 0 }},
		{Name: "tiles_seen", Title: "tiles seen", Unit: "tiles", Range: "up to the map's area",
			Definition:  "Distinct tiles that came within the player's 9×7 window (the agent view's world area), whatever the observability.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.TilesSeen), r.Err == "" }},
		{Name: "seen_fraction", Title: "map seen", Column: "seen", Unit: "fraction", Range: "0–1", Percent: true,
			Definition:  "Tiles seen over the map's tiles (water and rock included, so 100% is rarely reachable).",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return r.SeenFraction, r.Err == "" }},
		{Name: "materials_seen", Title: "materials seen", Unit: "count", Range: "0 to the ruleset's materials",
			Definition:  "Distinct materials on the tiles seen, each as it was when first seen.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.MaterialsSeen), r.Err == "" }},
		{Name: "items_obtained", Title: "items obtained", Unit: "count", Range: "0 to the ruleset's non-vital items",
			Definition:  "Distinct non-vital items (materials, tools, saplings) the player held at some point: Voyager's and Odyssey's count of distinct items.",
			NotMeasured: always, Of: func(r Result) (float64, bool) { return float64(r.ItemsObtained), r.Err == "" }},
		{Name: "invalid_outputs", Title: "invalid outputs", Unit: "count", Range: "0 to steps", External: true,
			Definition:  "Replies that did not parse or named no valid action; each was played as noop.",
			NotMeasured: "a built-in agent", Of: func(r Result) (float64, bool) { return float64(r.InvalidOutputs), r.ModelCalls > 0 }},
		{Name: "cost_usd", Title: "cost (USD)", Unit: "US dollars", Range: "≥ 0", External: true,
			Definition:  "The episode's tokens at the run's prices: prompt tokens × --price-in + completion tokens × --price-out, per million tokens. The summary adds the group's total and cost per success.",
			NotMeasured: "no prices were given, a built-in agent, or no token usage was reported (cost is what the model server reports: it is the run's submitter's word)", Of: func(r Result) (float64, bool) { return r.Cost.Value, r.Cost.OK }},
		{Name: "latency_ms_per_call", Title: "latency per call (ms)", Unit: "ms", Range: "≥ 0", External: true,
			Definition:  "Wall-clock time of a model call, retries included, averaged over the episode's calls.",
			NotMeasured: "a built-in agent", Of: func(r Result) (float64, bool) {
				return float64(r.LatencyMs) / float64(max(r.ModelCalls, 1)), r.ModelCalls > 0
			}},
		{Name: "state_consistency", Title: "state consistency", Unit: "fraction", Range: "0–1", Percent: true, External: true,
			Definition:  "Of the replies stating a belief with a claim the observation it answers does not state, the fraction whose every such claim matched the state. Every observation carries the text, which states every item's count (and the image shows the inventory), so inventory claims are copies and never scored; under full observability the text states the coordinates, so x, y and from_start are copies too. Under partial observability from_start (the position relative to the start, known only by remembering one's moves) is scored; x and y are not (the player has no frame for coordinates). So are remembered things (a material or station at an offset from the player, the first 8 of a belief; a creature kind is not scored, since creatures do not stay put): one out of the current view (the task's local view) is right when the world holds that material on that exact tile (none does outside the world); one in view, or any under full observability, is a copy. Copies are counted in results.jsonl (belief_copies). An accuracy: read it with state_skill, which holds it to the baselines.",
			NotMeasured: "no belief claimed anything the observation did not state",
			Of:          func(r Result) (float64, bool) { return r.StateConsistency.Value, r.StateConsistency.OK }},
		{Name: "state_skill", Title: "state skill", Unit: "skill", Range: "−1 to 1", External: true,
			Definition:  "The scored belief claims (as for state_consistency, one a field) against two baselines judged on the same claims: persistence (the player is where it was at the last decision) and the base rate (the most frequent true value of the field over the episode's claimed steps, taken in hindsight: the best constant claim there is, so no constant claim beats it); the stronger is chosen field by field. A remembered thing is a claim of its tile's material, tallied under its kind, with both baselines judged on its own step and tile: persistence is the material of the nearest tile in view (the offset clamped into the view: the view extended past its edge, so extending it earns nothing), the base rate the most frequent material of the claim's distance band (the world's out-of-view tiles at the same Chebyshev distance from the player, that step): the best constant claim at that distance, so a constant or random claim (\"grass 10 tiles east\" every step) does no better in expectation (a tile at a fixed offset is, over the steps, one tile of its band like any other), and one value a tile, like the other baselines, keeps the tallies whole counts. It is the band's and not a hindsight mode over the claimed tiles because the player chooses which tiles to claim, and the mode of those would learn from its memory; the stronger baseline is chosen kind by kind. A claim that extrapolates the view further than its nearest tile (a lake that reaches the view's edge goes on) can still beat both: that is inference about what is out of view, not memory, and is counted with it. With a the claims' accuracy and b the baseline's, skill = (a − b)/(1 − b), clamped to [−1, 1]: the baseline's errors avoided less those added, over the baseline's errors; 1 every claim right where the baseline missed some, 0 no better than the baseline (also when both were right on every claim), −1 as many errors again as the baseline made or more (any error where it made none). One scale on both sides, so claims both get right move it neither way: a worse model cannot pad its skill towards 0 with free claims. " + probeInterval,
			NotMeasured: "no belief claimed anything the observation did not state",
			Of:          func(r Result) (float64, bool) { return r.StateSkill.Value, r.StateSkill.OK }},
		{Name: "world_model_accuracy", Title: "world-model accuracy", Unit: "fraction", Range: "0–1", Percent: true, External: true,
			Definition:  "Of the replies predicting their action's outcome kind or inventory change, the fraction that came true, judged against the outcome in full whatever the feedback level showed; the last reply's prediction is scored at the episode's end. An empty prediction is not scored. An accuracy, which a claim that nothing changes earns for free: read it with world_model_skill.",
			NotMeasured: "nothing was predicted",
			Of:          func(r Result) (float64, bool) { return r.WorldModelAccuracy.Value, r.WorldModelAccuracy.OK }},
		{Name: "world_model_skill", Title: "world-model skill", Unit: "skill", Range: "−1 to 1", External: true,
			Definition:  "Each predicted field (the outcome kind; each item's change) is one claim, judged against the outcome in full, beside two baselines judged on the same claims: persistence, \"nothing changes\" (no count changes, and the previous step's outcome kind happens again), and the base rate (the field's most frequent true value over the episode's claimed steps that played the same action, taken in hindsight: the best claim constant given the action there is, so neither a constant claim such as {\"diamond\": 0} nor one that only says what an action usually does, \"a move moves\", beats it); the stronger is chosen field by field and action by action. Skill is state_skill's formula, in [−1, 1]: 0 no better than the baseline, 1 every claim right where the baseline missed some. The skill of accuracy over a baseline rather than a Brier score, because the claims are single values, not probabilities. " + probeInterval,
			NotMeasured: "nothing was predicted",
			Of:          func(r Result) (float64, bool) { return r.WorldModelSkill.Value, r.WorldModelSkill.OK }},
	}
}

// probeInterval says how the probe skills are aggregated.
const probeInterval = "Aggregated per group as the mean and median of the episodes' skills like every metric, and, on the terminal line and in the report, as the group's claims pooled (the skill of the summed tallies, so an episode where the baseline was right on every claim, 0 alone, does not pull a perfect model below 1) with the claims counted and a 95% percentile bootstrap interval that resamples episodes (results.ProbeSkill), which stays in [−1, 1] since every resample's skill does."

// MetricsDocIntro opens docs/metrics.md.
const metricsDocIntro = `# Metrics

Every figure Longcraft reports, defined. This file is generated from the
metric declarations (` + "`bench/results/metrics.go`" + `, results.Metrics) and
TestMetricsDocumented fails when they differ; regenerate it with
` + "`go test ./bench/results -run TestMetricsDocumented -rewrite`" + `.

## Per group

- **success rate**: episodes that succeeded over episodes, with a 95%
  Wilson score interval. An episode succeeds by its task's rule
  (task.Judge): a goal task when its goal is reached; an achievements task
  when the tier's count of achievements is unlocked by its end.
- **ends**: how many episodes ended each way: goal, death, budget,
  no_progress, timeout, agent_error, stopped, error.
- **agent errors** (` + "`agent_errors`" + `): episodes that ended agent_error:
  the agent failed (no reply, a crash, a timeout, a model server that
  errs), so the episode is not its play. summary.json's ` + "`errors`" + ` counts
  them with the episodes that could not be generated (` + "`error`" + `). The
  terminal table shows them (column ` + "`agent_err`" + `) when there are any,
  ` + "`longcraft score`" + ` exits with code 3 unless ` + "`--allow-agent-errors`" + `, and
  a comparison states no difference for a scope where either run has them.
- **missing**: episodes planned in the group that have no result (a
  partial run: interrupted, or stopped because the agent could not start);
  shown and treated like agent errors.
- **success undefined**: a task whose goal is achievements with no count
  that completes it (a scenario's ` + "`achieve: 0`" + `: Crafter's free play, the
  ` + "`crafter`" + ` and ` + "`balrog-crafter`" + ` suites) defines no success. Its group
  has ` + "`no_success`" + ` and a null success rate and interval in summary.json;
  the terminal table and the report show none for it, and a suite of only
  such tasks leads with Crafter's score and progression instead (with no
  success column, success chart or failed-episode list).
- **open-ended figures, per ruleset** (summary.json ` + "`open_ended`" + `, one line
  each in the terminal table and the report): over the open-ended
  episodes (the achievements family, and scenarios whose goal is
  achievements) of one ruleset as the episodes recorded it (` + "`classic`" + `,
  ` + "`extended`" + `, ` + "`extended+variants`" + `), never pooled across rulesets. A
  ruleset's achievements A are its own list (sim's rules: Crafter's 22 for
  classic, 30 for extended); variants change recipes, never the list, so
  varied rules have their base's A and are a line of their own. With N
  episodes, u_e the achievements episode e unlocked and
  s_i = 100 · (episodes that unlocked achievement i) / N:
  - **Crafter score** = exp((1/|A|) Σ_i ln(1 + s_i)) − 1, in %: the
    geometric mean with Crafter's 1% offset (Hafner 2022; its
    analysis/common.py, compute_success_rates and compute_scores: the
    percentage of episodes with the achievement at least once, then
    exp(nanmean(log(1 + percents))) − 1 over the achievements).
  - **progression** = (1/N) Σ_e 100 · u_e / |A|, in %, ± its standard
    error sd_e(100 · u_e / |A|) / √N, as BALROG reports it (its Crafter
    wrapper's get_stats: achievements with a count above 0, over 22; the
    mean ± standard error over episodes).
  - **achievement rates**: the s_i, each achievement's bar in the report;
    the report's anytime curve is the mean 100 · (unlocks by step t) / |A|
    over the episodes, ending at the progression.
  For the classic rules (the ` + "`crafter`" + ` and ` + "`balrog-crafter`" + ` suites) these
  are Crafter's score and BALROG's progression exactly; for extended they
  are the same formulas over its 30.
- **tokens per success** (external agents): prompt and completion tokens
  of the group over its successes; not measured when none succeeded.
- Groups never pool conditions: each family × tier × observability ×
  feedback × budget × ruleset (and a scenario's knobs) is its own row
  (results.GroupKey), in summary.json, the terminal table, the report and
  the comparison page alike; only the overall row ("all") pools them.

## Intervals

Every interval is a 95% interval that stays within its metric's range:

- **success rate**: Wilson's score interval, over the group's distinct
  worlds when they are fewer than its episodes (a fixed map's seeds are
  one world).
- **per-episode metrics** (steps, return, counts, fractions): a
  percentile bootstrap of the mean, 2,000 resamples of the group's
  worlds (all the episodes of a world together) from a fixed seed, so
  summary.json is the same every time it is written. A resample's mean
  lies between the smallest and the largest value measured, so the
  interval never leaves them (no steps below 0, no fraction above 1),
  where a normal approximation on few episodes does. With one world the
  interval is the mean alone. summary.json gives it as ` + "`ci95`" + `.
- **comparisons**: the difference in success, paired, with Newcombe's
  interval for paired proportions (his 1998 method 10) and an exact
  McNemar test; unpaired, Newcombe's interval for independent
  proportions; the other metrics' paired differences with a percentile
  bootstrap of the pairs (2,000 resamples, seeded), which stays between
  the smallest and the largest difference.
- **progression**'s "±" is BALROG's standard error, as BALROG reports it:
  a spread, not an interval.

## Per episode

Each is aggregated per group as the mean and the median over the episodes
that measured it; n, the number of those episodes, is in summary.json. A
group in which no episode measured it shows "–" in the report and "-" in
the terminal table, never 0. In results.jsonl
an episode's unmeasured value is null: each line holds every metric below
under ` + "`metrics`" + ` by name, null where not measured (an errored episode
measures none), which is exactly what the summary aggregates; a line whose
` + "`metrics`" + ` disagree with its fields is refused. Lines written before said -1,
or 0 for ` + "`valid_action_ratio`" + ` with no step and ` + "`repeated_failure_rate`" + ` with
no failed action: they read as not measured.

`

// WriteMetricsDoc writes docs/metrics.md from the declarations.
func WriteMetricsDoc(w io.Writer) error {
	var b strings.Builder
	b.WriteString(metricsDocIntro)
	for _, m := range Metrics() {
		fmt.Fprintf(&b, "### %s\n\n", m.Name)
		fmt.Fprintf(&b, "%s\n\n", m.Definition)
		shown := "the report"
		if m.Column != "" {
			shown = fmt.Sprintf("the report and the terminal table (column `%s`)", m.Column)
		}
		if m.External {
			shown = "the report's cost and knowledge table (external agents)"
		}
		fmt.Fprintf(&b, "- unit: %s; range: %s\n- not measured: %s\n- shown in: %s, as %q\n\n", m.Unit, m.Range, m.NotMeasured, shown, m.Title)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
