package cmd

import (
	"github.com/spf13/cobra"

	"playtest/experiment"
	"playtest/study"
	"playtest/sweep"
)

func newMergeCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "merge SHARD_DIR... --out DIR",
		Short: "Combine the shard directories of one run or sweep into the result of a single process",
		Long: `Combine the directories written by playtest run --shard I/N --out DIR_I into
--out DIR, which then holds exactly what one run of all the games writes:
games.jsonl, errors.jsonl, games.csv, summary.json (the same, apart from
timing, as a single run's) and the reports. Every shard must be finished
(resume an unfinished one first), and all N must be given.

The shards of a sweep (playtest sweep --shard I/N --out DIR_I) merge the
same way, variant by variant, into the sweep one process would have
written: sweep.json (the same), the tables, plots and every variant's run.`,
		Example: `  playtest merge results/shard-* --out results/all
  playtest merge sweep-shard-0 sweep-shard-1 sweep-shard-2 sweep-shard-3 --out sweep`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := settings(cmd.Flags())
			out := v.GetString("out")
			if out == "" {
				return usageErrorf("--out DIR is required")
			}
			if m, err := study.Read(args[0]); err == nil {
				if m.Kind != sweep.Kind {
					return usageErrorf("%s holds a %s, which playtest merge cannot assemble", args[0], m.Kind)
				}
				res, err := sweep.Merge(cmd.Context(), args, out)
				if err != nil {
					return err
				}
				if v.GetString("format") == "json" {
					return res.WriteJSON(cmd.OutOrStdout())
				}
				return res.WriteTable(cmd.OutOrStdout())
			}
			summary, err := experiment.Merge(cmd.Context(), args, out)
			if err != nil {
				return err // bad shards are bad input (exit 2), a full disk a failure (1)
			}
			if v.GetString("format") == "json" {
				return summary.WriteJSON(cmd.OutOrStdout())
			}
			return summary.WriteTable(cmd.OutOrStdout())
		},
	}
	c.Flags().String("out", "", "directory of the merged run")
	c.Flags().String("format", "table", "output format: table or json")
	return c
}
