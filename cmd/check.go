package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"playtest/check"
	"playtest/experiment"
	"playtest/reports"
)

type checkOptions struct {
	sets     []string
	markdown string
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
interval lies wholly outside it, and is inconclusive otherwise. Metrics:
seat0_wins, seat1_wins, draws, stalled, balance, plies, seat0_pair_score, and
the game's own (playtest run shows them).

Exit codes: 0 every bound passes; 1 a bound fails; 3 none fails but the sample
cannot decide one (run more games); 2 bad input. The verdicts are printed as
a Markdown table, also written to --markdown FILE and appended to
$GITHUB_STEP_SUMMARY when that is set.`,
		Example: "  playtest check capstone\n  playtest check my-variant.yaml --games 4000 --markdown check.md",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			workers, err := workerCount(cmd.Flags(), v)
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
			ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
			summary, err := experiment.Run(ctx, cfg, experiment.Options{Workers: workers})
			if err != nil {
				return err
			}
			verdicts, err := check.Evaluate(cfg.Source, summary, cfg.Expect)
			if err != nil {
				return err
			}
			var md bytes.Buffer
			if err := check.WriteMarkdown(&md, summary, verdicts); err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), md.String())
			if err := writeSummaries(opts.markdown, md.Bytes()); err != nil {
				return err
			}
			if code := check.ExitCode(verdicts); code != check.ExitPass {
				return exitError{code: code, msg: fmt.Sprintf("check %s: %s", cfg.Name, check.Worst(verdicts))}
			}
			return nil
		},
	}
	f := c.Flags()
	f.Int("games", 0, "games to play (overrides the variant's games:)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.StringVar(&opts.markdown, "markdown", "", "also write the verdicts as Markdown to this file")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key (repeatable)")
	return c
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
