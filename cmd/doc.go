// Package cmd holds playtest's commands, one file each (run.go, games.go,
// perft.go), in the manner of restic: a constructor newXCommand returns the
// cobra command, an options struct holds its flags, and RunE calls into the
// library packages. The root command lists them explicitly (root.go).
//
// Application settings come from flags and from PLAYTEST_* environment
// variables, through viper: a flag given on the command line wins over the
// environment, which wins over the flag's default (PLAYTEST_WORKERS=4,
// PLAYTEST_FORMAT=json, PLAYTEST_GAMES=200, ...). Settings that change a
// variant (--games, --seed, --set) are applied to the variant file as
// overrides, so they are validated like the file itself.
package cmd
