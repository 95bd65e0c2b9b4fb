package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/bench/protocol/text"
	"github.com/longcraft/longcraft/sim"
)

func newMapCmd() *cobra.Command {
	var seed uint64
	var width, height int
	var describe bool
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Print a seeded world's map as ASCII (and what the player sees)",
		Long: `map generates the world of --seed and prints it, one character per tile:

  ~ water   . grass   # stone   _ path    : sand   T tree    % lava
  c coal    i iron    d diamond t table   f furnace
  @ player  C cow     Z zombie  S skeleton  p/P plant (young/ripe)  <>^v arrows

With --describe it also prints the text observation an LLM player gets.`,
		Example: "  longcraft map --seed 7 --describe",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w, err := sim.New(sim.Config{Width: width, Height: height})
			if err != nil {
				return err
			}
			w.Reset(seed)
			fmt.Fprint(cmd.OutOrStdout(), w.ASCII())
			if describe {
				fmt.Fprintln(cmd.OutOrStdout())
				fmt.Fprint(cmd.OutOrStdout(), text.Describe(w, nil))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.Uint64Var(&seed, "seed", 0, "world seed")
	f.IntVar(&width, "width", sim.DefaultSize, "world width in tiles")
	f.IntVar(&height, "height", sim.DefaultSize, "world height in tiles")
	f.BoolVar(&describe, "describe", false, "also print the player's text observation")
	return cmd
}
