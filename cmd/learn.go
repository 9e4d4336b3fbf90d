package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"playtest/internal/progress"
	"playtest/reports"
	"playtest/studies/learn"
)

type learnOptions struct {
	sets []string
}

func newLearnCommand() *cobra.Command {
	var opts learnOptions
	c := &cobra.Command{
		Use:   "learn [PRESET|FILE]",
		Short: "Learn an evaluation of a variant's positions from its own games: a calibrated chance of winning",
		Long: `Play the variant's games with its bots and learn, from their positions, the
chance that the seat to move wins (a draw counting ½) as a logistic model of
the features its game names (playtest games lists them): Texel's tuning
method. Quiet positions only where the game has forcing moves (Stacktics'
captures); one deal in 5 is held out to judge the model: its log-loss and
Brier score against the hand heuristic through its best-fitting logistic and
against the constant predictor, and a reliability table (each decile of
predicted chance against the results). The fit starts from the hand
heuristic's weights and adds an L2 penalty (--l2) on standardised features.

With --generations N (alphabeta, mcts, ismcts or greedy bots), generation k+1 learns from the games
of the variant's bots playing generation k's model, and must predict its
held-out deals better and beat generation k's bots head to head (seat-swapped
pairs on their own seed, the score's 95% interval above 50%); the run stops
at the first generation that does not, and keeps the one before.

The model describes these bots' games: a model learned from weak bots'
games rates positions as weak bots play them out. --out DIR writes
DIR/model.json (schema playtest/model/v1: the game and a hash of its
resolved rules, the features, weights, the hand heuristic's scale and the
training figures) and a page, learn.md and learn.html with the reliability
plot (plots/reliability.svg); the same seed gives the same model with any
number of workers.`,
		Example: `  playtest learn stacktics/size2 --games 2000 --out models/size2
  playtest learn capstone --games 1000 --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runLearn(cmd, args, &opts) },
	}
	f := c.Flags()
	f.Int("games", 0, "games to learn from (overrides the variant's games:)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores; the model is the same)")
	f.Float64("l2", learn.DefaultL2, "L2 penalty on the weights of standardised features")
	f.Int("generations", 1, "the most generations: each plays the model before with the variant's bots, learns anew, and must beat the one before head to head (alphabeta, mcts, ismcts or greedy bots)")
	f.Int("head-to-head", 0, "games of each generation's head-to-head against the one before (default: --games)")
	f.String("out", "", "write DIR/model.json, learn.md, learn.html and plots/")
	f.String("format", "table", "output format: table or json (model.json's content)")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key (repeatable)")
	return c
}

func runLearn(cmd *cobra.Command, args []string, opts *learnOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	l2 := v.GetFloat64("l2")
	if !(l2 >= 0 && l2 < 1e6) {
		return usageErrorf("--l2 %g: want 0 or more", l2)
	}
	generations, err := intSetting(cmd.Flags(), v, "generations")
	if err != nil {
		return err
	}
	h2h, err := intSetting(cmd.Flags(), v, "head-to-head")
	if err != nil {
		return err
	}
	if generations < 1 || generations > 20 || h2h < 0 {
		return usageErrorf("--generations %d, --head-to-head %d: want 1 to 20 generations and 0 or more games", generations, h2h)
	}
	cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
	if err != nil {
		return err
	}
	out := v.GetString("out")
	if err := writableOutputs(out); err != nil {
		return err
	}
	mode := progressMode(v)
	rep := progress.New(cmd.ErrOrStderr(), mode, "learn "+cfg.Name, 0, 0)
	fit, tr, err := learn.Run(cmd.Context(), cfg, learn.Options{Workers: workers, L2: l2, Generations: generations, HeadToHead: h2h, OnGame: func() { rep.Add(1) }})
	rep.Close()
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted; nothing was written")
	}
	if err != nil {
		return err
	}
	if out != "" {
		if err := learn.WriteDir(out, fit.Model, tr); err != nil {
			return err
		}
	}
	if format == "json" {
		return reports.WriteJSON(cmd.OutOrStdout(), fit.Model)
	}
	return learn.WriteText(cmd.OutOrStdout(), fit.Model, tr)
}
