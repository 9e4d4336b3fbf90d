package cmd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/studies/study"
	"playtest/studies/sweep"
	"playtest/studies/tune"
	"playtest/variants"
)

type tuneOptions struct {
	sets []string
}

func newTuneCommand() *cobra.Command {
	var opts tuneOptions
	c := &cobra.Command{
		Use:   "tune SPACE | --resume --out DIR",
		Short: "Race the variants of a space of rule settings for the most balanced one, without playing every variant to the end",
		Long: `Search a space of rule settings for the variant whose seat balance is
closest to even. SPACE is a sweep file, a shipped space (` + strings.Join(sweep.NamesIn("tunes"), ", ") + `)
or a shipped sweep (` + strings.Join(sweep.Names(), ", ") + `): its base variant and axes, crossed, are
the candidates (playtest sweep --help describes the file). A shipped space
of the same name as a sweep is the one raced.

The candidates race: in round 1 every candidate plays --first-games games
(100), in each later round twice as many, up to --games (the sweep's), all
on the same seeds and deals (common random numbers). After each round a
candidate is dropped when its games show it less balanced, |seat 0's score
− 50%|, than the leader's on the same deals (paired tests, docs/tune.md).
The tests' intervals are widened so that, over every round and candidate
together, the tests drop the best candidate with probability at most
--alpha (a union bound). Then successive halving keeps the best --keep
share of the round's candidates by rank (half; never fewer than two) and
sets the others aside without showing them worse (--keep 1 races without
halving). --tolerance N ends the race once the leader is shown within N points
of even ("fair enough"); --budget bounds the games of the race.

A space of more than ` + strconv.Itoa(tune.AutoNTBEA) + ` candidates (or --search ntbea) is searched first
with the N-Tuple Bandit Evolutionary Algorithm (NTBEA): it evaluates points
a few games at a time (--eval-games) with 3/5 of --budget (default: 20
games a candidate), learning each knob's and each pair of knobs' effect,
and proposes the --confirm best points; a race on other seeds, with the
rest of the budget, then plays them to the end and judges them.

The space file may set an objective: other than seat balance: targets on
any per-game figure (plies, draws, stalled, decisions, or the game's own
metrics), each either weighted into the objective (weight:) or a hard
constraint a candidate is dropped for breaking (docs/tune.md).

With --out DIR the race is kept as it goes: after a stop (Ctrl-C, a kill,
a lost machine) playtest tune --resume --out DIR continues it from the
directory alone, to the same answer.

--learn GAMES races bots that have learned each candidate's rules: before
the race, each candidate to race learns a model from GAMES games of its
own bots (playtest learn, one generation, on seeds of its own; kept in
DIR/models/ with --out) and its bots play it. NTBEA's search evaluations
keep the bots' own evaluation; the learning games are not --budget's.

The answer is the bots': a rule tuned with weak bots may be balanced only
for them. Check the winner with playtest skill.`,
		Example: `  playtest tune stacktics-size2 --games 2000
  playtest tune my-space.yaml --first-games 200 --budget 40000 --out tune/
  playtest tune --resume --out tune/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runTune(cmd, args, &opts) },
	}
	f := c.Flags()
	f.Int("games", 0, "the most games a candidate plays (default: the sweep's games)")
	f.Int("first-games", tune.DefaultFirstGames, "games every candidate plays in the first round (even)")
	f.Int("budget", 0, "the most games of the whole race (0: no bound but --games a candidate)")
	f.Float64("alpha", tune.DefaultAlpha, "the chance the race's tests may drop the best candidate, at most")
	f.Float64("keep", tune.DefaultKeep, "share of a round's candidates successive halving keeps, by rank (1: no halving)")
	f.Float64("tolerance", 0, "stop once the leader's imbalance is shown at most this many points, e.g. 2 (0: none)")
	f.Uint64("seed", 0, "run seed of every candidate (overrides the sweep's)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("format", "table", "output format: table, csv (every evaluation) or json")
	f.String("out", "", "keep the race in DIR as it goes (--resume continues it) and write DIR/tune.json, tune.csv, tune.md and tune.html")
	f.Bool("resume", false, "continue the race kept in --out DIR after a stop, from the directory alone")
	f.Bool("quiet", false, "show no progress on stderr")
	f.Int("learn", 0, "learn each raced candidate's own model from this many games of its bots before the race, and play it (eval: learned; not NTBEA's evaluations)")
	f.Int("max-variants", 10*sweep.DefaultMaxVariants, "refuse a space of more candidates than this")
	f.String("search", "", "race (every candidate from the first round) or ntbea (search, then race the proposals); default: ntbea above "+strconv.Itoa(tune.AutoNTBEA)+" candidates")
	f.Int("eval-games", tune.DefaultEvalGames, "NTBEA: games an evaluation plays (even, at least 4)")
	f.Int("confirm", tune.DefaultConfirm, "NTBEA: how many proposals the confirmation race plays to the end")
	f.StringArrayVar(&opts.sets, "set", nil, "override a key of every candidate, e.g. --set players.0.iterations=300 (repeatable)")
	return c
}

// tuneDefinition are the flags that decide what a race plays: a resume
// takes none of them.
var tuneDefinition = []string{"games", "first-games", "budget", "alpha", "keep", "tolerance", "search", "eval-games", "confirm", "seed", "set", "max-variants", "learn"}

func runTune(cmd *cobra.Command, args []string, opts *tuneOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "csv", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	out, resume := v.GetString("out"), v.GetBool("resume")
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	topts := tune.Options{Workers: workers, Out: out}
	var sw *sweep.Sweep
	var cfgs []*variants.Config
	var points []sweep.Point
	name, total := "", 0
	switch {
	case resume:
		if err := checkResume(cmd, args, out, "tune", tuneDefinition, strings.Join(prefixed(tuneDefinition), ", ")+" or SPACE"); err != nil {
			return err
		}
		name = out
	case len(args) == 0:
		return usageErrorf("give a SPACE (a file or one of %s), or --resume --out DIR", strings.Join(sweep.NamesIn("tunes"), ", "))
	default:
		if sw, err = sweep.LoadIn(args[0], "tunes", sweep.Dir); err != nil {
			return err
		}
		var sopts sweep.Options
		if cfgs, points, err = prepareSweep(cmd, v, sw, []string{"seed"}, opts.sets, &sopts); err != nil {
			return err
		}
		if topts.Objective, err = tune.ParseObjective(sw.Source, sw.Objective, cfgs[0]); err != nil {
			return err
		}
		topts.FirstGames, topts.MaxGames, topts.Budget = v.GetInt("first-games"), v.GetInt("games"), v.GetInt("budget")
		if topts.Tolerance, err = pointsFlag("--tolerance", v.GetFloat64("tolerance"), math.Inf(1)); err != nil {
			return err
		}
		topts.Alpha, topts.Keep, topts.Skipped = v.GetFloat64("alpha"), v.GetFloat64("keep"), sopts.Skipped
		topts.Search, topts.EvalGames, topts.Confirm = v.GetString("search"), v.GetInt("eval-games"), v.GetInt("confirm")
		if topts.Learn, err = learnGames(cmd.Flags(), v); err != nil {
			return err
		}
		topts.Command = study.Command(tune.Kind, append(args[:1:1], changedFlags(cmd.Flags(), tuneDefinition)...))
		// 0 would mean the default to the library: refuse it from the
		// command line, where it is a mistake.
		switch {
		case topts.Keep <= 0:
			return usageErrorf("--keep %g: want a share above 0 and at most 1 (1 races without halving)", topts.Keep)
		case topts.EvalGames <= 0 || topts.Confirm <= 0:
			return usageErrorf("--eval-games %d, --confirm %d: want at least 4 games an evaluation and 2 proposals", topts.EvalGames, topts.Confirm)
		}
		if err := tune.Validate(len(cfgs), cfgs[0], topts); err != nil {
			return usageError{err}
		}
		name, total = sw.Name, tune.Planned(len(cfgs), cfgs[0], topts)
	}
	stderr := cmd.ErrOrStderr()
	rep := progress.New(nil, progress.Quiet, "", 0, 0)
	if !v.GetBool("quiet") {
		rep = progress.New(stderr, progress.Auto, "tune "+name, 0, total)
		topts.OnSearch = func(done, total int, best string) {
			fmt.Fprintf(stderr, "search: %d of %d evaluations; the model's best so far %s\n", done, total, best)
		}
		topts.OnRound = func(r tune.Round) { fmt.Fprintln(stderr, r) }
	}
	topts.OnGame = func() { rep.Add(1) }
	var res *tune.Result
	if resume {
		res, err = tune.Resume(cmd.Context(), out, topts)
	} else {
		res, err = tune.Run(cmd.Context(), sw, cfgs, points, topts)
	}
	rep.Close()
	if errors.Is(err, context.Canceled) {
		if out != "" {
			return fmt.Errorf("interrupted; continue with: playtest tune --resume --out %s", shell.Quote(out))
		}
		return fmt.Errorf("interrupted; nothing was written (--out DIR keeps a race to resume)")
	}
	if err != nil {
		return err
	}
	if out != "" {
		if err := res.WriteDir(out); err != nil {
			return err
		}
	}
	w := cmd.OutOrStdout()
	switch format {
	case "json":
		return res.WriteJSON(w)
	case "csv":
		return res.WriteCSV(w)
	}
	return res.WriteTable(w)
}

// prefixed writes flag names as flags: "--games".
func prefixed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	return out
}
