package cmd

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/studies/accuracy"
	"playtest/studies/study"
	"playtest/studies/tournament"
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
--accuracy N judges the first N games of each pairing against perfect
play where the variant can be proven (Connect Four, the m,n,k-games): each
entrant's share of decisions that keep the proven value, pooled over its
pairings, and its blunders a game.
--out DIR writes tournament.json, tournament.md and tournament.html, and
keeps the tournament as a study: each pairing a run directory under
pairings/, and study.json. playtest tournament --resume --out DIR continues
it from the directory alone; --shard I/N plays the I-th slice (from 0) of
every pairing's games, and playtest merge assembles the shards.`,
		Example: `  playtest tournament stacktics/size3 --bot random --bot greedy \
    --bot '{bot: mcts, iterations: 300, rollout_cap: 6, eval_scale: 3}' \
    --bot '{bot: alphabeta, nodes: 5000}' --games 60
  playtest tournament --resume --out t/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runTournament(cmd, args, &opts) },
	}
	f := c.Flags()
	f.StringArrayVar(&opts.bots, "bot", nil, "an entrant: a bot name or a YAML mapping, e.g. '{bot: mcts, iterations: 500}' (repeat, at least twice)")
	f.Int("games", 100, "games per pairing (even: seat-swapped pairs)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.Int("accuracy", 0, "judge this many games of each pairing against perfect play where the variant can be proven (Connect Four, the m,n,k-games): each entrant's share of decisions that keep the proven value, and its blunders a game (0: none)")
	f.String("format", "table", "output format: table or json")
	f.String("out", "", "also write DIR/tournament.json, tournament.md and tournament.html, and keep every pairing's games under DIR/pairings/")
	f.Bool("resume", false, "continue the tournament recorded in --out DIR (its study.json); takes no variant, --bot, --seed, --set or --shard (with --games N: grow every pairing to N games)")
	f.String("shard", "", "with --out: play shard I/N of every pairing's games, I counted from 0 (N alone: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); playtest merge assembles the tournament")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set rules.pie_rule=true (repeatable)")
	return c
}

// tournamentDefinition lists the flags that change what a tournament
// plays: --resume takes none of them.
var tournamentDefinition = []string{"bot", "games", "seed", "set", "shard", "accuracy"}

func runTournament(cmd *cobra.Command, args []string, opts *tournamentOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	out := v.GetString("out")
	accuracyGames, _ := cmd.Flags().GetInt("accuracy")
	if accuracyGames < 0 {
		return usageErrorf("--accuracy %d: want 0 or more games per pairing", accuracyGames)
	}
	topts := tournament.Options{Workers: workers, Out: out, Resume: v.GetBool("resume"), Accuracy: accuracyGames}
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	var cfg *variants.Config
	var entrants []tournament.Entrant
	if topts.Resume {
		games, definition, err := growGames(cmd, tournamentDefinition)
		if err != nil {
			return err
		}
		if err := checkResume(cmd, args, out, "tournament", definition, "variant, --bot, --seed, --set, --shard or --accuracy (only --games, to add games to every pairing)"); err != nil {
			return err
		}
		topts.Games = games
	} else {
		if len(opts.bots) < 2 {
			return usageErrorf("a tournament needs at least two --bot settings")
		}
		for _, text := range opts.bots {
			spec, err := variants.ParseBot("--bot "+text, text)
			if err != nil {
				return usageError{err}
			}
			entrants = append(entrants, tournament.Entrant{Label: tournament.Label(text), Spec: spec, Text: text})
		}
		overrides, err := variantOverrides(cmd.Flags(), v, []string{"seed"}, opts.sets)
		if err != nil {
			return err
		}
		games, _ := cmd.Flags().GetInt("games")
		overrides = append(overrides, variants.Override{Path: "games", Value: fmt.Sprint(games), Origin: "--games"})
		if cfg, err = loadVariant(args, overrides); err != nil {
			return err
		}
		for _, e := range entrants {
			if err := cfg.LoadBotModel("--bot "+e.Text, e.Spec); err != nil {
				return err
			}
		}
		if err := tournament.Validate(cfg, entrants); err != nil {
			return usageError{err}
		}
		if accuracyGames > 0 {
			if err := accuracy.Check(cfg); err != nil {
				return usageErrorf("--accuracy: %v", err)
			}
		}
		if topts.Shard, err = shardSetting(v, out); err != nil {
			return err
		}
		topts.Command = study.Command(tournament.Kind, append(args[:len(args):len(args)], changedFlags(cmd.Flags(), tournamentDefinition)...))
	}
	rep := progress.New(nil, progress.Quiet, "", 0, 0)
	if !v.GetBool("quiet") && cfg != nil {
		rep = progress.New(cmd.ErrOrStderr(), progress.Auto, "tournament", 0, tournament.Pairings(len(entrants))*cfg.Games)
	} else if !v.GetBool("quiet") {
		rep = progress.New(cmd.ErrOrStderr(), progress.Auto, "tournament", 0, 0)
	}
	topts.OnGame = func() { rep.Add(1) }
	ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
	var res *tournament.Result
	if topts.Resume {
		res, err = tournament.Resume(ctx, out, topts)
	} else {
		res, err = tournament.Run(ctx, cfg, entrants, topts)
	}
	rep.Close()
	if errors.Is(err, context.Canceled) && out != "" {
		return fmt.Errorf("interrupted; continue with: playtest tournament --resume --out %s", shell.Quote(out))
	}
	if err != nil {
		return err
	}
	if res == nil { // a shard: its pairings hold a slice of the games each
		return shardDone(cmd, out)
	}
	if out != "" {
		if err := writeTournament(out, res); err != nil {
			return err
		}
	}
	if format == "json" {
		return reports.WriteJSON(cmd.OutOrStdout(), res)
	}
	return res.WriteTable(cmd.OutOrStdout())
}

// writeTournament writes tournament.json, .md and .html to out, then
// marks the tournament's study finished.
func writeTournament(out string, res *tournament.Result) error {
	var md bytes.Buffer
	if err := res.WriteMarkdown(&md); err != nil {
		return err
	}
	if err := writeReportFiles(out, "tournament", "playtest tournament: "+cmp.Or(res.Label, res.Variant), res, md.Bytes()); err != nil {
		return err
	}
	return study.FinishDir(out)
}
