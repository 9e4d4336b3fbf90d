package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"playtest/games"
	"playtest/play"
	"playtest/variants"
)

type playOptions struct {
	sets []string
	seat int
	bot  string
}

func newPlayCommand() *cobra.Command {
	var opts playOptions
	c := &cobra.Command{
		Use:   "play [PRESET|FILE]",
		Short: "Play a variant against a bot in the terminal",
		Long: `Play a variant against a bot: the board is drawn as your seat sees it (in
Capstone your own goal only, in STACKS your own hand), the legal decisions are
listed with numbers and notation, and you answer with either. Commands: undo
(take back your last decision), hint (what the bot would play in your place),
save FILE (a record playtest replay reads), board, moves, help, quit. Bad input
gets a message and the prompt again.

--seat chooses your seat (0 moves first); --bot the bot you face (default: the
variant's bot for the other seat); --seed the chance outcomes.`,
		Example: `  playtest play stacktics/size2 --seat 0 --bot random
  playtest play capstone --seat 1 --bot '{bot: ismcts, iterations: 300}'
  printf '1\n1\n1\n' | playtest play size2 --bot random`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			if opts.seat != 0 && opts.seat != 1 {
				return usageErrorf("--seat %d: want 0 (moves first) or 1", opts.seat)
			}
			cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
			if err != nil {
				return err
			}
			seat := games.Player(opts.seat)
			bot := cfg.Players[seat.Opponent()]
			if opts.bot != "" {
				if bot, err = variants.ParseBot("--bot "+opts.bot, opts.bot); err != nil {
					return usageError{err}
				}
			}
			rec, err := play.Run(cmd.Context(), cfg, play.Options{Seat: seat, Bot: bot, Seed: cfg.Seed, In: cmd.InOrStdin(), Out: cmd.OutOrStdout()})
			if errors.Is(err, play.ErrQuit) {
				fmt.Fprintf(cmd.OutOrStdout(), "the game was left unfinished after %d entries (save FILE keeps a game to replay)\n", len(rec.Moves))
				return nil
			}
			if errors.Is(err, context.Canceled) {
				return fmt.Errorf("interrupted; the game was left unfinished after %d entries", len(rec.Moves))
			}
			return err
		},
	}
	f := c.Flags()
	f.IntVar(&opts.seat, "seat", 0, "your seat: 0 (moves first) or 1")
	f.StringVar(&opts.bot, "bot", "", "the bot you face: a name or a YAML mapping, e.g. '{bot: mcts, iterations: 300}'")
	f.Uint64("seed", 0, "seed of the chance outcomes and the bot (default: the variant's)")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key (repeatable)")
	return c
}
