package cmd

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"playtest/internal/progress"
	"playtest/internal/shell"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/sim/model"
	"playtest/studies/learn"
	"playtest/studies/study"
	"playtest/variants"
)

type learnOptions struct {
	sets []string
}

func newLearnCommand() *cobra.Command {
	var opts learnOptions
	c := &cobra.Command{
		Use:   "learn [PRESET|FILE]",
		Short: "Learn an evaluation of a variant's positions from its own games: a calibrated chance of winning",
		Long: `Play the variant's games with its bots and learn, from their positions, the
chance that the seat to move wins (a draw counting ½) as a logistic model of
the features its game names (playtest games lists them): Texel's tuning
method. Quiet positions only where the game has forcing moves (Stacktics'
captures); one deal in 5 is held out to judge the model: its log-loss and
Brier score against the hand heuristic through its best-fitting logistic and
against the constant predictor, and a reliability table (each decile of
predicted chance against the results). The fit starts from the hand
heuristic's weights and adds an L2 penalty (--l2) on standardised features.

With --generations N (alphabeta, mcts, ismcts or greedy bots), generation k+1 learns from the games
of the variant's bots playing generation k's model, and must predict its
held-out deals better and beat generation k's bots head to head (seat-swapped
pairs on their own seed, the score's 95% interval above 50%); the run stops
at the first generation that does not, and keeps the one before.

Models learned by one recipe from other samples of games can differ in play
as much as a change of recipe does. --candidates N learns N models, each
from the games of its own seed (--seed, --seed + 1, …), rates their bots
and the hand heuristic's in a round robin (--head-to-head games a pairing,
default --games), keeps the best rated, and plays its head-to-head against
the hand heuristic's bots again on a seed of its own: the figure to quote,
since the best of N ratings flatters the one it picks. It learns one
generation of each, in one go (no --generations, --budget, --max-time or
--resume).

The model describes these bots' games: a model learned from weak bots'
games rates positions as weak bots play them out. --out DIR writes
DIR/model.json (schema playtest/model/v1: the game and a hash of its
resolved rules, the features, weights, the hand heuristic's scale and the
training figures) and a page, learn.md and learn.html with the reliability
plot (plots/reliability.svg); the same seed gives the same model with any
number of workers.

--budget caps the games the run plays, self-play and head-to-heads
together: a generation that would pass it is not begun. --max-time stops
it when it has run that long (a cap, recorded in the model, not a
budget: the model is the last finished generation's). With --out the run
is kept as a study: each finished generation is saved in DIR as it ends,
and after a stop (Ctrl-C, --max-time, a lost machine) playtest learn
--resume --out DIR continues it from the directory alone, to the
model.json an unbroken run writes, byte for byte.

--kind ntuple learns another kind of model: an n-tuple network over the
game's board of cells (every built-in game, and rules scripts with
cell_board and cells), by TD self-play on one goroutine (games of perfect
information only) (--tuples, --tuple-length, --rate, --epsilon,
--lambda; 100,000 games unless --games), written to DIR/model.json
(schema playtest/model/v2) without generations, a page or --resume. Every
bot plays it with eval: learned, model: DIR/model.json. With --method fit
the network is fitted on top of the logistic model the variant's bots
play (any game with cells; with hidden information each position is
read from both seats' views, the other's in a world the mover sampled),
to the positions of their games (8,000 unless --games), each
labelled half by its result and half by its search's value
(--result-weight, --rate, --epochs), or, on a game of perfect
information, by its proven value (--proof N positions a proof, from
--proof-from plies); the fitted model's bots then play the variant's own
in a head-to-head (--head-to-head, 400 games). --candidates N fits N, each
on games and tuples of its own seed, and keeps the best by play as above,
rated against the bots' own model (--head-to-head games a pairing).

--kind dense fits, as --kind ntuple --method fit does, a small dense
network instead: each cell's state one-hot, one layer of --hidden ReLU
units (32), on top of the bots' logistic model, shown a random image of
each position under the board's symmetries at each step.

--kind opponent learns an opponent model in a game whose seats' moves
show what it hides (Capstone: where a seat puts its pieces shows its
goal): it plays the variant's games (400 unless --games) and fits the
strength with which the bots' worlds weigh each hidden part by its
evidence, exp(strength × evidence), so that the true parts are likeliest
at the seats' decisions; one deal in 5 is held out to judge it. It prints
the strength, to give the bots as infer: (alphabeta with worlds:, ismcts).`,
		Example: `  playtest learn stacktics/size2 --games 2000 --out models/size2
  playtest learn capstone --games 1000 --format json
  playtest learn stacktics/size3 --games 1000 --generations 4 --budget 8000 --max-time 20m --out models/size3
  playtest learn stacktics/size2-3x5 --games 2000 --candidates 4 --head-to-head 400 --out models/3x5
  playtest learn stacktics/size4 --kind ntuple --method fit --games 4000 --out models/size4-ntuple
  playtest learn stacktics/size3 --kind ntuple --method fit --candidates 4 --out models/size3-ntuple
  playtest learn stacktics/size3 --kind dense --hidden 32 --games 8000 --out models/size3-dense
  playtest learn capstone --kind opponent --games 400
  playtest learn --resume --out models/size3`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runLearn(cmd, args, &opts) },
	}
	f := c.Flags()
	f.Int("games", 0, "games to learn from (overrides the variant's games:)")
	f.Uint64("seed", 0, "run seed (overrides the variant's seed:)")
	f.Int("workers", 0, "worker goroutines (default: all cores; the model is the same)")
	f.Float64("l2", learn.DefaultL2, "L2 penalty on the weights of standardised features")
	f.Int("generations", 1, "the most generations: each plays the model before with the variant's bots, learns anew, and must beat the one before head to head (alphabeta, mcts, ismcts or greedy bots)")
	f.Int("head-to-head", 0, "games of each generation's head-to-head against the one before (default: --games); with --kind ntuple --method fit, of the fitted model's bots against the bots' own at the same nodes (default 400; 0: none)")
	f.Int("bootstrap", 0, "refit on this many resamples of the training deals for 95% intervals on the weights (e.g. 200)")
	f.Int("budget", 0, "the most games to play, self-play and head-to-heads together (default: no cap)")
	f.Duration("max-time", 0, "stop after this long, keeping the last finished generation's model (default: no cap)")
	f.String("out", "", "keep the run in DIR as it goes (--resume continues it) and write DIR/model.json, learn.md, learn.html and plots/")
	f.Bool("resume", false, "continue the run kept in --out DIR after a stop, from the directory alone")
	f.Bool("force", false, "learn into an --out DIR that holds a run (playtest run --out), removing the run's files first (refused without it)")
	f.String("kind", "", "the model's kind: none for the logistic over the game's features, ntuple for an n-tuple network over its cells learned by TD self-play (--tuples, --tuple-length, --rate, --epsilon; --games defaults to 100,000; --out DIR/model.json only), dense for a dense network over its cells fitted as --kind ntuple --method fit is (--hidden), or opponent for the strength of an opponent model (the bots' infer:; --games defaults to 400; printed, no --out)")
	f.Int("tuples", learn.DefaultNTupleTuples, "with --kind ntuple: the network's random snakes of neighbouring cells, besides the tuples the game names (Capstone's stacks)")
	f.Int("tuple-length", learn.DefaultNTupleLength, "with --kind ntuple: the cells of each tuple (default: 6, fewer where a table would pass 65,536 entries: 4 on Stacktics)")
	f.Float64("rate", learn.DefaultNTupleRate, "the learning rate: with --kind ntuple TD's (divided by the entries a position reads; the default shown); with --method fit the fit's, 0.02 unless given; with --kind dense the fit's, 0.5 unless given, divided by the hidden units")
	f.Int("hidden", learn.DefaultHidden, "with --kind dense: the network's hidden units")
	f.Float64("epsilon", learn.DefaultNTupleEpsilon, "with --kind ntuple: the share of random moves in self-play")
	f.String("method", "td", "with --kind ntuple: td learns by TD self-play from nothing; fit plays the variant's bots (which must play a logistic model, eval: learned) and fits the network on top of that model (or alone: --alone) to their positions, each labelled by its game's result and its search's value, or by its proven value (--proof) (--result-weight, --rate, --epochs; --games defaults to 8,000; --head-to-head games, default 400, pit the fitted model's bots against the bots' own)")
	f.Float64("result-weight", learn.DefaultFitResult, "with --method fit: the weight of a game's result in each position's target, the rest its search's chance (1: results alone)")
	f.Int64("proof", 0, "with --method fit: label each position by its proven value (a win, a draw or a loss for its mover) instead, each proof within this many positions; positions left unproven (past it, or on a line that repeats a position) are left out (games of perfect information; e.g. 2000000)")
	f.Bool("alone", false, "with --method fit: fit the network by itself, not on top of the bots' model (the bots may then play the hand heuristic); cheaper to evaluate where the base's features cost more than the network")
	f.Bool("quiet-positions", false, "with --method fit: leave out the positions whose mover has a forcing move (a capture) pending, as the logistic learner does, so the network learns the positions a search's quiescence judges")
	f.Int("leaf-positions", 0, "with --method fit: add up to this many positions from each training position's search, among the quiet ones its evaluation was asked about at its horizon (most after moves no game plays), each labelled by a search from it (--leaf-nodes), its target that search's chance alone (alphabeta bots, games of perfect information; 6 played best on Stacktics size 3, and worse than none on sizes 2 and 4: docs/learn.md)")
	f.Int("leaf-nodes", 0, "with --leaf-positions: the nodes of each leaf's labelling search (default: the bots' own budget)")
	f.Int("proof-from", 0, "with --proof: leave out the positions before this many plies (early proofs cost the most)")
	f.Int("candidates", 1, "fit this many candidates, each on games (and a network's tuples) of its own seed (--seed, --seed + 1, …), rate their bots in a round robin with the bots' own (a network's base model; the hand heuristic for a logistic model) (--head-to-head games a pairing) and keep the best rated; its head-to-head against the bots' own is played again on a seed of its own, the figure to quote (the best of several ratings flatters the one it picks); a logistic model's candidates learn one generation each")
	f.Int("epochs", learn.DefaultFitEpochs, "with --method fit: the most passes over the positions (fewer when the held-out log-loss stops improving)")
	f.Float64("lambda", 0, "with --kind ntuple: above 0, learn each position from its λ-return at the game's end (TD(λ)) instead of from the next position (TD(0))")
	f.String("format", "table", "output format: table or json (model.json's content)")
	f.Bool("quiet", false, "show no progress on stderr")
	f.StringArrayVar(&opts.sets, "set", nil, "override a variant key (repeatable)")
	return c
}

// learnDefinition are the flags that decide what a learning run plays: a
// resume takes none of them.
var learnDefinition = []string{"games", "seed", "l2", "generations", "head-to-head", "budget", "bootstrap", "set"}

func runLearn(cmd *cobra.Command, args []string, opts *learnOptions) error {
	v := settings(cmd.Flags())
	format, err := formatSetting(cmd.Flags(), v, "table", "json")
	if err != nil {
		return err
	}
	workers, err := workerCount(cmd.Flags(), v)
	if err != nil {
		return err
	}
	out, resume := v.GetString("out"), v.GetBool("resume")
	for _, name := range []string{"proof", "proof-from", "alone", "quiet-positions", "leaf-positions", "leaf-nodes"} {
		if kind := v.GetString("kind"); cmd.Flags().Changed(name) && kind != "ntuple" && kind != "dense" {
			return usageErrorf("--%s is for fitting a network (--kind ntuple --method fit, or --kind dense)", name)
		}
	}
	switch kind := v.GetString("kind"); kind {
	case "":
	case "ntuple", "dense":
		if resume {
			return usageErrorf("--kind %s learns in one go: it has no --resume", kind)
		}
		return learnNTuple(cmd, v, args, opts, out, format)
	case "opponent":
		if cmd.Flags().Changed("candidates") {
			return usageErrorf("--candidates chooses among fitted models by play: --kind opponent prints one strength")
		}
		if resume || out != "" {
			return usageErrorf("--kind opponent prints its strength (--format json for the record): it has no --out or --resume")
		}
		return learnOpponent(cmd, v, args, opts, workers, format)
	default:
		return usageErrorf("--kind %q: want ntuple, dense, opponent, or none for the logistic model", kind)
	}
	lopts := learn.Options{Workers: workers, MaxTime: v.GetDuration("max-time"), Out: out}
	if lopts.MaxTime < 0 {
		return usageErrorf("--max-time %v: want a duration above 0 (or none)", lopts.MaxTime)
	}
	if candidates := v.GetInt("candidates"); cmd.Flags().Changed("candidates") && (candidates != 1 || resume) {
		return chooseLogistic(cmd, v, args, opts, lopts, candidates, format)
	}
	var s *learn.Session
	label := out
	if resume {
		if err := checkResume(cmd, args, out, "learning run", learnDefinition, strings.Join(prefixed(learnDefinition), ", ")+" or variant"); err != nil {
			return err
		}
		if s, err = learn.Open(out, lopts); err != nil {
			return err
		}
	} else {
		if err := fitSettings(cmd.Flags(), v, &lopts); err != nil {
			return err
		}
		if lopts.Generations, err = intSetting(cmd.Flags(), v, "generations"); err != nil {
			return err
		}
		if lopts.Budget, err = intSetting(cmd.Flags(), v, "budget"); err != nil {
			return err
		}
		if lopts.Generations < 1 || lopts.Generations > 20 || lopts.HeadToHead < 0 || lopts.Budget < 0 {
			return usageErrorf("--generations %d, --head-to-head %d, --budget %d: want 1 to 20 generations and 0 or more games", lopts.Generations, lopts.HeadToHead, lopts.Budget)
		}
		cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
		if err != nil {
			return err
		}
		if err := writableDir(cmd.Context(), "--out", out); err != nil {
			return err
		}
		lopts.Command = study.Command(learn.Kind, append(args[:len(args):len(args)], changedFlags(cmd.Flags(), learnDefinition)...))
		s, err = learn.New(cfg, lopts)
		var runThere *study.RunThereError
		if errors.As(err, &runThere) {
			if !v.GetBool("force") {
				return fmt.Errorf("%w (or give --force to remove the run's files and learn there)", err)
			}
			if err := rundir.RemoveRun(out); err != nil {
				return err
			}
			s, err = learn.New(cfg, lopts)
		}
		if err != nil {
			return err
		}
		label = cfg.Name
	}
	rep := progress.New(cmd.ErrOrStderr(), progressMode(v), "learn "+label, s.Done(), s.Planned())
	s.OnGame(func() { rep.Add(1) })
	fit, tr, err := s.Run(cmd.Context())
	rep.Close()
	if errors.Is(err, context.Canceled) {
		if out != "" {
			return fmt.Errorf("interrupted; continue with: playtest learn --resume --out %s", shell.Quote(out))
		}
		return fmt.Errorf("interrupted; nothing was written (--out DIR keeps a run to resume)")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("--max-time %v ran out before the first generation finished; nothing was learned (give more time, or fewer --games)", lopts.MaxTime)
	}
	if err != nil {
		return err
	}
	return writeLogistic(cmd, fit, tr, out, format)
}

// chooseLogistic learns --candidates logistic models, each from the
// games of its own seed, and keeps the best by play (learn.ChooseLogistic).
func chooseLogistic(cmd *cobra.Command, v *viper.Viper, args []string, opts *learnOptions, lopts learn.Options, candidates int, format string) error {
	flags := cmd.Flags()
	for _, name := range []string{"resume", "generations", "budget", "max-time"} {
		if flags.Changed(name) {
			return usageErrorf("--candidates learns one generation of each candidate, in one go: it takes no --%s", name)
		}
	}
	if err := fitSettings(flags, v, &lopts); err != nil {
		return err
	}
	cfg, err := runVariant(flags, v, args, opts.sets)
	if err != nil {
		return err
	}
	if err := candidatesSetting(candidates, cmp.Or(lopts.HeadToHead, cfg.Games), "--games"); err != nil {
		return err
	}
	out := lopts.Out
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	lopts.Out = ""
	rep := progress.New(cmd.ErrOrStderr(), progressMode(v), "learn "+cfg.Label(), 0, learn.ChoicePlanned(cfg, lopts, candidates))
	lopts.OnGame = func() { rep.Add(1) }
	fit, tr, err := learn.ChooseLogistic(cmd.Context(), cfg, lopts, candidates)
	rep.Close()
	if err != nil {
		return learnError(err)
	}
	return writeLogistic(cmd, fit, tr, out, format)
}

// writeLogistic writes a learned logistic model to out (when set: the
// model and its page) and prints it, as JSON or as text.
func writeLogistic(cmd *cobra.Command, fit *learn.Fit, tr *learn.Training, out, format string) error {
	if out != "" {
		if err := learn.WriteDir(out, fit.Model, tr); err != nil {
			return err
		}
	}
	if format == "json" {
		return reports.WriteJSON(cmd.OutOrStdout(), fit.Model)
	}
	return learn.WriteText(cmd.OutOrStdout(), fit.Model, tr)
}

// candidatesSetting checks --candidates n, whose round robin plays games
// a pairing (by default those of deflt).
func candidatesSetting(n, games int, deflt string) error {
	switch {
	case n < 1 || n > learn.MaxCandidates:
		return usageErrorf("--candidates %d: want 1 to %d fits", n, learn.MaxCandidates)
	case n > 1 && games < 2:
		return usageErrorf("--candidates %d chooses among fits by play: give --head-to-head 2 or more games a pairing (default %s)", n, deflt)
	}
	return nil
}

// fitSettings reads what a logistic fit takes, one run or a choice's
// candidates: --l2, --head-to-head and --bootstrap.
func fitSettings(flags *pflag.FlagSet, v *viper.Viper, lopts *learn.Options) error {
	var err error
	if lopts.L2 = v.GetFloat64("l2"); !(lopts.L2 >= 0 && lopts.L2 < 1e6) {
		return usageErrorf("--l2 %g: want 0 or more", lopts.L2)
	}
	if lopts.HeadToHead, err = intSetting(flags, v, "head-to-head"); err != nil {
		return err
	}
	if lopts.Bootstrap, err = intSetting(flags, v, "bootstrap"); err != nil {
		return err
	}
	if lopts.Bootstrap < 0 || lopts.Bootstrap > 100_000 {
		return usageErrorf("--bootstrap %d: want 0 (none) to 100,000 resamples", lopts.Bootstrap)
	}
	return nil
}

// learnGames reads --learn: the games a study learns each variant's model
// from (0: none), at least learn.MinGames.
func learnGames(flags *pflag.FlagSet, v *viper.Viper) (int, error) {
	n, err := intSetting(flags, v, "learn")
	if err != nil {
		return 0, err
	}
	if n != 0 && (n < learn.MinGames || n > 10_000_000) {
		return 0, usageErrorf("--learn %d: want %d to 10,000,000 games to learn each variant's model from (0: play the bots' own evaluation)", n, learn.MinGames)
	}
	return n, nil
}

// learnOpponent fits an opponent model's strength to the variant's games
// (--kind opponent) and prints it.
func learnOpponent(cmd *cobra.Command, v *viper.Viper, args []string, opts *learnOptions, workers int, format string) error {
	cfg, err := runVariant(cmd.Flags(), v, args, opts.sets)
	if err != nil {
		return err
	}
	oopts := learn.OpponentOptions{Games: learn.DefaultOpponentGames, Workers: workers, Seed: cfg.Seed}
	if cmd.Flags().Changed("games") {
		oopts.Games = cfg.Games
	}
	rep := progress.New(cmd.ErrOrStderr(), progressMode(v), "learn opponent "+cfg.Label(), 0, oopts.Games)
	oopts.OnGame = func() { rep.Add(1) }
	m, err := learn.FitOpponent(cmd.Context(), cfg, oopts)
	rep.Close()
	if err != nil {
		return learnError(err)
	}
	if format == "json" {
		return reports.WriteJSON(cmd.OutOrStdout(), m)
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s: an opponent model from %d games of %s (%d positions, %d more held out; %.0f s)\n"+
		"  strength %.4g: the true hidden parts' evidence averages %.2f, the prior's %.2f\n"+
		"  held out, the weighing makes the true part %.2f× as likely as the prior does (%+.3f nats), %.2f× in the games' second halves\n"+
		"  play it with infer: %.4g (alphabeta with worlds:, ismcts), e.g. --set players.0.infer=%.4g --set players.1.infer=%.4g\n",
		m.Variant, m.Games, m.Bots, m.Positions, m.HeldOut, m.Seconds, m.Strength, m.Evidence, m.PriorEvidence,
		math.Exp(m.Gain), m.Gain, math.Exp(m.LateGain), m.Strength, m.Strength, m.Strength)
	return err
}

// learnNTuple learns an n-tuple network by TD self-play (--kind ntuple),
// or fits one or a dense network (--method fit, --kind dense), and writes
// it to --out DIR/model.json.
func learnNTuple(cmd *cobra.Command, v *viper.Viper, args []string, opts *learnOptions, out, format string) error {
	flags := cmd.Flags()
	cfg, err := runVariant(flags, v, args, opts.sets)
	if err != nil {
		return err
	}
	method := v.GetString("method")
	if v.GetString("kind") == "dense" {
		if cmd.Flags().Changed("method") && method != "fit" {
			return usageErrorf("--kind dense is fitted (--method fit): it has no --method %s", method)
		}
		method = "fit"
	}
	if method == "fit" {
		return fitNTuple(cmd, v, cfg, out, format)
	} else if method != "td" {
		return usageErrorf("--method %q: want td or fit", method)
	}
	for _, name := range []string{"proof", "proof-from", "alone", "quiet-positions", "leaf-positions", "leaf-nodes", "candidates"} {
		if flags.Changed(name) {
			return usageErrorf("--%s is for --method fit: TD self-play learns from its own games, alone", name)
		}
	}
	nopts := learn.NTupleOptions{Games: learn.DefaultNTupleGames, Seed: cfg.Seed, Epsilon: v.GetFloat64("epsilon"), Rate: v.GetFloat64("rate"), Lambda: v.GetFloat64("lambda")}
	if flags.Changed("games") {
		nopts.Games = cfg.Games
	}
	if nopts.Tuples, nopts.Length, err = tupleSettings(flags); err != nil {
		return err
	}
	switch {
	case !(nopts.Rate > 0 && nopts.Rate <= 10):
		return usageErrorf("--rate %g: want a rate above 0, at most 10", nopts.Rate)
	case !(nopts.Epsilon >= 0 && nopts.Epsilon <= 1):
		return usageErrorf("--epsilon %g: want a share from 0 to 1", nopts.Epsilon)
	case !(nopts.Lambda >= 0 && nopts.Lambda < 1):
		return usageErrorf("--lambda %g: want 0 (TD(0)) or a λ below 1", nopts.Lambda)
	}
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	rep := progress.New(cmd.ErrOrStderr(), progressMode(v), "learn ntuple "+cfg.Label(), 0, nopts.Games)
	nopts.OnGame = func() { rep.Add(1) }
	m, tr, err := learn.LearnNTuple(cmd.Context(), cfg, nopts)
	rep.Close()
	if err != nil {
		return learnError(err)
	}
	return writeNTuple(cmd, m, tr, out, format, fmt.Sprintf("%s: an n-tuple network of %s, learned by TD self-play in %d games (%.0f s); in the last tenth seat 0 won %d, seat 1 %d, %d drawn; the hand heuristic's scale %.4g",
		cfg.Label(), tupleWords(tr.Named, tr.Tuples, tr.Length), tr.Games, tr.Seconds, tr.Seat0Wins, tr.Seat1Wins, tr.Draws, m.HandScale))
}

// tupleWords says which tuples a network reads: the game's named ones and
// the snakes of length cells.
func tupleWords(named, snakes, length int) string {
	switch {
	case named == 0:
		return fmt.Sprintf("%d tuples of %d cells", snakes, length)
	case snakes == 0:
		return fmt.Sprintf("the %d tuples the game names", named)
	}
	return fmt.Sprintf("the %d tuples the game names and %d snakes of %d cells", named, snakes, length)
}

// tupleSettings reads --tuples and --tuple-length (length 0 when not
// given: the learner's default for the board).
func tupleSettings(flags *pflag.FlagSet) (tuples, length int, err error) {
	tuples, _ = flags.GetInt("tuples")
	if flags.Changed("tuple-length") {
		length, _ = flags.GetInt("tuple-length")
	}
	switch {
	case tuples < 0 || tuples > 1000:
		return 0, 0, usageErrorf("--tuples %d: want 0 to 1,000 (0: only the tuples the game names)", tuples)
	case flags.Changed("tuple-length") && (length < 1 || length > 10):
		return 0, 0, usageErrorf("--tuple-length %d: want 1 to 10 cells", length)
	}
	return tuples, length, nil
}

// learnError is an n-tuple learner's error as the command reports it.
func learnError(err error) error {
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted; nothing was written")
	}
	return usageError{err}
}

// writeNTuple keeps the training record tr in the n-tuple model m, writes
// it to out/model.json (when out is set) and prints it: as JSON, or the
// line said, naming where it was written.
func writeNTuple(cmd *cobra.Command, m *model.Model, tr any, out, format, said string) error {
	var err error
	if m.Training, err = json.Marshal(tr); err != nil {
		return err
	}
	if out != "" {
		if err := learn.WriteModel(out, m); err != nil {
			return err
		}
		said += "; written to " + out + "/model.json"
	}
	if format == "json" {
		return reports.WriteJSON(cmd.OutOrStdout(), m)
	}
	if _, err = fmt.Fprintln(cmd.OutOrStdout(), said); err != nil {
		return err
	}
	if r, ok := tr.(*learn.FitTraining); ok {
		if err := r.WriteReliability(cmd.OutOrStdout()); err != nil {
			return err
		}
		return r.WriteChoice(cmd.OutOrStdout())
	}
	return nil
}

// fitNTuple fits an n-tuple network (or a dense one, --kind dense) on top
// of the logistic model the variant's bots play, to their games'
// positions (--method fit), and writes it to --out DIR/model.json.
func fitNTuple(cmd *cobra.Command, v *viper.Viper, cfg *variants.Config, out, format string) error {
	flags := cmd.Flags()
	workers, err := workerCount(flags, v)
	if err != nil {
		return err
	}
	fopts := learn.FitOptions{Games: learn.DefaultFitGames, Workers: workers, Seed: cfg.Seed, Result: v.GetFloat64("result-weight"),
		Rate: learn.DefaultFitRate, Epochs: v.GetInt("epochs"), Hidden: v.GetInt("hidden")}
	if v.GetString("kind") == "dense" {
		fopts.Kind, fopts.Rate = model.KindDense, learn.DefaultDenseRate
		for _, name := range []string{"tuples", "tuple-length"} {
			if flags.Changed(name) {
				return usageErrorf("--%s is for --kind ntuple: a dense network has --hidden units", name)
			}
		}
	} else if flags.Changed("hidden") {
		return usageErrorf("--hidden is for --kind dense")
	}
	if flags.Changed("games") {
		fopts.Games = cfg.Games
	}
	if flags.Changed("rate") {
		fopts.Rate = v.GetFloat64("rate")
	}
	fopts.HeadToHead = learn.DefaultFitHeadToHead
	if flags.Changed("head-to-head") {
		fopts.HeadToHead = v.GetInt("head-to-head")
	}
	if fopts.Tuples, fopts.Length, err = tupleSettings(flags); err != nil {
		return err
	}
	fopts.Proof, fopts.ProofFrom, fopts.Alone, fopts.Quiet = v.GetInt64("proof"), v.GetInt("proof-from"), v.GetBool("alone"), v.GetBool("quiet-positions")
	fopts.Leaves, fopts.LeafNodes = v.GetInt("leaf-positions"), v.GetInt("leaf-nodes")
	candidates := v.GetInt("candidates")
	if flags.Changed("leaf-nodes") && fopts.Leaves == 0 {
		return usageErrorf("--leaf-nodes is for --leaf-positions: the leaves' labelling searches")
	}
	if flags.Changed("leaf-positions") && flags.Changed("proof") {
		return usageErrorf("--leaf-positions labels its leaves by searches: with --proof every label is a proven value")
	}
	if flags.Changed("proof-from") && !flags.Changed("proof") {
		return usageErrorf("--proof-from is for --proof: label the positions by proofs first")
	}
	if flags.Changed("result-weight") && flags.Changed("proof") {
		return usageErrorf("--result-weight mixes results and searches: with --proof every label is a proven value")
	}
	switch {
	case fopts.Leaves < 0 || fopts.Leaves > learn.MaxLeaves:
		return usageErrorf("--leaf-positions %d: want 0 (none) to %d a position", fopts.Leaves, learn.MaxLeaves)
	case fopts.LeafNodes != 0 && (fopts.LeafNodes < 100 || fopts.LeafNodes > 100000000):
		return usageErrorf("--leaf-nodes %d: want 100 to 100,000,000 nodes (an alphabeta budget)", fopts.LeafNodes)
	case fopts.Proof < 0:
		return usageErrorf("--proof %d: want a bound of positions above 0", fopts.Proof)
	case fopts.ProofFrom < 0:
		return usageErrorf("--proof-from %d: want 0 or more plies", fopts.ProofFrom)
	case !(fopts.Rate > 0 && fopts.Rate <= 10):
		return usageErrorf("--rate %g: want a rate above 0, at most 10", fopts.Rate)
	case !(fopts.Result >= 0 && fopts.Result <= 1):
		return usageErrorf("--result-weight %g: want a share from 0 to 1", fopts.Result)
	case fopts.Hidden < 1 || fopts.Hidden > model.MaxHidden:
		return usageErrorf("--hidden %d: want 1 to %d units", fopts.Hidden, model.MaxHidden)
	case fopts.Epochs < 1 || fopts.Epochs > 1000:
		return usageErrorf("--epochs %d: want 1 to 1,000", fopts.Epochs)
	case fopts.HeadToHead < 0 || fopts.HeadToHead > 1_000_000:
		return usageErrorf("--head-to-head %d: want 0 (none) to 1,000,000 games", fopts.HeadToHead)
	}
	if err := candidatesSetting(candidates, fopts.HeadToHead, "400"); err != nil {
		return err
	}
	if err := writableDir(cmd.Context(), "--out", out); err != nil {
		return err
	}
	kind, network := "ntuple", func(tr *learn.FitTraining) string {
		return "an n-tuple network of " + tupleWords(tr.Named, tr.Tuples, tr.Length)
	}
	if fopts.Kind == model.KindDense {
		kind, network = "dense", func(tr *learn.FitTraining) string {
			return fmt.Sprintf("a dense network of %d hidden units", tr.Hidden)
		}
	}
	first := ""
	if candidates > 1 {
		first = fmt.Sprintf("candidate 1 of %d", candidates)
	}
	rep := progress.NewStages(cmd.ErrOrStderr(), progressMode(v), "learn "+kind+" (fit) "+cfg.Label(), first, fopts.Games)
	fopts.OnGame = func() { rep.Add(1) }
	fopts.OnStage, fopts.OnPosition = rep.Start, fopts.OnGame
	m, tr, err := learn.ChooseFit(cmd.Context(), cfg, fopts, candidates)
	rep.Close()
	if err != nil {
		return learnError(err)
	}
	d := tr.VersusBase
	labels := ""
	if tr.Proof > 0 {
		labels = fmt.Sprintf(" labelled by their proven values (from ply %d; %d left out unproven: past %d positions, or on a line that repeats a position)", tr.ProofFrom, tr.Unproven, tr.Proof)
	}
	if tr.Quiet {
		labels += fmt.Sprintf(" (quiet: %d left out with a forcing move pending)", tr.NotQuiet)
	}
	if tr.Leaves > 0 {
		nodes := "the bots' budget"
		if tr.LeafNodes > 0 {
			nodes = fmt.Sprintf("%d nodes", tr.LeafNodes)
		}
		labels += fmt.Sprintf(" and %d positions of their searches' horizons (up to %d a position, each labelled by a search of %s)", tr.Leaves, tr.LeavesPer, nodes)
	}
	top, against := " on top of the bots' model", "the base's"
	if tr.Alone {
		top, against = "", "a coin's"
	}
	said := fmt.Sprintf("%s: %s%s, fitted to %d positions%s of %d games in %d passes (%.0f s); held-out log-loss %.4f against %s %.4f (%+.4f [%+.4f, %+.4f] over %d deals) and the constant's %.4f; Brier %.4f against %.4f",
		cfg.Label(), network(tr), top, tr.Positions, labels, tr.Games, tr.Epochs, tr.Seconds, tr.Learned.LogLoss, against, tr.Base.LogLoss, d.Mean, d.Low, d.High, d.Deals, tr.Constant.LogLoss, tr.Learned.Brier, tr.Base.Brier)
	if h := tr.HeadToHead; h != nil {
		said += fmt.Sprintf("; its bots score %.1f%% [%.1f, %.1f] over %d games against the bots' model at the same nodes (a node of the network costs more CPU: compare at equal CPU with playtest tournament)", 100*h.Score, 100*h.Low, 100*h.High, h.Games)
	}
	return writeNTuple(cmd, m, tr, out, format, said)
}
