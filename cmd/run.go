package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"playtest/experiment"
	"playtest/reports"
	"playtest/variants"
)

type runOptions struct {
	sets []string
}

func newRunCommand() *cobra.Command {
	var opts runOptions
	c := &cobra.Command{
		Use:   "run [PRESET|FILE]",
		Short: "Play a variant's games and report balance statistics",
		Long: `Play the games of a variant (an embedded preset such as stacktics/size3, or
just size3 or threestone when the short name is unambiguous, or a YAML file)
and print the balance statistics. Without an argument it runs the
default preset, ` + variants.DefaultPreset + `.

By default each seed is played twice with the players' seats swapped (a pair).
Results do not depend on --workers: the same variant and seed give the same
statistics on any machine.

Settings may also come from the environment: PLAYTEST_GAMES, PLAYTEST_SEED,
PLAYTEST_WORKERS, PLAYTEST_FORMAT, PLAYTEST_OUT (flags win).`,
		Example: `  playtest run
  playtest run stacktics/size2 --games 2000 --workers 4
  playtest run threestone
  playtest run stacktics/size2 --set rules.pie_rule=false --format json
  playtest run my-variant.yaml --out results/   # summary.json, games.csv, report.md, report.html, plots/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRun(cmd, args, &opts)
		},
	}
	f := c.Flags()
	f.Int("games", 0, "games to play (overrides the variant's games:)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("format", "table", "output format: table or json")
	f.String("out", "", "write DIR/summary.json, games.csv, report.md, report.html and plots/")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set rules.pie_rule=false (repeatable)")
	return c
}

func runRun(cmd *cobra.Command, args []string, opts *runOptions) error {
	v := settings(cmd.Flags())
	format := v.GetString("format")
	if format != "table" && format != "json" {
		return usageErrorf("--format %q: want table or json", format)
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
	if err != nil {
		return err
	}
	out := v.GetString("out")
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return usageErrorf("--out: %v", err)
		}
	}

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	var summary *reports.Summary
	if out != "" {
		summary, err = experiment.RunToDir(ctx, cfg, experiment.Options{Workers: workers}, out)
	} else {
		summary, err = experiment.Run(ctx, cfg, experiment.Options{Workers: workers})
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted after %d of %d games; nothing was written", summary.Games, cfg.Games)
	}
	if err != nil {
		return err
	}
	if format == "json" {
		return summary.WriteJSON(cmd.OutOrStdout())
	}
	return summary.WriteTable(cmd.OutOrStdout())
}
