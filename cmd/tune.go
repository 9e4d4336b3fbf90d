package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"playtest/progress"
	"playtest/sweep"
	"playtest/tune"
)

type tuneOptions struct {
	sets []string
}

func newTuneCommand() *cobra.Command {
	var opts tuneOptions
	c := &cobra.Command{
		Use:   "tune SPACE",
		Short: "Race the variants of a space of rule settings for the most balanced one, without playing every variant to the end",
		Long: `Search a space of rule settings for the variant whose seat balance is
closest to even. SPACE is a sweep file, a shipped space (` + strings.Join(sweep.NamesIn("tunes"), ", ") + `)
or a shipped sweep (` + strings.Join(sweep.Names(), ", ") + `): its base variant and axes, crossed, are
the candidates (playtest sweep --help describes the file). A shipped space
of the same name as a sweep is the one raced.

The candidates race: in round 1 every candidate plays --first-games games
(100), in each later round twice as many, up to --games (the sweep's), all
on the same seeds and deals (common random numbers). After each round a
candidate is dropped when its games show it less balanced, |seat 0's score
− 50%|, than the leader's on the same deals (paired tests, docs/tune.md).
The tests' intervals are widened so that, over every round and candidate
together, the tests drop the best candidate with probability at most
--alpha (a union bound). Then successive halving keeps the best --keep
share of the round's candidates by rank (half; never fewer than two) and
sets the others aside without showing them worse (--keep 1 races without
halving). --tolerance ends the race once the leader is shown within that
distance of even ("fair enough"); --budget bounds the games of the race.

The answer is the bots': a rule tuned with weak bots may be balanced only
for them. Check the winner with playtest skill.`,
		Example: `  playtest tune stacktics-size2 --games 2000
  playtest tune my-space.yaml --first-games 200 --budget 40000 --out tune/`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runTune(cmd, args[0], &opts) },
	}
	f := c.Flags()
	f.Int("games", 0, "the most games a candidate plays (default: the sweep's games)")
	f.Int("first-games", tune.DefaultFirstGames, "games every candidate plays in the first round (even)")
	f.Int("budget", 0, "the most games of the whole race (0: no bound but --games a candidate)")
	f.Float64("alpha", tune.DefaultAlpha, "the chance the race's tests may drop the best candidate, at most")
	f.Float64("keep", tune.DefaultKeep, "share of a round's candidates successive halving keeps, by rank (1: no halving)")
	f.Float64("tolerance", 0, "stop once the leader's imbalance is shown at most this, e.g. 0.02 for 2 points (0: none)")
	f.Uint64("seed", 0, "run seed of every candidate (overrides the sweep's)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("format", "table", "output format: table, csv (every evaluation) or json")
	f.String("out", "", "write DIR/tune.json, tune.csv, tune.md and tune.html")
	f.Bool("quiet", false, "show no progress on stderr")
	f.Int("max-variants", sweep.DefaultMaxVariants, "refuse a space of more candidates than this")
	f.StringArrayVar(&opts.sets, "set", nil, "override a key of every candidate, e.g. --set players.0.iterations=300 (repeatable)")
	return c
}

func runTune(cmd *cobra.Command, arg string, opts *tuneOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "csv", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	sw, err := sweep.LoadIn(arg, "tunes", sweep.Dir)
	if err != nil {
		return err
	}
	var sopts sweep.Options
	cfgs, points, err := prepareSweep(cmd, v, sw, []string{"seed"}, opts.sets, &sopts)
	if err != nil {
		return err
	}
	out := v.GetString("out")
	if err := writableDir("--out", out); err != nil {
		return err
	}
	topts := tune.Options{Workers: workers, FirstGames: v.GetInt("first-games"), MaxGames: v.GetInt("games"), Budget: v.GetInt("budget"), Alpha: v.GetFloat64("alpha"),
		Keep: v.GetFloat64("keep"), Tolerance: v.GetFloat64("tolerance"), Skipped: sopts.Skipped}
	if err := tune.Validate(len(cfgs), cfgs[0], topts); err != nil {
		return usageError{err}
	}
	stderr := cmd.ErrOrStderr()
	rep := progress.New(nil, progress.Quiet, "", 0, 0)
	if !v.GetBool("quiet") {
		rep = progress.New(stderr, progress.Auto, "tune "+sw.Name, 0, len(cfgs)*max(topts.MaxGames, cfgs[0].Games))
		topts.OnRound = func(r tune.Round) {
			fmt.Fprintf(stderr, "round %d: %d candidates × %d games, %d shown worse, %d set aside by rank; leader %s\n", r.Index, r.Candidates, r.Games, r.Dropped, r.Halved, r.Leader)
		}
	}
	topts.OnGame = func() { rep.Add(1) }
	res, err := tune.Run(cmd.Context(), sw, cfgs, points, topts)
	rep.Close()
	if err != nil {
		return err
	}
	if out != "" {
		if err := res.WriteDir(out); err != nil {
			return err
		}
	}
	w := cmd.OutOrStdout()
	switch format {
	case "json":
		return res.WriteJSON(w)
	case "csv":
		return res.WriteCSV(w)
	}
	return res.WriteTable(w)
}
