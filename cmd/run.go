package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
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

With --out DIR every game is appended to DIR/games.jsonl as it ends (with
DIR/manifest.json saying what the run is); when all are done DIR gets
summary.json, games.csv and the reports. Ctrl-C or SIGTERM stops at once
(exit 130 or 143; a second signal quits without waiting). An interrupted run
(a signal, kill, power loss) continues with --resume --out DIR and ends with
the same summary as an uninterrupted one; --resume --games N adds games to a
run, finished or not: its games are kept and the new ones played, to the
same summary as a run of N games from the start. --shard I/N plays a slice of the games (the index
may come from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID with --shard N);
playtest merge combines the shards. A game that panics is recorded in
DIR/errors.jsonl and the run goes on; the exit code then says how many
failed.

Settings may also come from the environment: PLAYTEST_GAMES, PLAYTEST_SEED,
PLAYTEST_WORKERS, PLAYTEST_FORMAT, PLAYTEST_OUT, PLAYTEST_SHARD (flags win).`,
		Example: `  playtest run
  playtest run stacktics/size2 --games 2000 --workers 4
  playtest run threestone
  playtest run stacktics/size2 --set rules.pie_rule=false --format json
  playtest run my-variant.yaml --out results/   # summary.json, games.csv, report.md, report.html, plots/
  playtest run --resume --out results/          # continue an interrupted run
  playtest run --resume --out results/ --games 4000   # add games to a run
  playtest run size3 --games 100000 --shard 2/8 --out shard-2/ --no-reports
  playtest run size3 --records full --out r/ && playtest replay r/ --game 7`,
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
	f.String("out", "", "write DIR/summary.json, games.csv, report.md, report.html and plots/ (and the games as they end)")
	f.Bool("resume", false, "continue the interrupted run in --out DIR (with --games N: grow it to N games)")
	f.Bool("force", false, "with --out: replace the finished run DIR holds (refused without it, so that a saved run is not lost)")
	f.String("shard", "", "play shard I/N of the games, I counted from 0 (N alone: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)")
	f.String("records", runlog.RecordsSummary, "what --out keeps of each game: summary, or full (every move, for playtest replay)")
	f.Bool("no-reports", false, "with --out: write summary.json and games.csv but not report.md, report.html and plots/ (for shards; playtest report DIR draws them later)")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set rules.pie_rule=false or --set players.N.nodes=8000 (players.N: every player; repeatable)")
	return c
}

func runRun(cmd *cobra.Command, args []string, opts *runOptions) error {
	flags := cmd.Flags()
	v := settings(flags)
	format, err := formatSetting(cmd.Flags(), v, "table", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(flags, v)
	if err != nil {
		return err
	}
	out := v.GetString("out")
	dopts := rundir.DirOptions{Options: rundir.Options{Workers: workers}, Records: v.GetString("records"), Resume: v.GetBool("resume"),
		NoReports: v.GetBool("no-reports"), Replace: v.GetBool("force")}
	if dopts.Records != runlog.RecordsSummary && dopts.Records != runlog.RecordsFull {
		return usageErrorf("--records %q: want %s or %s", dopts.Records, runlog.RecordsSummary, runlog.RecordsFull)
	}
	var cfg *variants.Config
	if dopts.Resume {
		cfg, dopts, err = resumeSettings(flags, args, opts.sets, out, dopts)
	} else {
		cfg, err = runVariant(flags, v, args, opts.sets)
		if err == nil && v.GetString("shard") != "" {
			dopts.Shard, err = runlog.ParseShard(v.GetString("shard"), os.Getenv)
			if err != nil {
				err = usageErrorf("--shard %s: %v", v.GetString("shard"), err)
			}
		}
	}
	if err != nil {
		return err
	}
	if out == "" && (dopts.Shard.Count > 0 || dopts.Records == runlog.RecordsFull) {
		return usageErrorf("--shard and --records full keep their games in a directory: give --out DIR")
	}
	if out == "" && dopts.NoReports {
		return usageErrorf("--no-reports leaves the reports out of --out DIR: give --out")
	}

	ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
	mode := progressMode(v)
	stderr := cmd.ErrOrStderr()
	dopts.OnRecord = func(r *sim.Record) {
		if r.Err != nil && out == "" {
			fmt.Fprintf(stderr, "playtest: %v\n", r.Err)
		}
	}
	dopts.Notice = func(msg string) { fmt.Fprintf(stderr, "playtest: %s\n", msg) }
	summary, err := playWithProgress(ctx, stderr, mode, cfg, dopts, out)
	var interrupted *rundir.InterruptedError
	var unfinished *rundir.UnfinishedError
	var corrupt *runlog.CorruptError
	var busy *runlog.BusyError
	switch {
	case errors.As(err, &corrupt), errors.As(err, &busy):
		return usageError{err}
	case errors.As(err, &interrupted):
		return fmt.Errorf("%v; continue with: playtest run --resume --out %s", err, shell.Quote(out))
	case errors.As(err, &unfinished):
		return usageError{err}
	case err != nil && ctx.Err() != nil && summary != nil:
		return fmt.Errorf("interrupted after %d of %d games; nothing was written (with --out DIR a run can be resumed)", summary.Games, cfg.Games)
	case err != nil:
		return err
	}
	if format == "json" {
		err = summary.WriteJSON(cmd.OutOrStdout())
	} else {
		err = summary.WriteTable(cmd.OutOrStdout())
	}
	if err == nil && summary.Failed > 0 {
		where := "above"
		if out != "" {
			where = "in " + filepath.Join(out, runlog.ErrorsFile)
		}
		return exitError{code: ExitFailure, msg: fmt.Sprintf("%d of %d games failed (their seeds, indices and moves are %s)", summary.Failed, summary.Failed+summary.Games, where)}
	}
	return err
}

// resumeSettings loads the run recorded in out for --resume: the variant,
// shard and records mode all come from its manifest.
func resumeSettings(flags *pflag.FlagSet, args, sets []string, out string, dopts rundir.DirOptions) (*variants.Config, rundir.DirOptions, error) {
	if out == "" {
		return nil, dopts, usageErrorf("--resume continues the run in --out DIR: give --out")
	}
	// Only flags count: PLAYTEST_* variables left in a job's environment
	// must not stop a restarted job from resuming.
	if len(args) > 0 || len(sets) > 0 || flags.Changed("seed") || flags.Changed("shard") || flags.Changed("records") {
		return nil, dopts, usageErrorf("--resume continues the run recorded in %s: it takes no variant, --set, --seed, --shard or --records (only --games, to add games)", out)
	}
	m, err := runlog.ReadManifest(out)
	if err != nil {
		return nil, dopts, usageErrorf("--resume: %v", err)
	}
	cfg, err := m.Config()
	if err != nil {
		return nil, dopts, err
	}
	if flags.Changed("games") {
		// --resume --games N grows the run to N games: those logged are
		// kept, the new ones played.
		games, _ := flags.GetInt("games")
		if _, cfg, err = m.Extended(games); err != nil {
			return nil, dopts, usageErrorf("--resume --games %d: %v", games, err)
		}
		dopts.Extend = true
	}
	dopts.Shard, dopts.Records = m.Shard, m.Records
	return cfg, dopts, nil
}

// playWithProgress plays cfg (into out when set, as a run directory) with
// progress on stderr, calling dopts.OnRecord too if set.
func playWithProgress(ctx context.Context, stderr io.Writer, mode progress.Mode, cfg *variants.Config, dopts rundir.DirOptions, out string) (*reports.Summary, error) {
	var rep progress.Reporter = progress.New(nil, progress.Quiet, "", 0, 0) // until the run knows its size
	defer func() { rep.Close() }()
	onRecord := dopts.OnRecord
	dopts.OnRecord = func(r *sim.Record) {
		rep.Add(1)
		if onRecord != nil {
			onRecord(r)
		}
	}
	if out != "" {
		dopts.Start = func(done, total int) { rep = progress.New(stderr, mode, cfg.Name, done, total) }
		return rundir.RunToDir(ctx, cfg, dopts, out)
	}
	rep = progress.New(stderr, mode, cfg.Name, 0, cfg.Games)
	return rundir.Run(ctx, cfg, dopts.Options)
}
