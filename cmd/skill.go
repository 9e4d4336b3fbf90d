package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/sim/bots"
	"playtest/studies/accuracy"
	"playtest/studies/skill"
	"playtest/studies/study"
	"playtest/variants"
)

type skillOptions struct {
	sets     []string
	families []string
	compare  []string
}

func newSkillCommand() *cobra.Command {
	var opts skillOptions
	c := &cobra.Command{
		Use:   "skill [PRESET|FILE]",
		Short: "Climb a skill ladder: does the balance answer hold as the bots get stronger?",
		Long: `Play the variant at a ladder of search budgets (the players' iterations, or
nodes for alphabeta), both seats at each rung's budget, every rung on the same
seeds and pairs. Each rung reports seat 0's score (or share of decisive games
without pairs), draws, stalled games and length with 95% intervals, and the
strength it gains over the rung below: its score against that rung head to
head on the same seeds, as Elo per doubling of the budget (Ludii's Skill
Trace, with intervals).

Rungs must be at least twice apart. The top two rungs are compared deal by
deal (they play the same deals), as the shift of seat 0's figure with its
interval. The verdict: converged (that shift is shown within ±--tolerance
points, 3 by default, and the top rung's gain is shown to be at most
--max-gain Elo per doubling, 35 by default, or clearly below the gain
before it: the answer no longer depends on the bots' strength), drifting
(a shift's interval leaves 0 out: the answer moves as the bots get
stronger; with the top rung no stronger than the one below, the bots have
stopped improving and the ladder cannot settle the variant), or undecided,
saying what is missing: more games (with about how many a rung would
decide, were the shift's estimate to hold), more budget, or games that
differ (a top rung whose bots replay the same few games proves nothing
either way).
--until-settled adds games or budget until the ladder converges or
--max-time runs out, as fishtest's
sequential tests add games until they decide. The skill depth says how much
a doubled budget wins.

Without --budgets the ladder starts at the variant's budget / 16 and climbs
×4 while the next rung is expected to fit in --max-time (from the top
rung's time per game and per ply, its games' growth in plies carried on);
the length of that ladder depends on the machine's speed, but every rung's
figures depend only on the seed. A rung begun on an estimate that still
overruns --max-time stops at a pair boundary and says so. Give --budgets
for a ladder that is the same everywhere.

Where playtest solve finishes a variant within 2,000,000 positions, or
its proof by search within 10,000,000 (5,5,4, Connect Four 6 × 5), the
ladder names its proven value beside the rungs and converges on it when
every game of the top two rungs ends in it; and each deal then opens with
an opening book of 4 decisions drawn at random among the moves that keep
the proven value (the variant's book: key, the same for both games of a
pair; on the boards only a search proves, each book move is proven by
search as it is first played), so that near-perfect bots, which always
answer alike, still play different games whose perfect-play result is
the start's. --no-book plays from the start.

Where the variant's positions can be proven, --accuracy N judges the
first N self-play games of each rung against perfect play (by default 20
where the full solve proves the variant): the share of decisions that keep
the proven value, noise moves apart (playtest accuracy gives the rest).
--perfect adds the perfect bot as the ladder's ceiling: its self-play on
the ladder's deals, and each rung's bot against it, as a score and Elo.

With --family given twice, each bot family (a bot name, or a YAML mapping
of a bot with its parameters) climbs its own ladder in both seats, on the
same seeds, and their top rungs are compared deal by deal: they agree
(shown within the tolerance), disagree (the difference leaves 0 out: one
of them is not yet playing the game's answer), or are undecided. --max-time
is shared between the two ladders; --budgets needs both families to count
the same unit. With --out, DIR/1-FAMILY/ and DIR/2-FAMILY/ hold each
ladder and DIR/families.json and families.md the comparison.

A long ladder per family is better played as its own study (below), each
resumed or sharded on its own; --compare DIR given twice then compares the
top rungs of the two finished ladders kept in those directories, as
--family does (they must play the same deals: the same variant, seed
and book, whatever their bots; ladders of different games a rung are
compared over the smaller's, the larger's first games being the same
deals).

A ladder fixed in advance (--budgets, one family, no --until-settled) with
--out is kept as a study: each rung's self-play and head-to-head a run
directory under DIR/rungs/, and DIR/study.json. playtest skill --resume
--out DIR continues it from the directory alone; with --games N it grows
every rung to N games, and with --budgets (the ladder's budgets, then
higher ones) it climbs: in both cases only the new games are played, to
the ladder the whole command would have given from the start. --shard
I/N plays the I-th slice (from 0) of every run's games, and playtest merge
assembles the ladder. The default ladder and --until-settled decide their
rungs and games as they go, so they run on one machine.`,
		Example: `  playtest skill stacktics/size2 --budgets 500,2000,8000,32000 --games 400
  playtest skill capstone --max-time 30m --out ladder/
  playtest skill size3 --format json
  playtest skill stacktics/size2-nopie --family mcts --family '{bot: alphabeta, noise: 0.5, noise_moves: 10, temperature: 0.15}'
  playtest skill stacktics/size3 --budgets 1000,4000,16000 --games 1000 --shard 2/8 --out ladder-2/
  playtest skill --resume --out ladder/ --budgets 1000,4000,16000,64000
  playtest skill --compare ladder-alphabeta/ --compare ladder-ismcts/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runSkill(cmd, args, &opts) },
	}
	f := c.Flags()
	f.String("budgets", "", "comma-separated increasing budgets, e.g. 100,400,1600,6400 (default: a ×4 ladder that fits --max-time)")
	f.Duration("max-time", skill.DefaultMaxTime, "time the default ladder, or --until-settled, may take (the default ladder's rungs are ignored with --budgets)")
	f.Float64("tolerance", 100*skill.DefaultTolerance, "points within which the top two rungs must be shown to agree for a converged verdict")
	f.Float64("max-gain", skill.DefaultMaxGain, "Elo per doubling the top rung's gain must be shown to stay under for a converged verdict (or be clearly below the gain before it)")
	f.Bool("until-settled", false, "climb on until converged or --max-time runs out: more games on the top two rungs when their comparison is too uncertain, a rung ×4 higher when the bots still gain or the answer still moves")
	f.Int("games", 0, "games per rung and per head-to-head (overrides the variant's games:)")
	f.Bool("no-book", false, "play every game from the start: no opening book where playtest solve proves the variant beside the ladder")
	f.Int("accuracy", skill.AutoAccuracy, "judge this many self-play games of each rung against perfect play where the ladder is proven (0: none; default: 20 where the full solve proves the variant, none where only a search does)")
	f.Bool("perfect", false, "add the perfect bot as the ladder's ceiling: its self-play on the ladder's deals, and each rung's bot against it (where the prover settles the start; not kept in --out)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores)")
	f.String("format", "table", "output format: table or json")
	f.String("out", "", "write DIR/skill.json, skill.csv, skill.md, skill.html and plots/ (and, for a ladder fixed by --budgets, every run under DIR/rungs/)")
	f.Bool("resume", false, "continue the ladder recorded in --out DIR (its study.json); takes no variant or flag that changes the ladder (with --games N: grow every rung to N games; with --budgets, the ladder's then higher ones: add those rungs at its top)")
	f.String("shard", "", "with --out and --budgets: play shard I/N of every run's games, I counted from 0 (N alone: the index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); playtest merge assembles the ladder")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key, e.g. --set players.N.rollout_cap=6 (players.N: every player; repeatable)")
	f.StringArrayVar(&opts.families, "family", nil, "climb a ladder per bot family on the same seeds and compare their top rungs: give two, each a bot name or a YAML mapping, e.g. --family mcts --family '{bot: alphabeta, noise: 0.5, noise_moves: 10, temperature: 0.15}'")
	f.StringArrayVar(&opts.compare, "compare", nil, "compare the top rungs of two finished ladders kept in directories by --out (give it twice), as --family does")
	return c
}

// parseBudgets reads --budgets: "100,400,1600".
func parseBudgets(text string) ([]int, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(strings.ReplaceAll(part, "_", "")))
		if err != nil {
			return nil, fmt.Errorf("--budgets %q: %q is not a whole number", text, part)
		}
		out = append(out, n)
	}
	return out, nil
}

// accuracyGames reads --accuracy: games per rung to judge, or
// skill.AutoAccuracy when not given.
func accuracyGames(flags *pflag.FlagSet) int {
	if !flags.Changed("accuracy") {
		return skill.AutoAccuracy
	}
	n, _ := flags.GetInt("accuracy")
	return max(n, 0)
}

// skillDefinition lists the flags that change what a ladder plays or
// concludes: --resume takes none of them.
var skillDefinition = []string{"budgets", "max-time", "tolerance", "max-gain", "until-settled", "games", "seed", "set", "family", "shard", "perfect"}

func runSkill(cmd *cobra.Command, args []string, opts *skillOptions) error {
	flags := cmd.Flags()
	v := settings(flags)
	format, err := formatSetting(cmd.Flags(), v, "table", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(flags, v)
	if err != nil {
		return err
	}
	if len(opts.compare) > 0 {
		return compareKeptLadders(cmd, args, opts.compare, format)
	}
	if v.GetBool("resume") {
		return resumeSkill(cmd, args, format, workers)
	}
	budgets, err := parseBudgets(v.GetString("budgets"))
	if err != nil {
		return usageError{err}
	}
	maxTime, _ := flags.GetDuration("max-time")
	if maxTime <= 0 {
		return usageErrorf("--max-time %v: want a positive duration such as 10m", maxTime)
	}
	cfg, err := runVariant(flags, v, args, opts.sets)
	if err != nil {
		return err
	}
	var families []bots.Spec
	for _, text := range opts.families {
		spec, err := variants.ParseBot("--family", text)
		if err != nil {
			return usageError{err}
		}
		if err := cfg.LoadBotModel("--family "+text, spec); err != nil {
			return err
		}
		families = append(families, spec)
	}
	if len(families) > 0 {
		if err := skill.ValidateFamilies(cfg, families, skill.Options{Budgets: budgets}); err != nil {
			return usageError{err}
		}
		// The variant's own bots need not have a budget: validation
		// checks the families' ladders.
		cfg.Players = [2]bots.Spec{families[0], families[0]}
	}
	points, _ := flags.GetFloat64("tolerance")
	tolerance, err := pointsFlag("--tolerance", points, 50)
	if err != nil {
		return err
	}
	maxGain, _ := flags.GetFloat64("max-gain")
	if !(tolerance > 0) || !(maxGain > 0) {
		return usageErrorf("--tolerance %g, --max-gain %g: want a tolerance above 0 and below 50 points, and a gain above 0 Elo per doubling", points, maxGain)
	}
	until, _ := flags.GetBool("until-settled")
	noBook, _ := flags.GetBool("no-book")
	out := v.GetString("out")
	sopts := skill.Options{Budgets: budgets, MaxTime: maxTime, Workers: workers, Tolerance: tolerance, MaxGain: maxGain, UntilSettled: until, NoBook: noBook,
		Accuracy: accuracyGames(flags), Perfect: v.GetBool("perfect")}
	if len(families) < 2 {
		sopts.Out = out // one ladder fixed in advance is kept as a study
		sopts.Command = study.Command(skill.Kind, append(args[:len(args):len(args)], changedFlags(flags, skillDefinition)...))
	}
	if v.GetString("shard") != "" && out != "" && len(families) > 0 {
		return usageErrorf("--shard plays one ladder fixed in advance: give --budgets without --family")
	}
	if sopts.Shard, err = shardSetting(v, out); err != nil {
		return err
	}
	if err := skill.Validate(cfg, sopts); err != nil {
		return usageError{err}
	}
	if sopts.Accuracy > 0 {
		if err := accuracy.Check(cfg); err != nil {
			return usageErrorf("--accuracy: %v", err)
		}
	}
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	rep := skillProgress(stderr, v.GetBool("quiet"), &sopts)
	if !v.GetBool("quiet") {
		sopts.Judged = func(r *skill.Result) {
			(*rep).Close()
			top := r.Rungs[len(r.Rungs)-1]
			fmt.Fprintf(stderr, "not settled at %s %s, %s games a rung (%s, %s missing): ", bots.Thousands(top.Budget), r.Param, bots.Thousands(top.Games), r.Verdict, r.Missing)
			if r.Missing == skill.MissingGames {
				fmt.Fprintln(stderr, "doubling the games of the top two rungs")
			} else {
				fmt.Fprintln(stderr, "climbing a rung higher")
			}
		}
	}
	ctx := cmd.Context() // cancelled by Ctrl-C or SIGTERM (Execute)
	var res ladder
	if len(families) == 2 {
		res, err = skill.RunFamilies(ctx, cfg, families, sopts)
	} else {
		res, err = skill.Run(ctx, cfg, sopts)
	}
	(*rep).Close()
	return finishSkill(cmd, res, err, out, sopts.Out != "" && sopts.Budgets != nil && !until, format)
}

// compareKeptLadders compares the top rungs of two kept ladders
// (--compare): it plays nothing, so it takes no variant and no flag but
// --tolerance and --format.
func compareKeptLadders(cmd *cobra.Command, args, dirs []string, format string) error {
	if len(args) > 0 {
		return usageErrorf("--compare takes no variant: the ladders' directories hold theirs")
	}
	var other string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if other == "" && !slices.Contains([]string{"compare", "tolerance", "format", "quiet"}, f.Name) {
			other = f.Name
		}
	})
	if other != "" {
		return usageErrorf("--compare plays nothing and writes nothing: --%s does not apply (the ladders were played with their own settings)", other)
	}
	points, _ := cmd.Flags().GetFloat64("tolerance")
	tolerance, err := pointsFlag("--tolerance", points, 50)
	if err != nil {
		return err
	}
	fam, err := skill.CompareKept(dirs, tolerance)
	if err != nil {
		return err
	}
	if format == "json" {
		return fam.WriteJSON(cmd.OutOrStdout())
	}
	return fam.WriteTable(cmd.OutOrStdout())
}

// skillProgress shows the ladder's progress on stderr (nothing when
// quiet): a bar per run. It returns the current bar.
func skillProgress(stderr io.Writer, quiet bool, sopts *skill.Options) *progress.Reporter {
	mode := progress.Auto
	if quiet {
		mode = progress.Quiet
	}
	var rep progress.Reporter = progress.New(nil, progress.Quiet, "", 0, 0)
	sopts.Started = func(rung, budget int, headToHead bool, games int) {
		rep.Close()
		label := fmt.Sprintf("rung %d: %s %s", rung+1, bots.Thousands(budget), "self-play")
		if headToHead {
			label = fmt.Sprintf("rung %d: %s against the rung below", rung+1, bots.Thousands(budget))
		}
		rep = progress.New(stderr, mode, label, 0, games)
	}
	sopts.OnGame = func() { rep.Add(1) }
	return &rep
}

// resumeSkill continues the ladder recorded in --out.
func resumeSkill(cmd *cobra.Command, args []string, format string, workers int) error {
	v := settings(cmd.Flags())
	out := v.GetString("out")
	games, definition, err := growGames(cmd, skillDefinition)
	if err != nil {
		return err
	}
	definition = slices.DeleteFunc(definition, func(name string) bool { return name == "budgets" })
	if err := checkResume(cmd, args, out, "ladder", definition, "variant, --seed, --set, --family, --shard or verdict setting (only --games, to add games to every rung, and --budgets, to add rungs at the top)"); err != nil {
		return err
	}
	budgets, err := parseBudgets(v.GetString("budgets"))
	if err != nil {
		return usageError{err}
	}
	sopts := skill.Options{Workers: workers, Accuracy: accuracyGames(cmd.Flags()), Games: games, Budgets: budgets}
	rep := skillProgress(cmd.ErrOrStderr(), v.GetBool("quiet"), &sopts)
	res, err := skill.Resume(cmd.Context(), out, sopts)
	(*rep).Close()
	return finishSkill(cmd, res, err, out, true, format)
}

// finishSkill writes and prints a ladder (or says a shard is done); kept
// says the ladder is a study in out, to be marked finished.
func finishSkill(cmd *cobra.Command, res ladder, err error, out string, kept bool, format string) error {
	if errors.Is(err, context.Canceled) {
		if kept {
			return fmt.Errorf("interrupted; continue with: playtest skill --resume --out %s", shell.Quote(out))
		}
		return fmt.Errorf("interrupted; nothing was written")
	}
	if err != nil {
		return err
	}
	if r, ok := res.(*skill.Result); ok && r == nil { // a shard: its runs hold a slice of the games each
		return shardDone(cmd, out)
	}
	if out != "" {
		if err := res.WriteDir(out); err != nil {
			return err
		}
		if kept {
			if err := study.FinishDir(out); err != nil {
				return err
			}
		}
	}
	if format == "json" {
		return res.WriteJSON(cmd.OutOrStdout())
	}
	return res.WriteTable(cmd.OutOrStdout())
}

// ladder is what skill prints and writes: one ladder, or one per family.
type ladder interface {
	WriteDir(dir string) error
	WriteJSON(w io.Writer) error
	WriteTable(w io.Writer) error
}
