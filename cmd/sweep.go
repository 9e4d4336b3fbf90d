package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/studies/study"
	"playtest/studies/sweep"
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
exact sign-flip test over seat-swapped pairs, or with pairs off the exact
binomial test that seat 0 wins half the decisive games) is flagged after
correcting for the number of variants: Holm (default) or Benjamini–Hochberg
(--correction bh).

SWEEP is a sweep file or an embedded sweep (` + strings.Join(sweep.Names(), ", ") + `).
A sweep file:

  name: my-sweep
  base: stacktics/size2          # a preset or a variant file
  games: 400                     # every variant (or the base's)
  seed: 1
  metric: seat0_wins             # plotted against the axes
  set: {players.0.nodes: 8000, players.1.nodes: 8000}
  axes:                          # crossed, the first varying slowest
    - key: rules.pie_rule        # one knob
      values: [true, false]
    - name: board                # zipped keys vary together
      zip:
        rules.board: [{rows: 4, cols: 4}, {rows: 5, cols: 3}]
        rules.start_columns: [[1, 2], [0, 2]]
      labels: [4x4, 3x5]

An axis key may be base, to vary the base variant. With --out DIR it writes
sweep.json, sweep.csv, sweep.md, plots/sweep.svg and .png (the metric
against the knob for one axis, a heat map for two), each variant's results
under variants/ (a run directory each) and study.json, which records the
sweep: playtest sweep --resume --out DIR continues it after Ctrl-C, a kill
or a power cut, from the directory alone. --shard I/N plays the I-th slice
(from 0) of every variant's games (the index may come from
JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID with --shard N), and playtest
merge assembles the shards into the sweep one process would have written.

--learn GAMES judges each variant with bots that have learned it: before a
variant plays, its bots play GAMES games of it (on seeds of their own),
a model of its positions is learned from them (playtest learn, one
generation), and the variant's bots play that model (eval: learned), so a
tweak is judged by an evaluation fitted to its rules rather than the hand
heuristic written for the base game. With --out the models are kept in
DIR/models/ (a resume reads them again) and each variant names its model
by its absolute path: move the directory and its runs no longer rebuild.`,
		Example: `  playtest sweep stacktics-size2
  playtest sweep capturecard-through-jokers --games 100 --out sweep-out/
  playtest sweep my-sweep.yaml --set players.0=greedy --set players.1=greedy --correction bh
  playtest sweep stacktics-size2 --shard 2/4 --out shard-2/   # then: playtest merge shard-* --out all/
  playtest sweep stacktics-size2 --learn 1000 --out learned-sweep/
  playtest sweep --resume --out sweep-out/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runSweep(cmd, args, &opts) },
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
	f.Bool("resume", false, "continue the sweep recorded in --out DIR (its study.json), reusing the finished variants; takes no SWEEP or flag that changes the sweep")
	f.String("shard", "", "with --out: play shard I/N of every variant's games, I counted from 0 (N alone: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); playtest merge assembles the sweep")
	f.Bool("quiet", false, "show no progress on stderr (neither within a variant nor a line per variant)")
	f.Int("learn", 0, "learn each variant's own model from this many games of its bots before it plays, and play it (eval: learned)")
	f.Int("max-variants", sweep.DefaultMaxVariants, "refuse a sweep that crosses more variants than this")
	f.StringArrayVar(&opts.sets, "set", nil, "override a key of every variant, e.g. --set players.0=greedy (repeatable)")
	return c
}

// sweepDefinition lists the flags that change what a sweep plays or
// reports: --resume takes none of them.
var sweepDefinition = []string{"games", "seed", "set", "metric", "correction", "alpha", "max-variants", "shard", "learn"}

func runSweep(cmd *cobra.Command, args []string, opts *sweepOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "csv", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	sopts := sweep.Options{Workers: workers, Out: v.GetString("out"), Resume: v.GetBool("resume")}
	if sopts.Resume && sopts.Out == "" {
		return usageErrorf("--resume continues the sweep in --out DIR: give --out")
	}
	if err := writableDir(cmd.Context(), "--out", sopts.Out); err != nil {
		return err
	}
	resumeOnly := len(args) == 0
	var sw *sweep.Sweep
	var cfgs []*variants.Config
	var points []sweep.Point
	switch {
	case resumeOnly && !sopts.Resume:
		return usageErrorf("give a SWEEP (a file or one of %s), or --resume --out DIR", strings.Join(sweep.Names(), ", "))
	case resumeOnly:
		if err := checkResume(cmd, args, sopts.Out, "sweep", sweepDefinition, "--games, --seed, --set, --metric, --correction, --alpha, --max-variants, --shard, --learn or SWEEP"); err != nil {
			return err
		}
	default:
		if sw, err = sweep.Load(args[0]); err != nil {
			return err
		}
		sopts.Metric, sopts.Correction, sopts.Alpha = v.GetString("metric"), v.GetString("correction"), v.GetFloat64("alpha")
		if sopts.Learn, err = learnGames(cmd.Flags(), v); err != nil {
			return err
		}
		if sopts.Shard, err = shardSetting(v, sopts.Out); err != nil {
			return err
		}
		sopts.Command = study.Command(sweep.Kind, append(args[:1:1], changedFlags(cmd.Flags(), sweepDefinition)...))
		if cfgs, points, err = prepareSweep(cmd, v, sw, []string{"games", "seed"}, opts.sets, &sopts); err != nil {
			return err
		}
	}
	stderr := cmd.ErrOrStderr()
	mode := progressMode(v)
	rep := progress.New(nil, progress.Quiet, "", 0, 0)
	label := ""
	sopts.Start = func(i, n int, l string, done, total int) {
		label = l
		rep = progress.New(stderr, mode, fmt.Sprintf("[%d/%d] %s", i+1, n, l), done, total)
	}
	sopts.OnGame = func() { rep.Add(1) }
	sopts.Done = func(i, n int, cfg *variants.Config, s *reports.Summary) {
		rep.Close()
		if mode == progress.Quiet {
			return
		}
		fmt.Fprintf(stderr, "[%d/%d] %s: %d games, seat 0 wins %s, %.1f s\n", i+1, n, label, s.Games,
			reports.FormatPercent(s.Rates.Seat0.Rate), s.Timing.ElapsedSeconds)
	}
	ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
	var res *sweep.Result
	if resumeOnly {
		res, err = sweep.Resume(ctx, sopts.Out, sopts)
	} else {
		res, err = sweep.Run(ctx, sw, cfgs, points, sopts)
	}
	rep.Close()
	if errors.Is(err, context.Canceled) {
		if sopts.Out != "" {
			return fmt.Errorf("interrupted; continue with: playtest sweep --resume --out %s", shell.Quote(sopts.Out))
		}
		return fmt.Errorf("interrupted; nothing was written")
	}
	var unfinished *rundir.UnfinishedError
	if errors.As(err, &unfinished) {
		return usageError{fmt.Errorf("%w (playtest sweep --resume continues every variant)", err)}
	}
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if res == nil { // a shard: its variants hold a slice of the games each
		return shardDone(cmd, sopts.Out)
	}
	if sopts.Out != "" {
		if err := res.WriteDir(sopts.Out); err != nil {
			return err
		}
	}
	switch format {
	case "json":
		return res.WriteJSON(out)
	case "csv":
		return res.WriteCSV(out)
	}
	return res.WriteTable(out)
}

// prepareSweep builds the variants of sw, overridden by keys (the flags
// among --games and --seed the command has) and every --set, and bounded
// by --max-variants; a bad sweep or option is bad input (exit 2).
func prepareSweep(cmd *cobra.Command, v *viper.Viper, sw *sweep.Sweep, keys, sets []string, sopts *sweep.Options) ([]*variants.Config, []sweep.Point, error) {
	overrides, err := variantOverrides(cmd.Flags(), v, keys, sets)
	if err != nil {
		return nil, nil, err
	}
	if sopts.MaxVariants, err = intSetting(cmd.Flags(), v, "max-variants"); err != nil {
		return nil, nil, err
	}
	if sopts.MaxVariants < 1 {
		return nil, nil, usageErrorf("--max-variants %d: want at least 1", sopts.MaxVariants)
	}
	cfgs, points, err := sweep.Prepare(sw, overrides, sopts)
	var ve *variants.Error
	if err != nil && !errors.As(err, &ve) {
		err = usageError{err}
	}
	return cfgs, points, err
}
