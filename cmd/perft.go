package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"playtest/games"
	"playtest/internal/interrupt"
)

type perftOptions struct {
	depth  int
	seed   uint64
	divide bool
	sets   []string
}

func newPerftCommand() *cobra.Command {
	var opts perftOptions
	c := &cobra.Command{
		Use:   "perft [PRESET|FILE]",
		Short: "Count the decision sequences from the start position (move-generator check)",
		Long: `Count the legal decision sequences of each depth from a variant's start position,
as each game's spec defines perft, and print one line per depth:

  depth 1: N
  depth 2: N

Each game's spec says what a step is: Stacktics counts single decisions (the
pie rule's keep/swap included), Capstone whole turns. Games with chance fix it
from --seed and print what they fixed before the counts.

With --divide, also print the count below each first decision at the deepest
depth: the standard way to find where two move generators disagree.`,
		Example: "  playtest perft stacktics/size3 --depth 4\n  playtest perft capstone --depth 3 --seed 7",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.depth < 1 || opts.depth > 12 {
				return usageErrorf("--depth %d: want 1 to 12", opts.depth)
			}
			overrides, err := variantOverrides(cmd.Flags(), settings(cmd.Flags()), nil, opts.sets)
			if err != nil {
				return err
			}
			cfg, err := loadVariant(args, overrides)
			if err != nil {
				return err
			}
			g, err := cfg.NewGame()
			if err != nil {
				return err
			}
			s := g.NewState()
			header := ""
			if ps, ok := g.(games.PerftStarter); ok {
				s, header = ps.PerftStart(opts.seed)
			}
			if _, ownPerft := s.(games.Perfter); opts.divide && ownPerft {
				return usageErrorf("--divide counts single decisions; %s's perft counts whole turns", cfg.Definition.Name)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%s: %s\n", cfg.Definition.Name, cfg.Name)
			if header != "" {
				fmt.Fprintln(w, header)
			}
			// Counting holds no resources: a signal abandons it, and the
			// process ends as the command returns.
			ctx := cmd.Context()
			for d := 1; d <= opts.depth; d++ {
				n, err := interrupt.Until(ctx, func() uint64 { return games.PerftOf(s, d) })
				if err != nil {
					return fmt.Errorf("interrupted while counting depth %d", d)
				}
				fmt.Fprintf(w, "depth %d: %d\n", d, n)
			}
			if opts.divide {
				type divide struct {
					moves  []games.Move
					counts []uint64
				}
				res, err := interrupt.Until(ctx, func() divide { m, c := games.PerftDivide(s, opts.depth); return divide{m, c} })
				if err != nil {
					return fmt.Errorf("interrupted while dividing depth %d", opts.depth)
				}
				moves, counts := res.moves, res.counts
				for i, m := range moves {
					fmt.Fprintf(w, "%s: %d\n", s.MoveString(m), counts[i])
				}
			}
			return nil
		},
	}
	c.Flags().IntVar(&opts.depth, "depth", 3, "deepest depth to count")
	c.Flags().Uint64Var(&opts.seed, "seed", 1, "seed fixing the chance events perft starts from, for games that have them (goal draws, deals)")
	c.Flags().BoolVar(&opts.divide, "divide", false, "print the count below each first decision at the deepest depth (games whose perft counts single decisions)")
	c.Flags().StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set rules.size=2 (repeatable)")
	return c
}
