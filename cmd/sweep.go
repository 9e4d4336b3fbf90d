package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"playtest/experiment"
	"playtest/internal/shell"
	"playtest/progress"
	"playtest/reports"
	"playtest/sweep"
	"playtest/variants"
)

type sweepOptions struct {
	sets []string
}

func newSweepCommand() *cobra.Command {
	var opts sweepOptions
	c := &cobra.Command{
		Use:   "sweep SWEEP",
		Short: "Play every variant of a sweep (axes over rules knobs or bot parameters) on the same seeds",
		Long: `Play every variant of a sweep: a base variant plus axes over rules knobs or
bot parameters, crossed, every variant on the same seeds (common random
numbers), and report each one's outcomes with 95% intervals. Seat bias (the
exact binomial test that seat 0 wins half the decisive games) is flagged
after correcting for the number of variants: Holm (default) or
Benjamini–Hochberg (--correction bh).

SWEEP is a sweep file or an embedded sweep (` + strings.Join(sweep.Names(), ", ") + `).
A sweep file:

  name: my-sweep
  base: stacktics/size2          # a preset or a variant file
  games: 400                     # every variant (or the base's)
  seed: 1
  metric: seat0_wins             # plotted against the axes
  set: {players.0.iterations: 500, players.1.iterations: 500}
  axes:                          # crossed, the first varying slowest
    - key: rules.pie_rule        # one knob
      values: [true, false]
    - name: board                # zipped keys vary together
      zip:
        rules.board: [{rows: 4, cols: 4}, {rows: 5, cols: 3}]
        rules.start_columns: [[0, 3], [0, 2]]
      labels: [4x4, 3x5]

An axis key may be base, to vary the base variant. With --out DIR it writes
sweep.json, sweep.csv, sweep.md, plots/sweep.svg and .png (the metric
against the knob for one axis, a heat map for two) and each variant's
results under variants/.`,
		Example: `  playtest sweep stacktics-size2
  playtest sweep capturecard-through-jokers --games 100 --out sweep-out/
  playtest sweep my-sweep.yaml --set players.0=greedy --set players.1=greedy --correction bh`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runSweep(cmd, args[0], &opts) },
	}
	f := c.Flags()
	f.Int("games", 0, "games per variant (overrides the sweep's)")
	f.Uint64("seed", 0, "run seed of every variant (overrides the sweep's)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("metric", "", "metric to plot and show (default: the sweep's metric:, else seat0_wins)")
	f.String("correction", sweep.Holm, "multiple-comparison correction of the seat-bias flags: holm or bh")
	f.Float64("alpha", 0.05, "level at which seat bias is flagged")
	f.String("format", "table", "output format: table, csv or json")
	f.String("out", "", "write DIR/sweep.json, sweep.csv, sweep.md, sweep.html, plots/ and variants/")
	f.Bool("resume", false, "continue the variants an interrupted sweep left in --out DIR, reusing the finished ones")
	f.Bool("quiet", false, "show no progress on stderr (neither within a variant nor a line per variant)")
	f.Int("max-variants", sweep.DefaultMaxVariants, "refuse a sweep that crosses more variants than this")
	f.StringArrayVar(&opts.sets, "set", nil, "override a key of every variant, e.g. --set players.0=greedy (repeatable)")
	return c
}

func runSweep(cmd *cobra.Command, arg string, opts *sweepOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "csv", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	sw, err := sweep.Load(arg)
	if err != nil {
		return err
	}
	overrides, err := variantOverrides(cmd.Flags(), v, []string{"games", "seed"}, opts.sets)
	if err != nil {
		return err
	}
	maxVariants, err := intSetting(cmd.Flags(), v, "max-variants")
	if err != nil {
		return err
	}
	if maxVariants < 1 {
		return usageErrorf("--max-variants %d: want at least 1", maxVariants)
	}
	sopts := sweep.Options{
		MaxVariants: maxVariants, Workers: workers, Metric: v.GetString("metric"), Correction: v.GetString("correction"),
		Alpha: v.GetFloat64("alpha"), Out: v.GetString("out"), Resume: v.GetBool("resume"),
	}
	if sopts.Resume && sopts.Out == "" {
		return usageErrorf("--resume continues the sweep in --out DIR: give --out")
	}
	if err := writableDir("--out", sopts.Out); err != nil {
		return err
	}
	cfgs, points, err := sweep.Prepare(sw, overrides, &sopts)
	if err != nil {
		var ve *variants.Error
		if errors.As(err, &ve) {
			return err
		}
		return usageError{err}
	}
	stderr := cmd.ErrOrStderr()
	mode := progress.Auto
	if v.GetBool("quiet") {
		mode = progress.Quiet
	}
	rep := progress.New(nil, progress.Quiet, "", 0, 0)
	sopts.Start = func(i, n int, label string, done, total int) {
		rep = progress.New(stderr, mode, fmt.Sprintf("[%d/%d] %s", i+1, n, label), done, total)
	}
	sopts.OnGame = func() { rep.Add(1) }
	sopts.Done = func(i, n int, cfg *variants.Config, s *reports.Summary) {
		rep.Close()
		if mode == progress.Quiet {
			return
		}
		fmt.Fprintf(stderr, "[%d/%d] %s: %d games, seat 0 wins %s, %.1f s\n", i+1, n, sw.Label(points[i]), s.Games,
			reports.FormatPercent(s.Rates.Seat0.Rate), s.Timing.ElapsedSeconds)
	}
	ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
	res, err := sweep.Run(ctx, sw, cfgs, points, sopts)
	rep.Close()
	if errors.Is(err, context.Canceled) {
		if sopts.Out != "" {
			return fmt.Errorf("interrupted; continue with: playtest sweep %s --resume --out %s (and the same flags)", shell.Quote(arg), shell.Quote(sopts.Out))
		}
		return fmt.Errorf("interrupted; nothing was written")
	}
	var unfinished *experiment.UnfinishedError
	if errors.As(err, &unfinished) {
		return usageError{fmt.Errorf("%w (playtest sweep --resume continues every variant)", err)}
	}
	if err != nil {
		return err
	}
	if sopts.Out != "" {
		if err := res.WriteDir(sopts.Out); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	switch format {
	case "json":
		return res.WriteJSON(out)
	case "csv":
		return res.WriteCSV(out)
	}
	return res.WriteTable(out)
}
