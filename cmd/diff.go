package cmd

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"playtest/reports"
	"playtest/runs/rundiff"
)

func newDiffCommand() *cobra.Command {
	var markdown string
	var failOn []string
	c := &cobra.Command{
		Use:   "diff OLD_DIR NEW_DIR",
		Short: "Show how each headline figure moved between two saved runs, with the significance of the change",
		Long: `Compare two saved runs (directories written by playtest run --out or check
--out): every figure both report (seat 0 and seat 1 wins, draws, stalled,
balance, plies, seat 0's pair score and the game's own metrics), its value
with its 95% interval in each run, the change with its interval, and the
p-value of no change, adjusted by Holm over all the figures. A figure "moved"
when the adjusted p-value is below 0.05.

The runs are taken as independent samples; for two variants played on the
same seeds, playtest compare gives a paired and much tighter answer. The
verdicts print as a table (or --format json or markdown); --markdown FILE
also writes the Markdown, and it is appended to $GITHUB_STEP_SUMMARY when
that is set.

Exit codes: 0 done (whatever moved); with --fail-on FIGURE[,…] or
--fail-on any, 1 when one of those figures moved (a figure with too few
games to test never counts as moved); 2 bad input, a --fail-on figure
neither run reports among it. As with check, CI can gate on it.`,
		Example: `  playtest run stacktics/size2 --out old
  playtest run stacktics/size2 --set rules.board.rows=5 --set rules.board.cols=3 --set rules.start_columns=[0,2] --out new
  playtest diff old new
  playtest diff baseline new --fail-on seat0_wins,draws   # exit 1 when either moved`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			format, err := formatSetting(cmd.Flags(), v, "table", "json", "markdown")
			if err != nil {
				return err
			}
			if err := writableFile("--markdown", markdown); err != nil {
				return err
			}
			old, err := rundiff.Load(args[0])
			if err != nil {
				return usageError{err}
			}
			cur, err := rundiff.Load(args[1])
			if err != nil {
				return usageError{err}
			}
			res, err := rundiff.Compare(args[0], old, args[1], cur)
			if err != nil {
				return usageError{err}
			}
			var md bytes.Buffer
			if err := res.WriteMarkdown(&md); err != nil {
				return err
			}
			if err := writeSummaries(markdown, md.Bytes()); err != nil {
				return err
			}
			var moved []rundiff.Change
			if len(failOn) > 0 {
				if moved, err = res.Moved(failOn); err != nil {
					return usageError{err}
				}
			}
			out := cmd.OutOrStdout()
			switch format {
			case "json":
				err = reports.WriteJSON(out, res)
			case "markdown":
				_, err = fmt.Fprint(out, md.String())
			default:
				err = res.WriteText(out)
			}
			if err != nil || len(moved) == 0 {
				return err
			}
			parts := make([]string, len(moved))
			for i, c := range moved {
				parts[i] = c.Metric
			}
			return exitError{code: ExitFailure, msg: fmt.Sprintf("diff: %s moved (--fail-on %s)", strings.Join(parts, ", "), strings.Join(failOn, ","))}
		},
	}
	c.Flags().String("format", "table", "output format: table, json or markdown")
	c.Flags().StringVar(&markdown, "markdown", "", "also write the diff as Markdown to this file")
	c.Flags().StringSliceVar(&failOn, "fail-on", nil, "exit 1 when one of these figures moved (comma-separated, or any): a CI gate")
	return c
}
