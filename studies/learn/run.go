package learn

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"playtest/games"
	"playtest/reports"
	"playtest/reports/plots"
	"playtest/reports/publish"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/sim/model"
	"playtest/studies/study"
	"playtest/variants"
)

// ModelFile is the model a learn --out directory holds.
const ModelFile = "model.json"

// Training is what model.json's training section records: how the model
// was learned (the variant's bots, games and seed; the positions; the
// penalty) and how it predicts held-out deals. Nothing in it depends on
// the clock or the number of workers.
type Training struct {
	Variant    string  `json:"variant"`
	Bots       string  `json:"bots"`
	Games      int     `json:"games"`
	Seed       uint64  `json:"seed"`
	Pairs      bool    `json:"pairs"`
	Positions  int     `json:"positions"`
	HeldOut    int     `json:"held_out"`
	NotQuiet   int     `json:"not_quiet,omitempty"`
	L2         float64 `json:"l2"`
	Iterations int     `json:"iterations"`
	// Learned, Hand and Constant score the learned model, the hand
	// heuristic through its best logistic and the training mean on the
	// held-out positions (every HeldEvery-th deal).
	Learned     Scores `json:"learned"`
	Hand        Scores `json:"hand"`
	Constant    Scores `json:"constant"`
	Reliability []Bin  `json:"reliability"`
	// VersusHand is the learned model's held-out log-loss less the hand
	// heuristic's, with its interval over the held-out deals.
	VersusHand Difference `json:"versus_hand"`
	// Generations are every generation learned, the kept one last but
	// for one that stopped the run; Stopped says why it ended.
	Generations []Generation `json:"generations"`
	Stopped     string       `json:"stopped"`
	// Spent is the games played, self-play and head-to-heads, by the
	// generations recorded; Budget the most allowed (0: none).
	Spent  int `json:"games_played"`
	Budget int `json:"budget,omitempty"`
	// Bootstrap is the resamples of the training deals Intervals come
	// from: the bias's and each weight's 95% interval, in logits.
	Bootstrap int        `json:"bootstrap,omitempty"`
	Intervals []Interval `json:"intervals,omitempty"`
	// Choice is the choice among fits by play that kept this one
	// (ChooseLogistic; nil for a single run): generation 1's head-to-head
	// is then the kept fit's confirmation.
	Choice *Choice `json:"choice,omitempty"`
}

// withoutDecileIntervals is the record as model.json keeps it: the
// reliability deciles without their deal counts and intervals, which the
// learn page and learn-state.json show. model.json's record stays as the
// shipped models have it: make models reproduces them byte for byte, and
// a model file's content hash is part of every preset's identity.
func (tr *Training) withoutDecileIntervals() *Training {
	kept := *tr
	kept.Reliability = make([]Bin, len(tr.Reliability))
	for i, b := range tr.Reliability {
		b.Deals, b.GapLow, b.GapHigh = 0, 0, 0
		kept.Reliability[i] = b
	}
	return &kept
}

// Options tune a learning run.
type Options struct {
	Workers int
	L2      float64
	// Generations is the most generations to learn (1 if 0): generation 1
	// learns from the variant's bots' games, generation k+1 from the games
	// of the same bots playing generation k's model.
	Generations int
	// HeadToHead is the games each head-to-head plays (the variant's
	// games if 0).
	HeadToHead int
	// Bootstrap, if above 0, refits each generation's model on that many
	// resamples of its training deals for intervals on its weights.
	Bootstrap int
	// Budget, if above 0, is the most games the run may play, self-play
	// and head-to-heads together: a generation that would pass it is not
	// begun (the first must fit).
	Budget int
	// MaxTime, if above 0, stops the run when it has run that long (a
	// cap, not a budget: the model is the last kept generation's, the stop
	// recorded, and with Out a resume continues it to the model an
	// uncapped run gives).
	MaxTime time.Duration
	// Out, if set, keeps the run as a study directory: each finished
	// generation is saved there, and Resume continues from it.
	Out string
	// Command is the command line that started the run, for the study's
	// manifest.
	Command string
	// OnGame, if set, sees every finished game; OnGeneration every
	// generation as it ends.
	OnGame       func()
	OnGeneration func(Generation)
}

// Generation is one generation of a learning run: the model it learned
// from the games of the generation before's bots, how it predicts their
// held-out deals, and how its bots did against those bots on the same
// seeds.
type Generation struct {
	Index int `json:"generation"`
	// Bots says who played the games it learned from.
	Bots      string `json:"bots"`
	Positions int    `json:"positions"`
	HeldOut   int    `json:"held_out"`
	Learned   Scores `json:"learned"`
	Hand      Scores `json:"hand"`
	Constant  Scores `json:"constant"`
	// HeadToHead is its model's bots against the bots that played its
	// games (nil when the bots cannot play a model).
	HeadToHead *HeadToHead `json:"head_to_head,omitempty"`
}

// HeadToHead is a generation's bots' score against the generation
// before's, over seat-swapped pairs on common seeds, with its 95%
// interval; Beats says the interval lies above ½.
type HeadToHead struct {
	Games int     `json:"games"`
	Score float64 `json:"score"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Beats bool    `json:"beats"`
}

// Run plays cfg's games with its bots and learns its model, generation by
// generation while the held-out log-loss improves and each generation's
// bots beat the one before's: the result is the last generation kept, its
// model carrying the training record.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Fit, *Training, error) {
	s, err := New(cfg, opts)
	if err != nil {
		return nil, nil, err
	}
	return s.Run(ctx)
}

// Session is a learning run ready to play: begun afresh (New) or read back
// from its study directory (Open).
type Session struct {
	cfg  *variants.Config
	job  *sim.Job
	hand []float64 // the game's hand weights
	// features are the game's feature names.
	features []string
	opts     Options
	keep     *keeper
	entries  []entry // the generations finished before (a resume)
}

// entry is one finished generation: its record and its fit.
type entry struct {
	Generation Generation `json:"generation"`
	Fit        *Fit       `json:"fit"`
	// Games is the games it played, self-play and head-to-head.
	Games int `json:"games"`
}

// New prepares a learning run of cfg (with opts.Out, its study directory:
// a directory holding an unfinished one is refused).
func New(cfg *variants.Config, opts Options) (*Session, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, err
	}
	job.Trace = 0 // learning reads positions, not traces
	f, ok := job.Game.(games.Featurer)
	if !ok {
		return nil, fmt.Errorf("%s names no features: nothing to learn from", cfg.Definition.Name)
	}
	opts.Generations = max(opts.Generations, 1)
	// Generation 1 learns from the hand heuristic's games whatever the
	// variant's bots play (a preset's may play its shipped model): a
	// model learned is reproduced from the rules and bots alone.
	for i, p := range cfg.Players {
		job.Players[i] = p.WithHand()
	}
	s := &Session{cfg: cfg, job: job, hand: f.HandWeights(), opts: opts}
	for _, x := range f.Features() {
		s.features = append(s.features, x.Name)
	}
	if first := s.cost(1); opts.Budget > 0 && first > opts.Budget {
		return nil, study.BadInputf("--budget %d games does not cover the first generation's %d (its games and head-to-head)", opts.Budget, first)
	}
	if opts.Out != "" {
		if s.keep, err = begin(opts.Out, cfg, opts); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// OnGame makes f see every game the session plays from now on (a
// progress bar made once the session knows its plan).
func (s *Session) OnGame(f func()) { s.opts.OnGame = f }

// Done is the games played before the session began (a resume's).
func (s *Session) Done() int {
	n := 0
	for _, e := range s.entries {
		n += e.Games
	}
	return n
}

// Planned is the most games the session plays, the ones played before
// included: every generation with its head-to-head, within the budget.
func (s *Session) Planned() int {
	n := 0
	for k := 1; k <= s.opts.Generations; k++ {
		n += s.cost(k)
	}
	if s.opts.Budget > 0 {
		n = min(n, s.opts.Budget)
	}
	return n
}

// cost is the games generation k plays: its own and, when generations
// are compared, its head-to-head.
func (s *Session) cost(k int) int {
	n := s.job.Games
	if s.opts.Generations > 1 {
		h := cmp.Or(s.opts.HeadToHead, s.job.Games)
		n += h + h%2
	}
	return n
}

// ErrTimeCap is the cause of a run stopped by Options.MaxTime.
var ErrTimeCap = errors.New("the time cap was reached")

// Run plays the session's generations (after the ones played before) and
// returns the last kept one's fit and the training record. With a study
// directory, each generation is saved as it ends, and the directory is
// marked finished at the end; a stop by the time cap returns the last
// kept generation's model with the stop recorded, the study unfinished.
func (s *Session) Run(ctx context.Context) (*Fit, *Training, error) {
	if s.opts.MaxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, s.opts.MaxTime, ErrTimeCap)
		defer cancel()
	}
	cfg, opts := s.cfg, s.opts
	tr := &Training{Variant: cfg.Label(), Bots: bots.DescribePlayers(s.job.Players), Seed: cfg.Seed, Pairs: cfg.Pairs, L2: opts.L2, Budget: opts.Budget, Bootstrap: opts.Bootstrap}
	var best *Fit
	players := s.job.Players
	who := "the variant's bots (hand heuristic)"
	finished := false
	for k := 1; k <= opts.Generations; k++ {
		var e entry
		if k <= len(s.entries) {
			e = s.entries[k-1]
		} else {
			if c := s.cost(k); opts.Budget > 0 && tr.Spent+c > opts.Budget {
				tr.Stopped = fmt.Sprintf("the budget of %s games leaves %s, short of generation %d's %s", bots.Thousands(opts.Budget), bots.Thousands(opts.Budget-tr.Spent), k, bots.Thousands(c))
				finished = true
				break
			}
			var err error
			e, err = s.generation(ctx, k, players, who, best)
			if err != nil {
				if best != nil && errors.Is(context.Cause(ctx), ErrTimeCap) {
					tr.Stopped = fmt.Sprintf("the time cap (%v) stopped it during generation %d: the model is generation %d's", opts.MaxTime, k, k-1)
					if s.keep != nil {
						tr.Stopped += " (playtest learn --resume continues it)"
					}
					break
				}
				return nil, nil, err
			}
			if err := s.keep.save(append(s.entries[:k-1:k-1], e)); err != nil {
				return nil, nil, err
			}
			s.entries = append(s.entries[:k-1:k-1], e)
			if opts.OnGeneration != nil {
				opts.OnGeneration(e.Generation)
			}
		}
		tr.Spent += e.Games
		tr.Generations = append(tr.Generations, e.Generation)
		kept, stopped := s.judge(k, &e, best)
		if kept {
			best = e.Fit
			if learned, ok := withModel(s.job.Players, best.Model, generationName(k)); ok {
				players, who = learned, fmt.Sprintf("the variant's bots playing generation %d's model", k)
			}
		}
		if stopped != "" {
			tr.Stopped, finished = stopped, true
			break
		}
	}
	if tr.Stopped == "" {
		tr.Stopped, finished = fmt.Sprintf("the %s asked for played", reports.Count(len(tr.Generations), "generation")), true
	}
	m := *best.Model
	m.Game = cfg.Definition.Name
	err := recordRules(&m, cfg)
	if err != nil {
		return nil, nil, err
	}
	tr.Games, tr.Positions, tr.HeldOut, tr.NotQuiet = best.Games, best.Train+best.HeldOut, best.HeldOut, best.NotQuiet
	tr.Iterations, tr.Learned, tr.Hand, tr.Constant, tr.Reliability, tr.Intervals = best.Iterations, best.Learned, best.Hand, best.Constant, best.Reliability, best.Intervals
	tr.VersusHand = best.VersusHand
	if m.Training, err = json.Marshal(tr.withoutDecileIntervals()); err != nil {
		return nil, nil, err
	}
	fit := *best
	fit.Model = &m
	if finished {
		if err := s.keep.finish(); err != nil {
			return nil, nil, err
		}
	}
	return &fit, tr, nil
}

// generation plays generation k: the games of players (who they are, for
// the record), the fit on their positions and, when generations are
// compared and the fit is not already refused, the head-to-head of its
// model's bots against players.
func (s *Session) generation(ctx context.Context, k int, players [2]bots.Spec, who string, best *Fit) (entry, error) {
	job := *s.job
	job.Players = players
	d, err := Collect(ctx, job, s.opts.Workers, s.opts.OnGame)
	if err != nil {
		return entry{}, err
	}
	fit, err := Learn(d, s.hand, s.opts.L2)
	if err != nil {
		return entry{}, err
	}
	if s.opts.Bootstrap > 0 {
		if fit.Intervals, err = Bootstrap(ctx, d, fit, s.opts.L2, s.opts.Bootstrap, s.cfg.Seed^uint64(k)); err != nil {
			return entry{}, err
		}
	}
	e := entry{Fit: fit, Games: d.Games, Generation: Generation{Index: k, Bots: who, Positions: fit.Train + fit.HeldOut, HeldOut: fit.HeldOut, Learned: fit.Learned, Hand: fit.Hand, Constant: fit.Constant}}
	if _, stopped := s.judge(k, &e, best); stopped != "" {
		return e, nil // refused before its head-to-head
	}
	learned, _ := withModel(players, fit.Model, generationName(k))
	h, err := headToHead(ctx, *s.job, learned, players, s.opts, k)
	if err != nil {
		return entry{}, err
	}
	e.Generation.HeadToHead = h
	e.Games += h.Games
	return e, nil
}

// judge says what generation k's entry means after best, the last kept
// generation's fit: whether it is kept, and why the run stops after it
// ("" to go on). Before its head-to-head is played it judges only what
// needs none.
func (s *Session) judge(k int, e *entry, best *Fit) (kept bool, stopped string) {
	fit, h := e.Fit, e.Generation.HeadToHead
	switch _, canPlay := withModel(s.job.Players, fit.Model, generationName(k)); {
	case best != nil && !(fit.Learned.LogLoss < best.Learned.LogLoss):
		return false, fmt.Sprintf("generation %d's held-out log-loss (%.4f) did not improve on generation %d's (%.4f)", k, fit.Learned.LogLoss, k-1, best.Learned.LogLoss)
	case s.opts.Generations == 1:
		return true, "one generation, as asked (--generations 2 or more plays each against the evaluation before)"
	case !canPlay:
		return true, "the variant's bots cannot play a learned model (alphabeta, mcts, ismcts and greedy can; random cannot): one generation"
	case h == nil:
		return false, "" // its head-to-head decides
	case best != nil && !h.Beats:
		return false, fmt.Sprintf("generation %d's bots are not shown stronger than generation %d's (%.1f%% [%.1f, %.1f] over %d games)", k, k-1, 100*h.Score, 100*h.Low, 100*h.High, h.Games)
	case k == 1 && !h.Beats:
		return true, fmt.Sprintf("generation 1's bots are not shown stronger than the hand heuristic's (%.1f%% [%.1f, %.1f] over %d games): its model is kept for its calibration", 100*h.Score, 100*h.Low, 100*h.High, h.Games)
	}
	return true, ""
}

// generationName is the name generation k's model is shown by.
func generationName(k int) string { return fmt.Sprintf("(generation %d)", k) }

// withModel gives each player the model m, shown as name, when every
// player's bot can play one.
func withModel(players [2]bots.Spec, m *model.Model, name string) ([2]bots.Spec, bool) {
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		return players, false
	}
	sum := sha256.Sum256(b.Bytes())
	var out [2]bots.Spec
	for i, p := range players {
		var ok bool
		if out[i], ok = p.WithModel(m, name, hex.EncodeToString(sum[:])); !ok {
			return players, false
		}
	}
	return out, true
}

// headToHead plays the new players' seat-0 bot against the old players'
// (seat-swapped pairs, on a seed of the generation's own) and returns the
// new one's score.
func headToHead(ctx context.Context, job sim.Job, newer, older [2]bots.Spec, opts Options, k int) (*HeadToHead, error) {
	job.Players = [2]bots.Spec{newer[0], older[0]}
	job.Pairs = true
	job.Games = cmp.Or(opts.HeadToHead, job.Games)
	job.Games += job.Games % 2
	job.Seed ^= uint64(k) * 0x9e3779b97f4a7c15
	var pairs stats.PairSeries
	var failed error
	err := sim.Run(ctx, &job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if opts.OnGame != nil {
			opts.OnGame()
		}
		if r.Err != nil {
			failed = cmp.Or(failed, error(r.Err))
			return
		}
		// Player 0 (the newer bot) sits in seat 0, or seat 1 when swapped.
		seat := games.Seat0
		if r.Swapped {
			seat = games.Seat1
		}
		pairs.Add(r.Index, r.Result.ScoreFor(seat))
	})
	if err = cmp.Or(err, failed); err != nil {
		return nil, err
	}
	ps := pairs.Score(stats.Z95)
	return &HeadToHead{Games: job.Games, Score: ps.Score, Low: ps.CI.Low, High: ps.CI.High, Beats: ps.CI.Low > 0.5}, nil
}

// WriteText prints the learned model: how it predicts held-out deals
// against the hand heuristic and the constant, its reliability, and the
// weights that matter most.
func WriteText(w io.Writer, m *model.Model, tr *Training) error {
	fmt.Fprintf(w, "%s: a model of %d features from %s positions of %s games (%s; seed %d), %s of them held out (one deal in %d)\n",
		tr.Variant, len(m.Features), bots.Thousands(tr.Positions), bots.Thousands(tr.Games), tr.Bots, tr.Seed, bots.Thousands(tr.HeldOut), HeldEvery)
	if tr.NotQuiet > 0 {
		fmt.Fprintf(w, "%s positions left out as not quiet (a forcing move pending)\n", bots.Thousands(tr.NotQuiet))
	}
	for _, table := range []func() ([]string, [][]string){
		func() ([]string, [][]string) { return scoreRows(tr) },
		func() ([]string, [][]string) { return reliabilityRows(tr.Reliability) },
		func() ([]string, [][]string) { return weightRows(m, tr) },
		func() ([]string, [][]string) { return generationRows(tr) },
	} {
		if header, rows := table(); rows != nil {
			if err := reports.WriteStringTable(w, header, rows); err != nil {
				return err
			}
		}
	}
	if tr.Bootstrap > 0 {
		fmt.Fprintf(w, "Weight intervals: percentiles over %d refits on the training deals resampled whole.\n", tr.Bootstrap)
	}
	if err := writeChoice(w, tr.Choice, handHeadToHead(tr)); err != nil {
		return err
	}
	fmt.Fprintf(w, "Stopped: %s.\n", tr.Stopped)
	fmt.Fprintln(w, Verdict(tr))
	_, err := fmt.Fprintf(w, "The hand heuristic's best logistic is σ(%.4g × hand + b): the learned logit divided by %.4g is in the hand heuristic's units. These are the bots' positions and results: a model of how %s play.\n",
		m.HandScale, m.HandScale, tr.Bots)
	return err
}

// Calibration thresholds of Verdict: a decile of at least MinDecile
// held-out positions is calibrated when its observed rate is within
// CalibrationPoints of the predicted one (the ends included).
const (
	MinDecile         = 100
	CalibrationPoints = 0.05
)

// Verdict says in a sentence whether the learned model is worth using:
// whether it predicts the held-out deals better than the hand heuristic
// (the log-loss difference's 95% interval below zero), and whether every
// decile of at least MinDecile positions is within ±5 points of what it
// predicts (naming the worst that is not, with its interval clustered by
// deal: a decile whose interval holds 0 is not shown off, and the advice
// then does not call the chances off).
func Verdict(tr *Training) string {
	d := tr.VersusHand
	compared := fmt.Sprintf("held-out log-loss %.4f against the hand heuristic's %.4f, a difference of %+.4f [%+.4f, %+.4f] over %d held-out deals",
		tr.Learned.LogLoss, tr.Hand.LogLoss, d.Mean, d.Low, d.High, d.Deals)
	better := false
	var first string
	switch {
	case d.Deals < 10:
		first = fmt.Sprintf("Too few held-out deals (%d) to tell whether the model predicts better than the hand heuristic: play more games", d.Deals)
	case tr.Constant.Brier == 0:
		// Every held-out game ended as the training games did on average:
		// all draws, say, where perfect play draws and the bots play it.
		return "Every held-out game ended alike (the constant predicts each result exactly), so the results say nothing of who stands better and no evaluation can be learned from them: keep the hand heuristic (eval: hand), or learn from games that are decided (bots with more variety, or a variant whose games are)."
	case d.High < 0:
		better = true
		first = "It predicts the held-out games better than the hand heuristic (" + compared + ")"
	case d.Low > 0:
		first = "It predicts the held-out games worse than the hand heuristic (" + compared + ")"
	default:
		first = "It is not shown to predict the held-out games better than the hand heuristic (" + compared + ")"
	}
	second, offShown := calibration(tr.Reliability)
	offChances := "its chances, which How it plays reads, are off."
	advice := "Worth using (eval: learned)."
	switch {
	case d.Deals >= 10 && d.Low > 0:
		advice = "Keep the hand heuristic (eval: hand), or learn from more games."
	case !better:
		// Prediction does not settle play: Stacktics 3 × 5's model of
		// 1,000 games, not shown to predict better, beat the hand
		// heuristic's bots by 157 Elo (docs/learn.md).
		advice = "Prediction does not settle play: a search may still play it better or worse than the hand heuristic. Compare them by play before choosing (--generations 2 plays generation 1 against the hand heuristic; playtest tournament), or learn from more games."
	case offShown:
		advice = "It ranks positions better, so a search may use it; " + offChances
	}
	if h := handHeadToHead(tr); h != nil {
		played := fmt.Sprintf("Head to head, generation 1's bots score %.1f%% [%.1f, %.1f] over %s games against the hand heuristic's", 100*h.Score, 100*h.Low, 100*h.High, bots.Thousands(h.Games))
		switch {
		case h.Beats:
			advice = played + ": worth using (eval: learned)."
			if offShown {
				advice = played + ": a search plays it better; " + offChances
			}
		case h.High < 0.5:
			advice = played + ": keep the hand heuristic (eval: hand)."
		default:
			advice = played + ": not shown stronger; keep the hand heuristic (eval: hand) unless a longer head-to-head shows it."
		}
	}
	return first + "; " + second + ". " + advice
}

// calibration says in a clause whether every decile of at least
// MinDecile positions is within ±5 points of what it predicts, naming the
// worst that is not (preferring one whose interval leaves 0 out to one
// within its noise), and whether that one is shown off.
func calibration(bins []Bin) (clause string, offShown bool) {
	// The worst decile off by more than ±5 points, preferring one whose
	// interval shows it off (leaves 0 out) to one within its noise.
	worst, worstOff, judged := -1, 0.0, 0
	for i, b := range bins {
		if b.N < MinDecile {
			continue
		}
		judged++
		// In points to one decimal, as the sentence writes it: a decile
		// written "5.0 points" off is within ±5.
		off := math.Round(1000*b.Gap()) / 10
		if math.Abs(off) <= 100*CalibrationPoints {
			continue
		}
		if worst < 0 || b.ShownOff() && !bins[worst].ShownOff() ||
			b.ShownOff() == bins[worst].ShownOff() && math.Abs(off) > math.Abs(worstOff) {
			worst, worstOff = i, off
		}
	}
	offShown = worst >= 0 && bins[worst].ShownOff()
	switch {
	case judged == 0:
		clause = fmt.Sprintf("no decile holds %d held-out positions, so its calibration is not judged", MinDecile)
	case worst < 0:
		clause = fmt.Sprintf("every decile of at least %d positions is within ±%.0f points of what it predicts", MinDecile, 100*CalibrationPoints)
	default:
		b := bins[worst]
		seen := fmt.Sprintf("the %.0f–%.0f%% decile (%s positions) predicts %.1f%% and sees %.1f%%, %+.1f points",
			100*b.Low, 100*b.High, bots.Thousands(b.N), 100*b.Predicted, 100*b.Observed, worstOff)
		if b.Deals > 0 {
			seen += fmt.Sprintf(" [%+.1f, %+.1f] over %s held-out deals", 100*b.GapLow, 100*b.GapHigh, bots.Thousands(b.Deals))
		}
		clause = "its chances are not calibrated: " + seen
		if !offShown {
			clause = "its calibration is not shown off: " + seen + ", an interval that holds 0 (more games would tell)"
		}
	}
	return clause, offShown
}

// handHeadToHead is generation 1's head-to-head, its bots against the
// hand heuristic's (nil when none was played: one generation, or bots
// that cannot play a model). Play, where measured, judges the advice;
// each later generation kept beat the one before it.
func handHeadToHead(tr *Training) *HeadToHead {
	if len(tr.Generations) == 0 || tr.Generations[0].Index != 1 {
		return nil
	}
	return tr.Generations[0].HeadToHead
}

// scoreRows are the table of the predictors' held-out figures.
func scoreRows(tr *Training) ([]string, [][]string) {
	var rows [][]string
	for _, p := range []struct {
		name string
		s    Scores
	}{{"learned model", tr.Learned}, {"hand heuristic, best logistic", tr.Hand}, {"constant (the training mean)", tr.Constant}} {
		rows = append(rows, []string{p.name, fmt.Sprintf("%.4f", p.s.LogLoss), fmt.Sprintf("%.4f", p.s.Brier)})
	}
	return []string{"predictor (held out)", "log-loss", "Brier"}, rows
}

// reliabilityRows are the reliability table: each decile holding a
// held-out position, its mean prediction and mean result, and the
// result less the prediction with its interval over the deals (a table
// without intervals, read back from before them, shows none).
func reliabilityRows(bins []Bin) ([]string, [][]string) {
	var rows [][]string
	for _, b := range bins {
		if b.N > 0 {
			gap, deals := fmt.Sprintf("%+.1f", 100*b.Gap()), "—"
			if b.Deals > 0 {
				gap += fmt.Sprintf(" [%+.1f, %+.1f]", 100*b.GapLow, 100*b.GapHigh)
				deals = bots.Thousands(b.Deals)
			}
			rows = append(rows, []string{fmt.Sprintf("%.0f–%.0f%%", 100*b.Low, 100*b.High), bots.Thousands(b.N), deals, reports.FormatPercent(b.Predicted), reports.FormatPercent(b.Observed), gap})
		}
	}
	return []string{"predicted", "positions", "deals", "mean predicted", "mean result", "result less prediction, points (95%)"}, rows
}

// generationRows are the generations table, no rows for a run of one
// generation without a head-to-head.
func generationRows(tr *Training) ([]string, [][]string) {
	header := []string{"generation", "learned from", "positions", "held-out log-loss", "against the generation before (95% CI)"}
	if len(tr.Generations) == 1 && tr.Generations[0].HeadToHead == nil {
		return header, nil
	}
	var rows [][]string
	for _, g := range tr.Generations {
		h2h := "—"
		if h := g.HeadToHead; h != nil {
			h2h = fmt.Sprintf("%s (%s) over %s games", reports.FormatPercent(h.Score), reports.FormatInterval(h.Low, h.High), bots.Thousands(h.Games))
		}
		rows = append(rows, []string{fmt.Sprint(g.Index), g.Bots, bots.Thousands(g.Positions), fmt.Sprintf("%.4f", g.Learned.LogLoss), h2h})
	}
	return header, rows
}

// weightRows are the weights table: each feature's weight in logits (with
// its bootstrap interval when there is one) and in hand units, the bias
// last.
func weightRows(m *model.Model, tr *Training) ([]string, [][]string) {
	header := []string{"feature", "weight (logit)", "in hand units"}
	if len(tr.Intervals) == len(m.Weights)+1 {
		header = []string{"feature", "weight (logit)", "95% (bootstrap)", "in hand units"}
	}
	row := func(name string, v float64, j int) []string {
		r := []string{name, fmt.Sprintf("%+.4f", v)}
		if len(header) == 4 {
			r = append(r, fmt.Sprintf("%+.3f to %+.3f", tr.Intervals[j].Low, tr.Intervals[j].High))
		}
		return append(r, fmt.Sprintf("%+.4f", v/m.HandScale))
	}
	var rows [][]string
	for i, name := range m.Features {
		rows = append(rows, row(name, m.Weights[i], i+1))
	}
	return header, append(rows, row("(bias)", m.Bias, 0))
}

// Files a learn --out directory holds beside model.json.
const (
	MarkdownFile    = "learn.md"
	HTMLFile        = "learn.html"
	ReliabilityPlot = "reliability"
)

// WriteMarkdown writes the learned model as a page: how it predicts
// held-out deals, its reliability (with the plot when figure), its
// generations and its weights.
func WriteMarkdown(w io.Writer, m *model.Model, tr *Training, figure bool) error {
	esc := reports.MarkdownEscape
	fmt.Fprintf(w, "# playtest learn: %s (%s)\n\n", esc(tr.Variant), esc(m.Game))
	fmt.Fprintf(w, "A model of %d features from %s positions of %s games (%s; seed %d), %s of them held out (one deal in %d); %s.\n\n",
		len(m.Features), bots.Thousands(tr.Positions), bots.Thousands(tr.Games), esc(tr.Bots), tr.Seed, bots.Thousands(tr.HeldOut), HeldEvery, esc(tr.Stopped))
	fmt.Fprintf(w, "**%s**\n\n", esc(Verdict(tr)))
	header, rows := scoreRows(tr)
	if err := reports.WriteMarkdownTable(w, header, rows); err != nil {
		return err
	}
	fmt.Fprint(w, "\n## Reliability\n\n")
	if figure {
		fmt.Fprintf(w, "![each decile's mean result against its mean prediction](plots/%s.svg)\n\n", ReliabilityPlot)
	}
	header, rows = reliabilityRows(tr.Reliability)
	if err := reports.WriteMarkdownTable(w, header, rows); err != nil {
		return err
	}
	fmt.Fprint(w, "\nThe positions of one deal share its result, so each interval counts a deal as one unit (clustered by deal), not its positions one by one.\n")
	if header, rows := generationRows(tr); rows != nil {
		fmt.Fprint(w, "\n## Generations\n\n")
		if err := reports.WriteMarkdownTable(w, header, rows); err != nil {
			return err
		}
	}
	if c := tr.Choice; c != nil {
		fmt.Fprint(w, "\n## Chosen by play\n\n")
		header, rows := choiceRows(c)
		if err := reports.WriteMarkdownTable(w, header, rows); err != nil {
			return err
		}
		fmt.Fprintf(w, "\n%s\n", esc(choiceWords(c, handHeadToHead(tr))))
	}
	fmt.Fprint(w, "\n## Weights\n\n")
	header, rows = weightRows(m, tr)
	if err := reports.WriteMarkdownTable(w, header, rows); err != nil {
		return err
	}
	if tr.Bootstrap > 0 {
		fmt.Fprintf(w, "\nThe intervals are percentile intervals over %d refits on the training deals resampled whole (a game's positions share its result).\n", tr.Bootstrap)
	}
	fmt.Fprintf(w, "\nThe hand heuristic's best logistic is σ(%.4g × hand + b): the learned logit divided by %.4g is in the hand heuristic's units. These are the bots' positions and results: a model of how they play.\n", m.HandScale, m.HandScale)
	return reports.WriteMarkdownFooter(w)
}

// WriteDir writes the model to dir/model.json and its page (learn.md,
// learn.html, plots/reliability.svg and .png), each atomically.
func WriteDir(dir string, m *model.Model, tr *Training) error {
	if err := WriteModel(dir, m); err != nil {
		return err
	}
	var predicted []float64
	var observed []reports.MetricEstimate
	for _, b := range tr.Reliability {
		iv := stats.WilsonMean(b.Observed, b.N, stats.Z95) // a table without intervals
		if b.Deals > 0 {
			iv.Low, iv.High = min(max(b.Predicted+b.GapLow, 0), 1), min(max(b.Predicted+b.GapHigh, 0), 1)
		}
		predicted = append(predicted, b.Predicted)
		observed = append(observed, reports.MetricEstimate{Value: b.Observed, Low: iv.Low, High: iv.High, N: b.N})
	}
	p, err := plots.Reliability(fmt.Sprintf("%s: held-out reliability, %s positions", tr.Variant, bots.Thousands(tr.HeldOut)), predicted, observed)
	if err != nil {
		return err
	}
	if err := reports.MkdirBelow(dir, filepath.Join(dir, "plots")); err != nil {
		return err
	}
	if err := plots.Save(filepath.Join(dir, "plots"), plots.Figure{Name: ReliabilityPlot, Plot: p}); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, m, tr, true); err != nil {
		return err
	}
	if err := reports.WriteFileAtomic(filepath.Join(dir, MarkdownFile), func(w io.Writer) error { _, err := w.Write(md.Bytes()); return err }); err != nil {
		return err
	}
	return reports.WriteFileAtomic(filepath.Join(dir, HTMLFile), func(w io.Writer) error {
		return publish.WriteMarkdownPage(w, "playtest learn: "+tr.Variant, dir, md.Bytes())
	})
}

// recordRules stamps m with the variant's game and rules, by hash and in
// full: a model of any kind says what it was learned under, so that a run
// under other rules can name the knobs that differ (the model-rules
// warning) and model_strict can refuse it.
func recordRules(m *model.Model, cfg *variants.Config) error {
	m.RulesHash = model.RulesHash(cfg.Definition.Name, cfg.Rules)
	b, err := json.Marshal(cfg.Rules)
	m.Rules = b
	return err
}
