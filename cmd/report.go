package cmd

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"playtest/reports/publish"
)

func newReportCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "report DIR",
		Short: "Rebuild a saved run's reports (report.md, report.html, plots/) without replaying it",
		Long: `Rebuild report.md, report.html and the plots of a run saved with
playtest run --out DIR, from DIR/summary.json and DIR/games.csv (and the
example games in DIR/examples.json, for the board viewer): no game is
replayed.`,
		Example: "  playtest run stacks/base --out results/stacks\n  playtest report results/stacks",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := publish.Write(args[0]); err != nil {
				return err // a damaged run is bad input (exit 2), a full disk a failure (1)
			}
			dir := args[0]
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s, %s and %s\n", filepath.Join(dir, publish.MarkdownFile), filepath.Join(dir, publish.HTMLFile),
				filepath.Join(dir, publish.PlotsDir)+string(filepath.Separator))
			return nil
		},
	}
}
