package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/run"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
)

func newTaskCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "task", Short: "Generate, certify and list benchmark tasks"}
	cmd.AddCommand(newTaskShowCmd(), newTaskListCmd())
	return cmd
}

func newTaskShowCmd() *cobra.Command {
	var sf showFlags
	cmd := &cobra.Command{
		Use:     "show",
		Short:   "Generate one task and print what the evaluator sees (and what the agent is told)",
		Long:    taskShowLong,
		Example: taskShowExample,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return sf.show(cmd) },
	}
	sf.define(cmd)
	return cmd
}

const taskShowLong = `show generates the task of --family, --tier, --split and --index, certifies it
with the planner (--certify), and prints the evaluator's view: world seed
(after any regeneration), rules and their per-seed variants, goal, budget,
feedback, observability, milestones, chain depth and certificate. The agent
is told only the line "agent reads". --suite NAME --episode I shows episode
I of a suite instead (as "task list" numbers them): a scenario's too, with
its map.`

const taskShowExample = "  longcraft task show --family obtain --tier expert --index 3\n  longcraft task show --suite explorer-chain --episode 0"

// showFlags are task show's flags: the task's spec, or a suite's episode.
type showFlags struct {
	spec            task.Spec
	split           string
	certify, asJSON bool
	fromSuite       string
	episode         int
}

// define defines task show's flags on cmd.
func (sf *showFlags) define(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&sf.spec.Family, "family", task.FamilyObtain, fmt.Sprintf("task family %v", task.Families()))
	f.StringVar(&sf.spec.Tier, "tier", "medium", "tier: easy, medium, hard, expert")
	f.StringVar(&sf.split, "split", string(task.Eval), "split: train or eval (disjoint seeds)")
	f.Uint64Var(&sf.spec.Index, "index", 0, "task index within family × tier × split")
	f.BoolVar(&sf.certify, "certify", true, "certify with the planner (regenerating until it solves the task)")
	f.BoolVar(&sf.asJSON, "json", false, "print the task as JSON")
	f.StringVar(&sf.fromSuite, "suite", "", "with --episode: a suite (embedded or a file) whose episode to show")
	f.IntVar(&sf.episode, "episode", -1, "with --suite: the episode's number in the suite (task list)")
}

// show generates the task the flags name, certified with --certify, and
// prints it: as JSON, or as the evaluator sees it.
func (sf *showFlags) show(cmd *cobra.Command) error {
	spec, err := sf.taskSpec()
	if err != nil {
		return err
	}
	var cert task.Certifier
	if sf.certify {
		cert = run.Certify
	}
	certs := task.Certifiers{Primitive: cert}
	if cert != nil {
		certs.Skills = run.CertifySkills
	}
	t, err := task.GenerateWith(spec, certs)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if sf.asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	return printTask(out, t, spec, sf.certify)
}

// taskSpec is the spec of the task to show: the flags', or the episode
// --episode of --suite.
func (sf *showFlags) taskSpec() (task.Spec, error) {
	spec := sf.spec
	spec.Split = task.Split(sf.split)
	if sf.fromSuite == "" && sf.episode < 0 {
		return spec, nil
	}
	if sf.fromSuite == "" || sf.episode < 0 {
		return spec, fmt.Errorf("--suite and --episode go together")
	}
	s, err := suite.Load(sf.fromSuite)
	if err != nil {
		return spec, err
	}
	specs := s.Expand()
	if sf.episode >= len(specs) {
		return spec, fmt.Errorf("--episode %d: suite %s has %d episodes (0 to %d)", sf.episode, s.Name, len(specs), len(specs)-1)
	}
	return specs[sf.episode], nil
}

// printTask prints what the evaluator sees of task t, generated from
// spec: its world, what the agent reads, its conditions and milestones,
// its certificate when certified, and a scenario's starting map.
func printTask(out io.Writer, t *task.Task, spec task.Spec, certified bool) error {
	fmt.Fprintf(out, "id            %s\nspec          %s/%s/%s #%d\n", t.ID, spec.Family, spec.Tier, spec.Split, spec.Index)
	fmt.Fprintf(out, "world         seed %d, %d×%d, rules %s (attempt %d)\n", t.Seed, t.MapSize, t.MapSize, t.Rules().Name, t.Attempts)
	fmt.Fprintf(out, "agent reads   %s\n", t.Describe())
	fmt.Fprintf(out, "feedback      %s, observability %s\n", t.Feedback, t.Observability)
	if t.Depth > 0 {
		fmt.Fprintf(out, "chain         %d hops\n", t.Depth)
	}
	fmt.Fprintf(out, "milestones    %v\n", t.Milestones)
	for _, v := range t.Variants {
		fmt.Fprintf(out, "variant       %s (evaluator only)\n", v)
	}
	if t.Actions == task.ActionsSkills {
		fmt.Fprintf(out, "actions       skills, %d decisions\n", t.Decisions)
	}
	if certified && t.Certified {
		fmt.Fprintf(out, "certificate   planner reached the goal in %d of %d steps\n", t.PlannerSteps, t.Budget)
	}
	if sc := spec.Scenario; sc != nil {
		w, err := t.NewWorld()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "scenario      %s; the map at the start (%s):\n%s", sc.Label(), w.Rules().ASCIILegend(), w.ASCII())
	}
	return nil
}

func newTaskListCmd() *cobra.Command {
	list := &cobra.Command{
		Use:     "list",
		Short:   "Expand a suite into its episodes (ids and specs)",
		Example: "  longcraft task list --suite default",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			name, _ := cmd.Flags().GetString("suite")
			s, err := suite.Load(name)
			if err != nil {
				return err
			}
			for i, sp := range s.Expand() {
				fmt.Fprintf(cmd.OutOrStdout(), "%5d  %s  %-13s %-6s %-5s %d\n", i, sp.ID(), sp.Family, sp.Tier, sp.Split, sp.Index)
			}
			return nil
		},
	}
	list.Flags().String("suite", "default", "embedded suite name or YAML file")
	return list
}
