package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"playtest/games"
	"playtest/sim/bots"
	"playtest/studies/solve"
)

type solveOptions struct {
	sets []string
}

func newSolveCommand() *cobra.Command {
	var opts solveOptions
	c := &cobra.Command{
		Use:   "solve [PRESET|FILE]",
		Short: "Solve a perfect-information variant exactly, or prove its forced wins within a horizon (--depth)",
		Long: `Enumerate every position reachable from the variant's start and solve the
position graph by retrograde analysis: the game-theoretic value (seat 0 wins,
seat 1 wins, or a draw) with the decisions to the end under perfect play, and
the value of every opening, with the answering player's options when there
are few (the pie rule's keep and swap) and how many of its replies win.

Play that never ends counts as a draw, which is what the repetition rule
makes of it; the move cap is set aside and the result says whether perfect
play fits under it. Only games without hidden information or chance can be
solved (Stacktics), and only when the position graph has at most
--max-states positions: about 130 bytes each besides the position's key
(Stacktics size 2: 163), measured. The default is 50 million, or as many as
fit in three quarters of the machine's memory if fewer; a --max-states that
may not fit is refused before anything is allocated.

--search proves the value instead by alpha-beta search (games/prove: a table
of lower and upper bounds, null windows, and the game's threat hooks where it
has them): for each opening, two null-window searches ask whether the player
to move can force a win and whether the other can, each opening reported as
it is proven, and the start's value is the best of theirs. That takes a few
million positions where the graph has billions: 5,5,4 is a draw in 4
CPU-seconds, Connect Four 8 × 4 a second-player win in 9, 7 × 6 a
first-player win by the centre alone in 14 minutes. It gives the value of
the start and of every opening, not how long perfect play takes; a game whose positions can
repeat is refused (the value would depend on the path). Its table grows to
--max-states entries of 16 bytes (default: 67 million, or what fits in three
quarters of the machine's memory if fewer), then replaces old entries: a
full table slows the search, never stops it. It reports its progress once a
second and stops at Ctrl-C.

A game whose board has symmetries (the m,n,k-games: reflections and, on a
square, rotations; Connect Four: its left-right mirror) is solved one
position of each class of images, with the same values: tic-tac-toe's 765
positions rather than 5,478. --no-symmetry counts every position.

Stacktics graphs are huge (size 2 on a 2×3 board already passes 20 million
positions), so for real boards use --depth N: a bounded proof that finds
every forced win ending within N decisions from the start, from each opening
and after each reply, and says "unknown" where none ends within the horizon.
A shortest forced win never repeats a position, so it holds under the
repetition rule.

--from MOVES solves (or proves, with --search or --depth) the position
after a line of play instead of the start, its moves in the game's
notation as playtest replay --moves writes them: an entry that cannot be
played is one message naming it and the legal choices there.`,
		Example: `  playtest solve stacktics/size2-nopie --depth 9
  playtest solve stacktics/size2 --depth 9 --format json
  playtest solve tiny.yaml --max-states 100000000`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			format, err := formatSetting(cmd.Flags(), v, "table", "json")
			if err != nil {
				return err
			}
			maxStates, err := positiveSetting(cmd.Flags(), v, "max-states")
			if err != nil {
				return err
			}
			cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
			if err != nil {
				return err
			}
			depth, err := intSetting(cmd.Flags(), v, "depth")
			if err != nil {
				return err
			}
			if depth < 0 || depth > 64 {
				return usageErrorf("--depth %d: want 1 to 64 decisions (0: solve exactly)", depth)
			}
			fromLine, _ := cmd.Flags().GetString("from")
			from := games.SplitLine(fromLine)
			stderr := cmd.ErrOrStderr()
			quiet := v.GetBool("quiet")
			ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
			var res *solve.Result
			search, _ := cmd.Flags().GetBool("search")
			if search && depth > 0 {
				return usageErrorf("--search and --depth: give one (--search proves the value by alpha-beta search, --depth the forced wins within a horizon)")
			}
			if search {
				noSym, _ := cmd.Flags().GetBool("no-symmetry")
				sopts := solve.SearchOptions{NoSymmetry: noSym, From: from}
				if v.IsSet("max-states") {
					sopts.MaxEntries = maxStates
				}
				if !quiet {
					sopts.Progress = func(n int64) { fmt.Fprintf(stderr, "searching: %s positions\n", bots.Thousands(int(n))) }
					sopts.Proven = func(move, value string, n int64) {
						fmt.Fprintf(stderr, "opening %s: %s for seat 0 (%s positions searched so far)\n", move, value, bots.Thousands(int(n)))
					}
				}
				res, err = solve.Search(ctx, cfg, sopts)
			} else if depth > 0 {
				popts := solve.ProveOptions{Depth: depth, From: from}
				if !quiet {
					popts.Progress = func(d int, nodes int64) {
						fmt.Fprintf(stderr, "depth %d: %s positions searched\n", d, bots.Thousands(int(nodes)))
					}
				}
				res, err = solve.Prove(ctx, cfg, popts)
			} else {
				noSym, _ := cmd.Flags().GetBool("no-symmetry")
				sopts := solve.Options{NoSymmetry: noSym, From: from}
				if v.IsSet("max-states") { // else the default, or what fits
					sopts.MaxStates = maxStates
				}
				if !quiet {
					sopts.Progress = func(phase string, n int) { fmt.Fprintf(stderr, "%s: %s positions\n", phase, bots.Thousands(n)) }
				}
				res, err = solve.Run(ctx, cfg, sopts)
			}
			var tooLarge *solve.TooLargeError
			var unsolvable *solve.UnsolvableError
			var memory *solve.MemoryError
			var line *games.LineError
			switch {
			case errors.As(err, &line):
				return usageErrorf("--from: %v", line)
			case errors.As(err, &tooLarge), errors.As(err, &unsolvable), errors.As(err, &memory):
				return usageError{err}
			case err != nil:
				return err
			}
			return writeResult(cmd, format, res)
		},
	}
	f := c.Flags()
	f.Int("max-states", solve.DefaultMaxStates, "most positions to enumerate before giving up (default: 50,000,000, or what fits in memory if fewer)")
	f.Int("depth", 0, "instead of solving exactly, prove every forced win within this many decisions (for variants too large to enumerate)")
	f.Bool("search", false, "prove the value (and each opening's) by alpha-beta search instead of enumerating every position: far fewer positions, no distances or lines; --max-states bounds its table (default 67,108,864 entries of 16 bytes, or what fits in memory)")
	f.String("from", "", "solve the position after these moves (in the game's notation, separated by spaces, as playtest replay --moves writes them) instead of the start")
	f.Bool("no-symmetry", false, "count every position apart from its reflections and rotations (slower, larger; the same values)")
	f.String("format", "table", "output format: table or json")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set rules.board='{rows: 3, cols: 4}' (repeatable)")
	return c
}
