package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/run"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
)

func newTaskCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "task", Short: "Generate, certify and list benchmark tasks"}
	var spec task.Spec
	var split string
	var certify, asJSON bool
	var fromSuite string
	episode := -1
	show := &cobra.Command{
		Use:   "show",
		Short: "Generate one task and print what the evaluator sees (and what the agent is told)",
		Long: `show generates the task of --family, --tier, --split and --index, certifies it
with the planner (--certify), and prints the evaluator's view: world seed
(after any regeneration), rules and their per-seed variants, goal, budget,
feedback, observability, milestones, chain depth and certificate. The agent
is told only the line "agent reads". --suite NAME --episode I shows episode
I of a suite instead (as "task list" numbers them): a scenario's too, with
its map.`,
		Example: "  longcraft task show --family obtain --tier expert --index 3\n  longcraft task show --suite explorer-chain --episode 0",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			spec.Split = task.Split(split)
			if fromSuite != "" || episode >= 0 {
				if fromSuite == "" || episode < 0 {
					return fmt.Errorf("--suite and --episode go together")
				}
				s, err := suite.Load(fromSuite)
				if err != nil {
					return err
				}
				specs := s.Expand()
				if episode >= len(specs) {
					return fmt.Errorf("--episode %d: suite %s has %d episodes (0 to %d)", episode, s.Name, len(specs), len(specs)-1)
				}
				spec = specs[episode]
			}
			var cert task.Certifier
			if certify {
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
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(t)
			}
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
			if certify && t.Certified {
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
		},
	}
	f := show.Flags()
	f.StringVar(&spec.Family, "family", task.FamilyObtain, fmt.Sprintf("task family %v", task.Families()))
	f.StringVar(&spec.Tier, "tier", "medium", "tier: easy, medium, hard, expert")
	f.StringVar(&split, "split", string(task.Eval), "split: train or eval (disjoint seeds)")
	f.Uint64Var(&spec.Index, "index", 0, "task index within family × tier × split")
	f.BoolVar(&certify, "certify", true, "certify with the planner (regenerating until it solves the task)")
	f.BoolVar(&asJSON, "json", false, "print the task as JSON")
	f.StringVar(&fromSuite, "suite", "", "with --episode: a suite (embedded or a file) whose episode to show")
	f.IntVar(&episode, "episode", -1, "with --suite: the episode's number in the suite (task list)")

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
	cmd.AddCommand(show, list)
	return cmd
}
