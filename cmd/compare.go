package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/reports/plots"
	"playtest/sim/bots"
	"playtest/studies/compare"
	"playtest/studies/study"
)

type compareOptions struct {
	sets, setsA, setsB []string
}

func newCompareCommand() *cobra.Command {
	var opts compareOptions
	c := &cobra.Command{
		Use:   "compare A B",
		Short: "Play two variants on the same seeds and compare them game by game",
		Long: `Play variants A and B (presets or files) on the same seeds: game i of A and
game i of B share their deal and bot streams, so the comparison is paired and
much tighter than two independent runs. B plays A's games, seed and pairs.

It prints the difference A − B of seat 0's score per game (or of --metric:
seat0_wins, seat1_wins, draws, stalled, plies, decisions, a game's own
metric, or one of How it plays' figures of a game, play.after_decided and
the rest, paired over the traced games through each variant's learned
model) with its 95% interval over seat-swapped pairs, and How it plays for
both variants, each over its own games.

--sprt runs a sequential test (the GSPRT on pentanomial pairs that fishtest
and fastchess use; a pair is A's game and B's game on one seed, scored
A + 1 − B) and stops as soon as the log-likelihood ratio crosses a bound:
  --sprt delta0=0,delta1=0.1,alpha=0.05,beta=0.05
H0 says the difference is delta0, H1 that it is delta1 (or give elo0, elo1 as
fishtest does). This is the logistic GSPRT (fishtest's LLR_logistic); add
model=normalized for hypotheses in normalized Elo, the default of fishtest and
fastchess today: --sprt elo0=0,elo1=5,model=normalized. While it runs, a line every --report-every games gives the
games, the pentanomial pair counts, the score, the difference and its Elo with
intervals, and the LLR with its bounds. At the end it prints the LLR, its
bounds and the decision; --games is then the most games it may play. The test
is one-sided: accepting H0 says the difference is smaller than delta1, even
when the interval excludes 0.

Exit codes with --sprt: 0 H1 accepted, 1 H0 accepted, 3 undecided after
every game (play more), 2 bad input. Without --sprt: 0, or 2 for bad input.

Without --sprt, --out DIR keeps the comparison as a study: A's and B's runs
under DIR/a/ and DIR/b/, and DIR/study.json. playtest compare --resume
--out DIR continues it from the directory alone; --shard I/N plays the
I-th slice (from 0) of both variants' games, and playtest merge assembles
the comparison. A sequential test decides when to stop from the games as
they come, so --sprt runs on one machine and is written at the end.

--learn GAMES judges each side with bots that have learned it: before the
comparison, each side's bots play GAMES games of their own variant (on
seeds of their own), a model of its positions is learned from them
(playtest learn, one generation), and the side's bots play it (eval:
learned), so a rule tweak is judged by an evaluation fitted to each rule
set. With --out the models are kept in DIR/models/ (a resume reads them
again), named by their absolute paths.`,
		Example: `  playtest compare stacktics/size2 stacktics/size2-nopie --games 2000
  playtest compare size2-nopie size2 --sprt delta0=0,delta1=0.1 --games 4000
  playtest compare stacks/base stacks/base --set-b rules.must_stack_scope=hand --metric margin
  playtest compare stacktics/size2 stacktics/size2-3x5 --learn 1000 --games 1000
  playtest compare --resume --out cmp/`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runCompare(cmd, args, &opts) },
	}
	f := c.Flags()
	f.Int("games", 0, "games per variant (overrides A's games:)")
	f.Uint64("seed", 0, "run seed (overrides A's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("metric", compare.DefaultMetric, "per-game value to compare")
	f.String("sprt", "", "sequential test, e.g. delta0=0,delta1=0.1,alpha=0.05,beta=0.05")
	f.String("out", "", "also write DIR/compare.json, compare.md and compare.html (and, without --sprt, A's and B's runs under DIR/a/ and DIR/b/)")
	f.Bool("resume", false, "continue the comparison recorded in --out DIR (its study.json); takes no variant or flag that changes the comparison")
	f.String("shard", "", "with --out, without --sprt: play shard I/N of both variants' games, I counted from 0 (N alone: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); playtest merge assembles the comparison")
	f.Int("learn", 0, "learn each side's own model from this many games of its bots before comparing, and play it (eval: learned)")
	f.Int("report-every", 100, "with --sprt, print the test's standing every N games")
	f.Bool("quiet", false, "show no progress on stderr")
	f.String("format", "table", "output format: table or json")
	f.StringArrayVar(&opts.sets, "set", nil, "override a key of both variants (repeatable)")
	f.StringArrayVar(&opts.setsA, "set-a", nil, "override a key of A only (repeatable)")
	f.StringArrayVar(&opts.setsB, "set-b", nil, "override a key of B only (repeatable)")
	return c
}

func runCompare(cmd *cobra.Command, args []string, opts *compareOptions) error {
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
	copts := compare.Options{Workers: workers, Metric: v.GetString("metric"), Out: out}
	every := v.GetInt("report-every")
	if every < 1 {
		return usageErrorf("--report-every %d: want a positive number of games", every)
	}
	if v.GetBool("resume") {
		if err := checkResume(cmd, args, out, "comparison", compareDefinition, "variants, --games, --seed, --metric, --sprt, --set, --set-a, --set-b, --shard or --learn"); err != nil {
			return err
		}
		rep := progress.New(nil, progress.Quiet, "", 0, 0)
		if !v.GetBool("quiet") {
			rep = progress.New(cmd.ErrOrStderr(), progress.Auto, "compare", 0, 0)
			copts.OnGame = func(int, *compare.Standing) { rep.Add(1) }
		}
		res, err := compare.Resume(cmd.Context(), out, copts)
		rep.Close()
		return finishCompare(cmd, res, err, out, true, format)
	}
	if len(args) != 2 {
		return usageErrorf("give two variants A and B (presets or files), or --resume --out DIR")
	}
	if text := v.GetString("sprt"); text != "" {
		h, err := compare.ParseHypotheses(text)
		if err != nil {
			return usageErrorf("--sprt %s: %v", text, err)
		}
		copts.SPRT = &h
	}
	a, err := runVariant(cmd.Flags(), v, args[:1], append(append([]string(nil), opts.sets...), opts.setsA...))
	if err != nil {
		return err
	}
	b, err := runVariant(cmd.Flags(), v, args[1:], append(append([]string(nil), opts.sets...), opts.setsB...))
	if err != nil {
		return err
	}
	if err := compare.Prepare(a, b, &copts); err != nil {
		return usageError{err}
	}
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	if v.GetString("shard") != "" && copts.SPRT != nil {
		return usageErrorf("--shard splits a comparison fixed in advance; a sequential test (--sprt) decides when to stop as the games come, so it runs on one machine")
	}
	if copts.Shard, err = shardSetting(v, out); err != nil {
		return err
	}
	copts.Command = study.Command(compare.Kind, append(args[:2:2], changedFlags(cmd.Flags(), compareDefinition)...))
	if copts.Learn, err = learnGames(cmd.Flags(), v); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	if !v.GetBool("quiet") {
		copts.OnLearn = func(variant string) {
			fmt.Fprintf(stderr, "learning %s's model from %s games of its bots\n", variant, bots.Thousands(copts.Learn))
		}
	}
	rep := progress.New(nil, progress.Quiet, "", 0, 0)
	switch {
	case v.GetBool("quiet"):
	case copts.SPRT != nil:
		copts.OnGame = func(games int, st *compare.Standing) {
			if games%every == 0 || st.Final {
				fmt.Fprintln(stderr, compare.StandingLine(st))
			}
		}
	default:
		rep = progress.New(stderr, progress.Auto, a.Name+" vs "+b.Name, 0, a.Games)
		copts.OnGame = func(int, *compare.Standing) { rep.Add(1) }
	}
	ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
	res, err := compare.Run(ctx, a, b, copts)
	rep.Close()
	return finishCompare(cmd, res, err, out, out != "" && copts.SPRT == nil, format)
}

// compareDefinition lists the flags that change what a comparison plays
// or concludes: --resume takes none of them.
var compareDefinition = []string{"games", "seed", "metric", "sprt", "set", "set-a", "set-b", "shard", "learn"}

// finishCompare writes and prints a comparison (or says a shard is done);
// kept says it is a study in out, to be marked finished.
func finishCompare(cmd *cobra.Command, res *compare.Result, err error, out string, kept bool, format string) error {
	if errors.Is(err, context.Canceled) {
		if kept {
			return fmt.Errorf("interrupted; continue with: playtest compare --resume --out %s", shell.Quote(out))
		}
		return fmt.Errorf("interrupted")
	}
	if err != nil {
		return err
	}
	if res == nil { // a shard: its runs hold a slice of the games each
		return shardDone(cmd, out)
	}
	if out != "" {
		var md bytes.Buffer
		if err := res.WriteMarkdown(&md); err != nil {
			return err
		}
		if err := compareFigure(out, res, &md); err != nil {
			return err
		}
		if err := writeReportFiles(out, "compare", "playtest compare: "+res.A.Variant+" vs "+res.B.Variant, res, md.Bytes()); err != nil {
			return err
		}
		if kept {
			if err := study.FinishDir(out); err != nil {
				return err
			}
		}
	}
	if format == "json" {
		err = res.WriteJSON(cmd.OutOrStdout())
	} else {
		err = res.WriteText(cmd.OutOrStdout())
	}
	if err != nil {
		return err
	}
	if code := res.ExitCode(); code != 0 {
		return exitError{code: code, msg: fmt.Sprintf("compare %s %s: %s after %d games", res.A.Variant, res.B.Variant, sprtOutcome(res), res.Games)}
	}
	return nil
}

// sprtOutcome says what a sequential test that did not accept H1 found.
func sprtOutcome(res *compare.Result) string {
	if res.ExitCode() == compare.ExitH0 {
		return "H0 accepted"
	}
	return "the sequential test is undecided"
}

// compareFigure saves the comparison's figure under out/plots and adds it
// to the page, with links to A's and B's run reports where they were
// written (a comparison kept as a study writes one in a/ and b/).
func compareFigure(out string, res *compare.Result, md *bytes.Buffer) error {
	p, err := res.Figure()
	if err != nil {
		return err
	}
	if err := reports.MkdirBelow(out, filepath.Join(out, "plots")); err != nil {
		return err
	}
	if err := plots.Save(filepath.Join(out, "plots"), plots.Figure{Name: compare.PlotName, Plot: p}); err != nil {
		return err
	}
	extra := fmt.Sprintf("\n![%s per game, A and B](plots/%s.svg)\n", reports.MarkdownEscape(res.Metric), compare.PlotName)
	var links []string
	for _, side := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(out, side, "report.md")); err == nil {
			links = append(links, fmt.Sprintf("[%s](%s/report.md)", strings.ToUpper(side), side))
		}
	}
	if len(links) > 0 {
		extra += fmt.Sprintf("\nEach variant's full report: %s.\n", strings.Join(links, ", "))
	}
	page := reports.BeforeFooter(md.Bytes(), extra)
	md.Reset()
	md.Write(page)
	return nil
}
