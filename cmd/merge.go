package cmd

import (
	"github.com/spf13/cobra"

	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/studies/compare"
	"playtest/studies/skill"
	"playtest/studies/study"
	"playtest/studies/sweep"
	"playtest/studies/tournament"
)

func newMergeCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "merge SHARD_DIR... --out DIR",
		Short: "Combine the shard directories of one run, sweep, tournament, skill ladder or comparison into the result of a single process",
		Long: `Combine the directories written by playtest run --shard I/N --out DIR_I into
--out DIR, which then holds exactly what one run of all the games writes:
games.jsonl, errors.jsonl, games.csv, summary.json (the same, apart from
timing, as a single run's) and the reports. Every shard must be finished
(resume an unfinished one first), and all N must be given.

The shards of a sweep (playtest sweep --shard I/N --out DIR_I), a
tournament, a skill ladder or a comparison merge the same way, run by run,
into the study one process would have written: sweep.json,
tournament.json, skill.json or compare.json (the same, apart from timing),
the tables, plots and every run.`,
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
				return mergeStudy(cmd, m.Kind, args, out, v.GetString("format"))
			}
			summary, err := rundir.Merge(cmd.Context(), args, out)
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

// mergeStudy assembles the shards of a study of kind into out and prints
// its result.
func mergeStudy(cmd *cobra.Command, kind string, shards []string, out, format string) error {
	w := cmd.OutOrStdout()
	switch kind {
	case sweep.Kind:
		res, err := sweep.Merge(cmd.Context(), shards, out)
		if err != nil {
			return err
		}
		if format == "json" {
			return res.WriteJSON(w)
		}
		return res.WriteTable(w)
	case compare.Kind:
		res, err := compare.Merge(cmd.Context(), shards, out)
		if err != nil {
			return err
		}
		return finishCompare(cmd, res, nil, out, true, format)
	case skill.Kind:
		res, err := skill.Merge(cmd.Context(), shards, out)
		if err != nil {
			return err
		}
		return finishSkill(cmd, res, nil, out, true, format)
	case tournament.Kind:
		res, err := tournament.Merge(cmd.Context(), shards, out)
		if err != nil {
			return err
		}
		if err := writeTournament(out, res); err != nil {
			return err
		}
		if format == "json" {
			return reports.WriteJSON(w, res)
		}
		return res.WriteTable(w)
	}
	return usageErrorf("%s holds a %s, which playtest merge cannot assemble", shards[0], kind)
}
