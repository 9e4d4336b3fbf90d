package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"playtest/reports"
	"playtest/reports/publish"
	"playtest/runs/rundir"
	"playtest/studies/check"
)

type checkOptions struct {
	sets         []string
	markdown     string
	junit        string
	inconclusive string
}

func newCheckCommand() *cobra.Command {
	var opts checkOptions
	c := &cobra.Command{
		Use:   "check [PRESET|FILE]",
		Short: "Run a variant and hold its results to the variant's expect: bounds (for CI)",
		Long: `Run a variant and check its results against the bounds under its expect: key:

  expect:
    - {metric: seat0_wins, min: 0.45, max: 0.55}
    - {metric: stalled, max: 0.05}
    - {metric: full_stacks, stat: min, min: 6}

A bound passes when the metric's 95% interval lies within it, fails when the
interval lies wholly outside it, and is inconclusive otherwise, or when the
bots replayed the same few games (fewer than 90% different: an interval over
them overstates what is known; a min or max still decides). Metrics:
seat0_wins, seat1_wins, draws, stalled, balance, plies, seat0_score, the
game's own (playtest run shows them), and How it plays' figures
(play.after_decided, play.lead_changes, …; docs/how-it-plays.md). Where a
proof exists — a forced win from the start, or the variant's value that
the prover settles within 2,000,000 positions — a bound on an outcome
metric is judged against it, whatever the bots: pass or fail.
Rates are shares between 0 and 1
(min: 0.45, not 45). A bound on stat min or max is held to the extreme seen
over the games: one game beyond it refutes it, but no sample proves it.

--format json (or PLAYTEST_FORMAT=json) prints check.json's content instead
of the table.

Exit codes: 0 every bound passes; 1 a bound fails; 3 none fails but the sample
cannot decide one (run more games), or 1 with --inconclusive fail; 2 bad
input. In --junit an inconclusive bound is a skipped test case, which many
CI systems show as green: --inconclusive fail makes it a failure. The
verdicts are printed as a Markdown table, also written to --markdown FILE
and appended to $GITHUB_STEP_SUMMARY when that is set; --junit FILE writes
them as JUnit XML (one test case per bound). --out DIR keeps the run as
playtest run --out does (summary.json, games.csv, report.md, report.html,
plots/) and adds check.json, check.md and check.html, so CI plays the games
once.`,
		Example: "  playtest check capstone\n  playtest check my-variant.yaml --games 4000 --markdown check.md\n  playtest check capstone --out results --junit results/check.xml",
		Args:    cobra.MaximumNArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return runCheck(cmd, args, &opts) },
	}
	f := c.Flags()
	f.Int("games", 0, "games to play (overrides the variant's games:)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("out", "", "keep the run in DIR (as playtest run --out) with check.json, check.md and check.html")
	f.String("format", "table", "output format: table (the verdicts as a Markdown table; markdown is the same) or json (check.json's content)")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringVar(&opts.markdown, "markdown", "", "also write the verdicts as Markdown to this file")
	f.StringVar(&opts.junit, "junit", "", "also write the verdicts as JUnit XML to this file (one test case per bound)")
	f.StringVar(&opts.inconclusive, "inconclusive", "skip", "an inconclusive bound: skip (a skipped JUnit test case, exit 3) or fail (a failed one, exit 1), for CI systems that show skipped tests as green")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key (repeatable)")
	return c
}

func runCheck(cmd *cobra.Command, args []string, opts *checkOptions) error {
	v := settings(cmd.Flags())
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	format, err := formatSetting(cmd.Flags(), v, "table", "markdown", "json")
	if err != nil {
		return err
	}
	cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
	if err != nil {
		return err
	}
	if len(cfg.Expect) == 0 {
		return usageErrorf("%s has no expect: bounds to check", cfg.Source)
	}
	out := v.GetString("out")
	var fails bool
	switch opts.inconclusive {
	case "skip":
	case "fail":
		fails = true
	default:
		return usageErrorf("--inconclusive %s: want skip (an inconclusive bound is a skipped test case, exit 3) or fail (a failed one, exit 1)", opts.inconclusive)
	}
	// Every file the verdicts go to must be writable before a game is
	// played; those inside --out get their directories.
	if err := writableOutputs(cmd.Context(), out, outputFile{"--markdown", opts.markdown}, outputFile{"--junit", opts.junit}); err != nil {
		return err
	}
	// A few quick games tell which metrics are rates, so a bound of 45 on
	// a rate is refused before the run, not after it.
	probe, err := rundir.Probe(cfg)
	if err != nil {
		return err
	}
	if err := check.CheckBounds(cfg.Source, probe, cfg.Expect); err != nil {
		return err
	}
	documented := func(metric string) bool { return cfg.Definition.Describe(metric) != "" }
	if err := check.CheckMetrics(cfg.Source, probe, cfg.Expect, documented); err != nil {
		return err
	}
	mode := progressMode(v)
	// check's --out is its own: a run there is the last check's, replaced.
	dopts := rundir.DirOptions{Options: rundir.Options{Workers: workers}, Replace: true}
	// cmd.Context() is cancelled by Ctrl-C or SIGTERM (Execute).
	summary, err := playWithProgress(cmd.Context(), cmd.ErrOrStderr(), mode, cfg, dopts, out)
	if err != nil {
		return err
	}
	verdicts, err := check.Evaluate(cfg.Source, summary, cfg.Expect, documented)
	if err != nil {
		return err
	}
	var md bytes.Buffer
	if err := check.WriteMarkdown(&md, summary, verdicts); err != nil {
		return err
	}
	if format == "json" {
		if err := reports.WriteJSON(cmd.OutOrStdout(), check.NewReport(summary, verdicts, fails)); err != nil {
			return err
		}
	} else if isTerminal(cmd.OutOrStdout()) {
		// A terminal gets plain text; a file or a pipe the Markdown.
		if err := reports.WritePlainText(cmd.OutOrStdout(), md.Bytes()); err != nil {
			return err
		}
	} else {
		fmt.Fprint(cmd.OutOrStdout(), md.String())
	}
	if err := writeSummaries(opts.markdown, md.Bytes()); err != nil {
		return err
	}
	if opts.junit != "" {
		if err := reports.WriteFileAtomic(opts.junit, func(w io.Writer) error { return check.WriteJUnit(w, summary, verdicts, fails) }); err != nil {
			return err
		}
	}
	if out != "" {
		// The page beside the run opens its outcome chart and links its
		// full report (the terminal and the CI summary get the table only).
		page := reports.BeforeFooter(md.Bytes(), "\n![Seat 0's score, the seat win rates and draws of the checked run](plots/outcomes.svg)\n\nThe checked run's full report: [report.md](report.md).\n")
		if err := writeReportFiles(out, "check", "playtest check: "+cfg.Name, check.NewReport(summary, verdicts, fails), page); err != nil {
			return err
		}
	}
	if code := check.ExitCode(verdicts, fails); code != check.ExitPass {
		return exitError{code: code, msg: fmt.Sprintf("check %s: %s", cfg.Name, check.Worst(verdicts))}
	}
	return nil
}

// writeReportFiles writes NAME.json (the value), NAME.md and NAME.html
// (the Markdown as a self-contained page) to dir, each atomically.
func writeReportFiles(dir, name, title string, value any, md []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := []struct {
		ext   string
		write func(io.Writer) error
	}{
		{".json", func(w io.Writer) error { return reports.WriteJSON(w, value) }},
		{".md", func(w io.Writer) error { _, err := w.Write(md); return err }},
		{".html", func(w io.Writer) error { return publish.WriteMarkdownPage(w, title, dir, md) }},
	}
	for _, f := range files {
		if err := reports.WriteFileAtomic(filepath.Join(dir, name+f.ext), f.write); err != nil {
			return err
		}
	}
	return nil
}

// writeSummaries writes the Markdown to --markdown and appends it to the
// CI job summary file named by GITHUB_STEP_SUMMARY, if any.
func writeSummaries(path string, md []byte) error {
	if path != "" {
		if err := reports.WriteFileAtomic(path, func(w io.Writer) error {
			_, err := w.Write(md)
			return err
		}); err != nil {
			return err
		}
	}
	if step := os.Getenv("GITHUB_STEP_SUMMARY"); step != "" {
		f, err := os.OpenFile(step, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.Write(md)
		return err
	}
	return nil
}

// exitError ends the command with a given exit code.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }
