package cmd

import (
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"playtest/runs/runlog"
	"playtest/studies/compare"
	"playtest/studies/skill"
	"playtest/studies/study"
)

// What the commands that keep a study in --out DIR (sweep, tournament,
// skill, compare) share: --resume, --shard, and the line a shard ends on.

// checkResume checks a study's --resume: it needs --out, and takes no
// argument or flag among definition (those that decide what the study
// plays), which takes names in words. Only flags count: PLAYTEST_*
// variables left in a job's environment must not stop a restarted job
// from resuming.
func checkResume(cmd *cobra.Command, args []string, out, noun string, definition []string, takes string) error {
	if out == "" {
		return usageErrorf("--resume continues the %s in --out DIR: give --out", noun)
	}
	given := len(args) > 0
	for _, name := range definition {
		given = given || cmd.Flags().Changed(name)
	}
	if given {
		return usageErrorf("--resume continues the %s recorded in %s: it takes no %s", noun, out, takes)
	}
	return nil
}

// growGames reads --games for a study's --resume, where it grows every
// run of the study to that many games, playing only the new ones (0: not
// given); definition without "games" is what else --resume refuses.
func growGames(cmd *cobra.Command, definition []string) (int, []string, error) {
	rest := slices.DeleteFunc(slices.Clone(definition), func(name string) bool { return name == "games" })
	if !cmd.Flags().Changed("games") {
		return 0, rest, nil
	}
	games, _ := cmd.Flags().GetInt("games")
	if games < 1 {
		return 0, rest, usageErrorf("--games %d: give the games each run of the study should have in all", games)
	}
	return games, rest, nil
}

// shardSetting reads --shard: I/N, or N with the index from
// JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID (none: the whole study). A
// shard keeps its slice of the games in a directory, so it needs out.
func shardSetting(v *viper.Viper, out string) (runlog.Shard, error) {
	text := v.GetString("shard")
	if text == "" {
		return runlog.Shard{}, nil
	}
	if out == "" {
		return runlog.Shard{}, usageErrorf("--shard keeps its slice of the games in a directory: give --out DIR")
	}
	s, err := runlog.ParseShard(text, os.Getenv)
	if err != nil {
		return s, usageErrorf("--shard %s: %v", text, err)
	}
	return s, nil
}

// changedFlags lists the named flags set on the command line, as
// arguments ("--games=100"; a repeated flag once per value), for a
// study's record of the command that started it.
func changedFlags(flags *pflag.FlagSet, names []string) []string {
	var out []string
	for _, name := range names {
		f := flags.Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, value := range values {
			out = append(out, "--"+name+"="+value)
		}
	}
	return out
}

// shardDone tells that a study's shard in out is finished and how to
// assemble the study.
func shardDone(cmd *cobra.Command, out string) error {
	m, err := study.Read(out)
	if err != nil {
		return err
	}
	noun := map[string]string{skill.Kind: "skill ladder", compare.Kind: "comparison"}[m.Kind]
	if noun == "" {
		noun = m.Kind
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s %s: %v finished in %s (%d runs); when all %d are, assemble the %s with: playtest merge SHARD_DIR... --out DIR\n",
		noun, m.Name, m.Shard, out, len(m.Units), m.Shard.Count, noun)
	return err
}
