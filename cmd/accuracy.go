package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/studies/accuracy"
)

func newAccuracyCommand() *cobra.Command {
	var sets []string
	c := &cobra.Command{
		Use:   "accuracy [PRESET|FILE]",
		Short: "Judge the bots' decisions against perfect play: how often each keeps the proven value",
		Long: `Play the variant's games 0 to --games − 1 (the same games playtest run plays,
opening and book included), prove the value of every position a seat
decided in and of the position its move left, and report for each player:

  - the share of its decisions that keep the proven value (a winning move
    where a win is forced, a drawing one where a draw can be held; any
    move where every move loses), with a 95% interval bootstrapped over
    games, since one game's decisions are not independent;
  - its blunders (a win given away, a draw turned into a loss) a game,
    by kind and by third of the game (opening, middle, end);
  - the decisions its variety settings (alphabeta's noise) made, apart;
  - the decisions left unproven, because a proof passed --nodes positions.

The opening's and the book's decisions are not judged, nor, with
--min-plies N, those taken before N plies were played (positions near the
start of a large board can take long to prove: Connect Four 7 × 6 below 8
stones). Each game is judged from an empty prover table, so the figures
do not depend on --workers. Only perfect-information games without chance
can be judged (Connect Four, the m,n,k-games, Stacktics without its
repetition rule and move cap).

With --out DIR the study keeps each judged game in DIR/judged.jsonl as it
goes, and DIR/accuracy.json and accuracy.txt at the end; the same command
with --resume continues it from the first game not judged.`,
		Example: `  playtest accuracy mnk/5x5x4 --games 100
  playtest accuracy connect4/6x5 --games 50 --format json
  playtest accuracy connect4/standard --games 20 --min-plies 8 --out acc/
  playtest accuracy connect4/standard --games 20 --min-plies 8 --out acc/ --resume`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			format, err := formatSetting(cmd.Flags(), v, "table", "json")
			if err != nil {
				return err
			}
			nodes, err := positiveSetting(cmd.Flags(), v, "nodes")
			if err != nil {
				return err
			}
			tableMB, err := positiveSetting(cmd.Flags(), v, "table-mb")
			if err != nil {
				return err
			}
			minPlies, err := intSetting(cmd.Flags(), v, "min-plies")
			if err == nil && minPlies < 0 {
				err = usageErrorf("--min-plies %d: want 0 or more", minPlies)
			}
			if err != nil {
				return err
			}
			workers, err := workerCount(cmd.Flags(), v)
			if err != nil {
				return err
			}
			cfg, err := runVariant(cmd.Flags(), v, args, sets)
			if err != nil {
				return err
			}
			if err := accuracy.Check(cfg); err != nil {
				return usageError{err}
			}
			opts := accuracy.Options{MinPlies: minPlies, Nodes: int64(nodes), TableMB: tableMB, Workers: workers}
			out, resume := v.GetString("out"), v.GetBool("resume")
			if resume && out == "" {
				return usageErrorf("--resume continues the study in --out DIR: give --out")
			}
			var st *accuracy.Study
			if out != "" {
				if st, err = accuracy.Open(out, cfg, opts, resume); err != nil {
					return err
				}
				opts.Done, opts.OnGame = st.Done, st.Add
			}
			rep := progress.New(cmd.ErrOrStderr(), progressMode(v), "accuracy "+cfg.Label(), len(opts.Done), cfg.Games)
			opts.Progress = func(int, int) { rep.Add(1) }
			res, err := accuracy.Run(cmd.Context(), cfg, opts)
			rep.Close()
			if err != nil {
				if st != nil {
					_ = st.Close()
				}
				if errors.Is(err, context.Canceled) && out != "" {
					return fmt.Errorf("interrupted; continue with the same command and --resume (--out %s)", shell.Quote(out))
				}
				return err
			}
			if st != nil {
				if err := st.Finish(res); err != nil {
					return err
				}
			}
			return writeResult(cmd, format, res)
		},
	}
	f := c.Flags()
	f.Int("games", 0, "games to play and judge, from index 0 (overrides the variant's games:)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("min-plies", 0, "judge only the decisions taken after at least this many plies")
	f.Int("nodes", accuracy.DefaultNodes, "most positions each proof may search; a decision not proven within them is counted unproven")
	f.Int("table-mb", accuracy.DefaultTableMB, "each worker's prover table in MiB")
	f.Int("workers", 0, "games judged at once (default: all cores; the figures are the same)")
	f.String("format", "table", "output format: table or json")
	f.String("out", "", "keep the study in DIR: judged.jsonl as it goes, accuracy.json and accuracy.txt at the end")
	f.Bool("resume", false, "continue the study in --out DIR (the same variant and flags)")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&sets, "set", nil, "override a variant key, e.g. --set players.0.nodes=8000 (repeatable)")
	return c
}
