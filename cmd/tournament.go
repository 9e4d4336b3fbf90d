package cmd

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"playtest/progress"
	"playtest/reports"
	"playtest/tournament"
	"playtest/variants"
)

type tournamentOptions struct {
	bots []string
	sets []string
}

func newTournamentCommand() *cobra.Command {
	var opts tournamentOptions
	c := &cobra.Command{
		Use:   "tournament [PRESET|FILE] --bot SPEC --bot SPEC ...",
		Short: "Round robin among bot settings on one variant: Elo ratings and pairwise scores",
		Long: `Play every pairing of the given bot settings on one variant, --games games
per pairing (default 100) in seat-swapped pairs, every pairing on the same
seeds, and rate the entrants by a Bradley-Terry (Elo) fit with 95% intervals,
the first entrant anchored at 0. The pairwise table gives each entrant's score
per game against each other one, with its pentanomial interval.

A SPEC is written as a players: entry: a bot name, or a YAML mapping with
bot: and its parameters (playtest games lists them). The ratings table lists
the entrants from the highest Elo down; # is an entrant's place on the
command line. A pairing whose bots replay the same few games (two
deterministic bots: greedy, alphabeta without noise) is named in a warning:
its interval, which takes the pairs as independent, is then too narrow.
--out DIR writes tournament.json, tournament.md and tournament.html.`,
		Example: `  playtest tournament stacktics/size3 --bot random --bot greedy \
    --bot '{bot: mcts, iterations: 300, rollout_cap: 6, eval_scale: 3}' \
    --bot '{bot: alphabeta, nodes: 5000}' --games 60`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			format, err := formatSetting(cmd.Flags(), v, "table", "json")
			if err != nil {
				return err
			}
			if len(opts.bots) < 2 {
				return usageErrorf("a tournament needs at least two --bot settings")
			}
			var entrants []tournament.Entrant
			for _, text := range opts.bots {
				spec, err := variants.ParseBot("--bot "+text, text)
				if err != nil {
					return usageError{err}
				}
				entrants = append(entrants, tournament.Entrant{Label: tournament.Label(text), Spec: spec})
			}
			workers, err := workerCount(cmd.Flags(), v)
			if err != nil {
				return err
			}
			overrides, err := variantOverrides(cmd.Flags(), v, []string{"seed"}, opts.sets)
			if err != nil {
				return err
			}
			games, _ := cmd.Flags().GetInt("games")
			overrides = append(overrides, variants.Override{Path: "games", Value: fmt.Sprint(games), Origin: "--games"})
			cfg, err := loadVariant(args, overrides)
			if err != nil {
				return err
			}
			if err := tournament.Validate(cfg, entrants); err != nil {
				return usageError{err}
			}
			if err := writableDir("--out", v.GetString("out")); err != nil {
				return err
			}
			rep := progress.New(nil, progress.Quiet, "", 0, 0)
			if !v.GetBool("quiet") {
				rep = progress.New(cmd.ErrOrStderr(), progress.Auto, "tournament", 0, tournament.Pairings(len(entrants))*cfg.Games)
			}
			ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
			res, err := tournament.Run(ctx, cfg, entrants, tournament.Options{Workers: workers, OnGame: func() { rep.Add(1) }})
			rep.Close()
			if err != nil {
				return err
			}
			if out := v.GetString("out"); out != "" {
				var md bytes.Buffer
				if err := res.WriteMarkdown(&md); err != nil {
					return err
				}
				if err := writeReportFiles(out, "tournament", "playtest tournament: "+cfg.Name, res, md.Bytes()); err != nil {
					return err
				}
			}
			if format == "json" {
				return reports.WriteJSON(cmd.OutOrStdout(), res)
			}
			return res.WriteTable(cmd.OutOrStdout())
		},
	}
	f := c.Flags()
	f.StringArrayVar(&opts.bots, "bot", nil, "an entrant: a bot name or a YAML mapping, e.g. '{bot: mcts, iterations: 500}' (repeat, at least twice)")
	f.Int("games", 100, "games per pairing (even: seat-swapped pairs)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("format", "table", "output format: table or json")
	f.String("out", "", "also write DIR/tournament.json, tournament.md and tournament.html")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set rules.pie_rule=true (repeatable)")
	return c
}
