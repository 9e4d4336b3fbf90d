package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"playtest/games"
	"playtest/sim/bots"
	"playtest/studies/solve"
)

func newAnalyseCommand() *cobra.Command {
	var sets []string
	c := &cobra.Command{
		Use:   "analyse [PRESET|FILE]",
		Short: "Prove the value of every move from a position (the start, or after --from MOVES)",
		Long: `The analysis board: from the variant's start, or from the position after
--from MOVES (the moves in the game's notation, as playtest replay --moves
writes them, separated by spaces), prove the value of every legal move for
the player to move: a win or a loss with the decisions to the end (the
winner ending as fast as it can, the loser holding out longest), or a draw,
and say which moves keep the best value ("d is the only move that wins").

Each move is proven by the prover of playtest solve --search within
--max-nodes positions; a move it cannot prove within them is marked "not
proven", with the horizon within which neither seat can force a win. Only
perfect-information games without chance can be analysed (Stacktics,
Connect Four, the m,n,k-games, scripted games with keys); a variant's
repetition rule and move cap are set aside, as playtest solve does.`,
		Example: `  playtest analyse connect4/6x5 --from c
  playtest analyse mnk/5x5x4 --from "c3 b2" --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			format, err := formatSetting(cmd.Flags(), v, "table", "json")
			if err != nil {
				return err
			}
			maxNodes, err := positiveSetting(cmd.Flags(), v, "max-nodes")
			if err != nil {
				return err
			}
			cfg, err := runVariant(cmd.Flags(), v, args, sets)
			if err != nil {
				return err
			}
			from, _ := cmd.Flags().GetString("from")
			opts := solve.AnalyseOptions{From: games.SplitLine(from), MaxNodes: int64(maxNodes)}
			if !v.GetBool("quiet") {
				stderr := cmd.ErrOrStderr()
				opts.Progress = func(n int64) { fmt.Fprintf(stderr, "searching: %s positions\n", bots.Thousands(int(n))) }
			}
			a, err := solve.Analyse(cmd.Context(), cfg, opts)
			var unsolvable *solve.UnsolvableError
			var line *games.LineError
			switch {
			case errors.As(err, &line):
				return usageErrorf("--from: %v", line)
			case errors.As(err, &unsolvable):
				return usageError{err}
			case err != nil:
				return err
			}
			return writeResult(cmd, format, a)
		},
	}
	f := c.Flags()
	f.String("from", "", "the moves to the position analysed, in the game's notation, separated by spaces (default: the start)")
	f.Int("max-nodes", solve.DefaultAnalyseNodes, "most positions to search for each move before marking it not proven")
	f.String("format", "table", "output format: table or json")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&sets, "set", nil, "override a variant key, e.g. --set rules.cols=6 (repeatable)")
	return c
}
