package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"playtest/games"
	"playtest/internal/printable"
	"playtest/internal/shell"
	"playtest/sim/bots"
	"playtest/variants"
	"playtest/viewers/play"
)

type playOptions struct {
	sets []string
	seat int
	bot  string
	hint string
}

func newPlayCommand() *cobra.Command {
	var opts playOptions
	c := &cobra.Command{
		Use:   "play [PRESET|FILE]",
		Short: "Play a variant against a bot in the terminal",
		Long: `Play a variant against a bot: the board is drawn as your seat sees it (in
Capstone your own goal only, in STACKS your own hand), the legal decisions are
listed with numbers and notation in columns that fit the terminal, and you
answer with either. Commands: undo (take back your last decision), hint (what
a strong bot would play in your place), save FILE (a record playtest replay
reads), board, moves, help, quit. Bad input gets a message and the prompt
again. Ctrl-C quits at once.

--seat chooses your seat (0 moves first); --bot the bot you face (default: the
variant's bot for the other seat); --hint-bot the bot hints come from (default:
the variant's search bot without its noise, so a hint is its best move;
else mcts or ismcts at 1,000 iterations: never a random hint); --seed the
chance outcomes.`,
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
				if err := cfg.LoadBotModel("--bot "+opts.bot, bot); err != nil {
					return err
				}
			}
			var hint bots.Spec
			if opts.hint != "" {
				if hint, err = variants.ParseBot("--hint-bot "+opts.hint, opts.hint); err != nil {
					return usageError{err}
				}
				if err := cfg.LoadBotModel("--hint-bot "+opts.hint, hint); err != nil {
					return err
				}
			}
			rec, err := play.Run(cmd.Context(), cfg, play.Options{Seat: seat, Bot: bot, Hint: hint, Seed: cfg.Seed,
				In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Width: terminalWidth(cmd.OutOrStdout())})
			if errors.Is(err, play.ErrQuit) {
				switch {
				case !rec.Unsaved() && rec.SavedTo != "":
					fmt.Fprintf(cmd.OutOrStdout(), "the game was left unfinished after %d entries, all saved in %s (playtest replay %s)\n", len(rec.Moves), rec.SavedTo, shell.Quote(rec.SavedTo))
				case rec.Unsaved():
					fmt.Fprintf(cmd.OutOrStdout(), "the game was left unfinished after %d entries (save FILE before quit keeps a game to replay)\n", len(rec.Moves))
				default:
					fmt.Fprintln(cmd.OutOrStdout(), "the game was left before its first entry")
				}
				return nil
			}
			if errors.Is(err, context.Canceled) {
				// Ctrl-C keeps what a save would: the entries no save holds go
				// to a file of their own, named in the message.
				if rec.Unsaved() {
					if path, serr := play.SaveInterrupted(rec); serr == nil {
						return fmt.Errorf("interrupted; the game was left unfinished after %d entries, saved in %s (playtest replay %s)", len(rec.Moves), path, shell.Quote(path))
					}
				}
				return fmt.Errorf("interrupted; the game was left unfinished after %d entries", len(rec.Moves))
			}
			return err
		},
	}
	f := c.Flags()
	f.IntVar(&opts.seat, "seat", 0, "your seat: 0 (moves first) or 1")
	f.StringVar(&opts.bot, "bot", "", "the bot you face: a name or a YAML mapping, e.g. '{bot: mcts, iterations: 300}'")
	f.StringVar(&opts.hint, "hint-bot", "", "the bot hints come from (default: the variant's search bot without its noise, so a hint is its best move; else mcts or ismcts at 1,000 iterations)")
	f.Uint64("seed", 0, "seed of the chance outcomes and the bot (default: the variant's)")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key (repeatable)")
	return c
}

// terminalWidth is the width of the terminal w writes to: its size when it
// is one, else $COLUMNS, else 80.
func terminalWidth(w io.Writer) int {
	if f, ok := printable.Raw(w).(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return width
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}
