package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/reports/publish"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/variants"
	"playtest/viewers/play"
	"playtest/viewers/replay"
)

type replayOptions struct {
	sets []string
	game int
	view replay.View
	html string
}

func newReplayCommand() *cobra.Command {
	var opts replayOptions
	c := &cobra.Command{
		Use:   "replay DIR|PRESET|FILE|GAME.json [--game N]",
		Short: "Re-play one game of a run and draw the board after each move",
		Long: `Re-play game N of a run and draw the board after every move and chance
outcome.

From a run directory (playtest run --out DIR) it reads the moves the run
recorded with --records full, or, when it kept none, plays the game again:
every game of a run is decided by the variant, the seed and its index, so it
comes out the same. A failed game (errors.jsonl) is shown up to its failure.

From a preset or variant file (with --seed and --set as playtest run takes
them) it plays game N of that run. A game saved by playtest play (save
FILE.json) replays as it was played, finished or not.

--ply K shows only the board after entry K of the record (the entries are the
moves and chance outcomes, numbered as the full replay numbers them);
--moves lists the record one line per turn, chance outcomes in brackets;
--final shows only the final board and the result; --html FILE writes the game
as a page of the board viewer of the HTML reports.

The full replay ends with the game's win-probability trace — seat 0's
chance of winning before each entry, and its turning points — when its
chances can be read: from a run directory whose summary has How it plays
(its mapping), or a variant whose bots play a learned model; --html draws
it under the board.`,
		Example: `  playtest run size3 --games 200 --records full --out r/ && playtest replay r/ --game 17
  playtest replay stacktics/size3 --seed 1 --game 17
  playtest replay r/ --game 3 --ply 5
  playtest replay capturecard --game 0 --moves`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			out := cmd.OutOrStdout()
			if n := count(opts.view.Ply > 0, opts.view.Moves, opts.view.Final); n > 1 {
				return usageErrorf("--ply, --moves and --final each choose a view: give one")
			}
			if cmd.Flags().Changed("ply") && opts.view.Ply < 1 {
				return usageErrorf("--ply %d: entries are numbered from 1", opts.view.Ply)
			}
			if err := writableFile("--html", opts.html); err != nil {
				return err
			}
			if strings.HasSuffix(args[0], ".json") {
				if _, statErr := os.Stat(args[0]); statErr == nil {
					return replayRecord(cmd, args[0], opts.view, opts.html)
				}
			}
			if !cmd.Flags().Changed("game") {
				return usageErrorf("--game N is required")
			}
			if m, err := runlog.ReadManifest(args[0]); err == nil {
				if len(opts.sets) > 0 || v.IsSet("seed") || v.IsSet("games") {
					return usageErrorf("%s is a run directory: its variant and seed are recorded; --seed, --games and --set apply to a preset or file", args[0])
				}
				cfg, err := m.Config()
				if err != nil {
					return err
				}
				moves, gameErr, ok, err := replay.Recorded(args[0], m, opts.game)
				if err != nil {
					return err
				}
				if !ok {
					return usageErrorf("%s holds games %d to %d (%v), not game %d", args[0], m.From, m.To-1, m.Shard, opts.game)
				}
				if moves == nil {
					if moves, gameErr, err = replay.Moves(cmd.Context(), cfg, opts.game); err != nil {
						return err
					}
				}
				tr, err := traceOf(cmd, args[0], cfg, opts.game, gameErr, opts.view)
				if err != nil {
					return err
				}
				if opts.html != "" {
					return writeReplayHTML(cmd, opts.html, cfg, fmt.Sprintf("%s, seed %d, from %s", cfg.Name, cfg.Seed, args[0]), opts.game, replay.Seats(cfg, opts.game), moves, gameErr, false, tr)
				}
				if err := replay.Write(out, cfg, opts.game, moves, gameErr, opts.view); err != nil {
					return err
				}
				return tr.write(out)
			} else if st, statErr := os.Stat(args[0]); statErr == nil && st.IsDir() {
				return usageErrorf("%v", err)
			} else if os.IsNotExist(statErr) && !variants.IsPreset(args[0]) {
				// Neither a run's directory, a file nor a preset: say what
				// replay reads, not the whole list of presets.
				hint := ""
				if s := variants.SuggestPreset(args[0]); s != "" {
					hint = fmt.Sprintf(" (did you mean preset %q?)", s)
				}
				return usageErrorf("%s: no such run directory, file or preset%s; replay reads a run's --out directory, a game saved by playtest play, a variant file or a preset (playtest games lists them)", args[0], hint)
			}
			cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
			if err != nil {
				return err
			}
			return replayVariant(cmd, cfg, opts.game, opts.view, opts.html)
		},
	}
	f := c.Flags()
	f.IntVar(&opts.game, "game", 0, "index of the game to replay (from 0)")
	f.IntVar(&opts.view.Ply, "ply", 0, "show only the board after entry K of the record (from 1)")
	f.BoolVar(&opts.view.Moves, "moves", false, "list the record one line per turn")
	f.BoolVar(&opts.view.Final, "final", false, "show only the final board and the result")
	f.StringVar(&opts.html, "html", "", "write the game to FILE as a page of the board viewer (as in report.html)")
	f.Uint64("seed", 0, "run seed (with a preset or file)")
	f.Int("games", 0, "games of the run (with a preset or file; decides nothing but the range of --game)")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key (with a preset or file; repeatable)")
	return c
}

// replayRecord replays a game saved by playtest play.
func replayRecord(cmd *cobra.Command, path string, view replay.View, html string) error {
	rec, err := play.ReadRecord(path)
	if err != nil {
		return usageError{err}
	}
	cfg, err := rec.Config()
	if err != nil {
		return err
	}
	view.Unfinished = true
	if html != "" {
		return writeReplayHTML(cmd, html, cfg, cfg.Name+", played with playtest play", 0, fmt.Sprintf("a person in seat %d against %s", rec.Seat, rec.Bot), rec.Moves, nil, true, trace{})
	}
	header := fmt.Sprintf("%s: %s, a game played with playtest play: a person in seat %d against %s (seed %d)", cfg.Definition.Name, cfg.Name, rec.Seat, rec.Bot, rec.Seed)
	return replay.WriteMoves(cmd.OutOrStdout(), cfg, header, rec.Moves, nil, view)
}

// count counts the true values.
func count(flags ...bool) int {
	n := 0
	for _, f := range flags {
		if f {
			n++
		}
	}
	return n
}

// writeReplayHTML writes a game's page of the board viewer. A run's game
// (unfinished false) must reach its end, as the text replay requires; a
// failed game's page shows the moves up to the failure.
// trace is a replayed game's win-probability trace (none: zero).
type trace struct {
	p       []float64
	turning []int
	mapping howplays.Mapping
}

// traceOf traces game index of cfg (from run directory dir, "" for a
// variant) when its traces can be read as chances (replay.Mapping): for
// the full replay and its page, not a failed game or the compact views
// (--ply, --moves, --final).
func traceOf(cmd *cobra.Command, dir string, cfg *variants.Config, index int, gameErr *sim.GameError, view replay.View) (trace, error) {
	if gameErr != nil || view.Ply > 0 || view.Moves || view.Final {
		return trace{}, nil
	}
	m, err := replay.Mapping(dir, cfg)
	if err != nil || m == nil {
		return trace{}, err
	}
	p, turning, err := replay.Trace(cmd.Context(), cfg, index, *m)
	return trace{p, turning, *m}, err
}

func (t trace) write(w io.Writer) error { return replay.WriteTrace(w, t.p, t.turning, t.mapping) }

func writeReplayHTML(cmd *cobra.Command, path string, cfg *variants.Config, title string, index int, seats string, moves []string, gameErr *sim.GameError, unfinished bool, tr trace) error {
	g, err := cfg.NewGame()
	if err != nil {
		return err
	}
	drawn, err := rundir.DrawGame(g, moves)
	if err != nil {
		return err
	}
	switch {
	case gameErr != nil:
		drawn.Result = "the game failed: " + gameErr.Message
	case drawn.Result == "unfinished" && !unfinished:
		return fmt.Errorf("the game is not over after its %d recorded moves", len(moves))
	}
	drawn.Index, drawn.Label, drawn.Seats = index, title, seats
	if len(tr.p) == len(drawn.Frames) {
		drawn.Trace, drawn.Turning = tr.p, tr.turning
	}
	err = reports.WriteFileAtomic(path, func(w io.Writer) error {
		return publish.WriteViewerPage(w, title, []publish.ExampleGame{*drawn})
	})
	if err == nil {
		fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %d positions of %s (%s)\n", path, len(drawn.Frames), title, drawn.Result)
	}
	return err
}

func replayVariant(cmd *cobra.Command, cfg *variants.Config, game int, view replay.View, html string) error {
	if game < 0 || game >= cfg.Games {
		return usageErrorf("--game %d: the run has games 0 to %d", game, cfg.Games-1)
	}
	moves, gameErr, err := replay.Moves(cmd.Context(), cfg, game)
	if err != nil {
		return err
	}
	tr, err := traceOf(cmd, "", cfg, game, gameErr, view)
	if err != nil {
		return err
	}
	if html != "" {
		return writeReplayHTML(cmd, html, cfg, fmt.Sprintf("%s, seed %d", cfg.Name, cfg.Seed), game, replay.Seats(cfg, game), moves, gameErr, false, tr)
	}
	if err := replay.Write(cmd.OutOrStdout(), cfg, game, moves, gameErr, view); err != nil {
		return err
	}
	return tr.write(cmd.OutOrStdout())
}
