package learn

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/sim/bots"
	"playtest/sim/model"
	"playtest/studies/tournament"
	"playtest/variants"
)

// MaxCandidates bounds the candidates of a choice by play (ChooseFit,
// ChooseLogistic).
const MaxCandidates = 16

// chooseSeed sets a choice's round robin apart from the fits' games and
// from the head-to-head that confirms the choice.
const chooseSeed = 0x63686f6f7365 // "choose"

// Choice is a choice among fits by play (ChooseFit, ChooseLogistic):
// every candidate fitted to the games (and a network's tuples) of its own
// seed, a round robin of their bots and the anchor's, and the best-rated
// candidate kept.
type Choice struct {
	// Games is each pairing's games in the round robin, Seed its seed.
	Games int    `json:"games_per_pairing"`
	Seed  uint64 `json:"seed"`
	// Anchor names entrant 0, the bots the candidates are rated against
	// (at Elo 0) and the confirmation plays.
	Anchor string `json:"anchor"`
	// Candidates are the fits in the order fitted; Chosen indexes the one
	// kept.
	Candidates []Candidate `json:"candidates"`
	Chosen     int         `json:"chosen"`
	// Different is the fewest different games of a pairing (the
	// repeated-games count: a pairing whose games repeat rates its
	// entrants on fewer games than it played).
	Different int `json:"fewest_different_games"`
	// Repeated is the round robin's repeated-games warning
	// (tournament.Result.RepetitionNote; "" when every pairing's games
	// vary): its ratings then describe a few lines of play.
	Repeated string `json:"repeated_games,omitempty"`
}

// Candidate is one fit of a Choice.
type Candidate struct {
	// Seed is its FitOptions.Seed: its games, its tuples and the order of
	// its passes.
	Seed uint64 `json:"seed"`
	// LogLoss is its held-out log-loss, VersusBase that less its base's
	// (a network's base model; the hand heuristic's for a logistic model).
	LogLoss    float64    `json:"log_loss"`
	VersusBase Difference `json:"versus_base"`
	// Elo is its Bradley-Terry rating in the round robin, the anchor at
	// 0, and Score its score against the anchor there.
	Elo   tournament.Rating `json:"elo"`
	Score float64           `json:"score"`
}

// ChooseFit fits n candidates (FitNTuple with opts.Seed, opts.Seed+1, …:
// each its own games, tuples and order, so the spread between fits of one
// recipe shows), plays a round robin of their bots and the bots' own
// (opts.HeadToHead games a pairing, on a seed apart from every fit's
// games), and keeps the best-rated candidate. The best of n ratings
// flatters the one it picks (the winner's curse), so the kept model's
// head-to-head against the bots' own is played again, as a single fit's
// is, on the seed of FitNTuple's own head-to-head: that is the figure to
// quote. n = 1 is FitNTuple.
func ChooseFit(ctx context.Context, cfg *variants.Config, opts FitOptions, n int) (*model.Model, *FitTraining, error) {
	switch err := checkCandidates(n, opts.HeadToHead); {
	case err != nil:
		return nil, nil, err
	case n == 1:
		return FitNTuple(ctx, cfg, opts)
	}
	began := time.Now()
	models := make([]*model.Model, n)
	trainings := make([]*FitTraining, n)
	var cands []Candidate
	for i := range n {
		o := opts
		o.Seed, o.HeadToHead = opts.Seed+uint64(i), 0
		said := candidateName(i, n)
		if opts.OnStage != nil {
			o.OnStage = func(stage, unit string, total int) { opts.OnStage(said+": "+stage, unit, total) }
			if i > 0 {
				opts.OnStage(said, "games", o.Games)
			}
		}
		m, tr, err := FitNTuple(ctx, cfg, o)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", said, err)
		}
		models[i], trainings[i] = m, tr
		cands = append(cands, Candidate{Seed: o.Seed, LogLoss: tr.Learned.LogLoss, VersusBase: tr.VersusBase})
	}
	choice, err := chooseByPlay(ctx, cfg, cfg.Players, "the bots' own model", models, cands, opts.HeadToHead, opts.Workers, opts.OnGame, opts.OnStage)
	if err != nil {
		return nil, nil, err
	}
	m, tr := models[choice.Chosen], trainings[choice.Chosen]
	if opts.OnStage != nil {
		opts.OnStage(fmt.Sprintf("confirming candidate %d", choice.Chosen+1), "games", choice.Games)
	}
	if tr.HeadToHead, err = fitHeadToHead(ctx, cfg, m, opts); err != nil {
		return nil, nil, err
	}
	tr.Choice = choice
	tr.Seconds = time.Since(began).Seconds()
	return m, tr, nil
}

// checkCandidates checks a choice among n fits, with games a pairing.
func checkCandidates(n, games int) error {
	switch {
	case n < 1 || n > MaxCandidates:
		return fmt.Errorf("%d candidates: want 1 to %d", n, MaxCandidates)
	case n > 1 && games < 2:
		return fmt.Errorf("a choice among %d fits is made by play: it needs head-to-head games (2 or more a pairing)", n)
	}
	return nil
}

// candidateName is the i-th of n candidates' name.
func candidateName(i, n int) string { return fmt.Sprintf("candidate %d of %d", i+1, n) }

// chooseByPlay plays a round robin on cfg of anchor's bots (players,
// entrant 0, at Elo 0) and players playing each candidate model, games a
// pairing (rounded up to seat-swapped pairs) on a seed apart from the
// fits' games and the confirmation's, and returns the choice: cands
// with their ratings and scores, the best rated chosen.
func chooseByPlay(ctx context.Context, cfg *variants.Config, players [2]bots.Spec, anchor string, models []*model.Model, cands []Candidate, games, workers int, onGame func(), onStage func(stage, unit string, total int)) (*Choice, error) {
	games += games % 2
	choice := &Choice{Games: games, Seed: cfg.Seed ^ chooseSeed, Anchor: anchor, Candidates: cands}
	entrants := []tournament.Entrant{{Label: anchor, Spec: players[0]}}
	for i, m := range models {
		p, ok := withModel(players, m, "("+candidateName(i, len(models))+")")
		if !ok {
			return nil, fmt.Errorf("%s's bots cannot play a learned model: a choice by play needs bots that can", cfg.Label())
		}
		entrants = append(entrants, tournament.Entrant{Label: fmt.Sprintf("candidate %d (seed %d)", i+1, cands[i].Seed), Spec: p[0]})
	}
	rr := *cfg
	rr.Games, rr.Seed = games, choice.Seed
	if onStage != nil {
		onStage("round robin", "games", games*tournament.Pairings(len(entrants)))
	}
	res, err := tournament.Run(ctx, &rr, entrants, tournament.Options{Workers: workers, OnGame: onGame})
	if err != nil {
		return nil, err
	}
	choice.Different, choice.Repeated = games, res.RepetitionNote()
	for _, p := range res.Pairings {
		if p.Repetition != nil {
			choice.Different = min(choice.Different, p.Repetition.Distinct)
		}
		if p.A == 0 {
			choice.Candidates[p.B-1].Score = 1 - p.Score.Score
		}
	}
	for i := range choice.Candidates {
		choice.Candidates[i].Elo = res.Ratings[i+1]
		if res.Ratings[i+1].Elo > res.Ratings[choice.Chosen+1].Elo {
			choice.Chosen = i
		}
	}
	return choice, nil
}

// fitHeadToHead plays a fitted model's bots against the bots that played
// its games, opts.HeadToHead games at their budget on the variant's seeds
// (nil where the bots cannot play the model).
func fitHeadToHead(ctx context.Context, cfg *variants.Config, m *model.Model, opts FitOptions) (*HeadToHead, error) {
	fitted, ok := withModel(cfg.Players, m, generationName(1))
	if !ok {
		return nil, nil
	}
	judged, err := rundir.Job(cfg)
	if err != nil {
		return nil, err
	}
	return headToHead(ctx, *judged, fitted, cfg.Players, Options{Workers: opts.Workers, HeadToHead: opts.HeadToHead, OnGame: opts.OnGame}, 1)
}

// WriteChoice writes the choice that kept the fit (nothing without one).
func (tr *FitTraining) WriteChoice(w io.Writer) error {
	return writeChoice(w, tr.Choice, tr.HeadToHead)
}

// writeChoice writes a choice's candidates (nothing without one): each
// one's seed, held-out log-loss, rating and score in the round robin, the
// chosen one marked, and what its confirmation h says.
func writeChoice(w io.Writer, c *Choice, h *HeadToHead) error {
	if c == nil {
		return nil
	}
	header, rows := choiceRows(c)
	if err := reports.WriteStringTable(w, header, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, choiceWords(c, h))
	return err
}

// choiceRows are the table of a choice's candidates.
func choiceRows(c *Choice) ([]string, [][]string) {
	rows := make([][]string, len(c.Candidates))
	for i, k := range c.Candidates {
		chosen := ""
		if i == c.Chosen {
			chosen = "chosen"
		}
		rows[i] = []string{fmt.Sprint(i + 1), fmt.Sprint(k.Seed), fmt.Sprintf("%.4f (%+.4f)", k.LogLoss, k.VersusBase.Mean),
			fmt.Sprintf("%+.0f [%+.0f, %+.0f]", k.Elo.Elo, k.Elo.Low, k.Elo.High), fmt.Sprintf("%.1f%%", 100*k.Score), chosen}
	}
	return []string{"candidate", "seed", "held-out log-loss (less the base's)", "Elo over " + c.Anchor, "score against it", ""}, rows
}

// choiceWords says which candidate a choice kept and what its
// confirmation h shows.
func choiceWords(c *Choice, h *HeadToHead) string {
	said := fmt.Sprintf("Chosen by play: candidate %d, the best rated in a round robin of %d games a pairing (at least %d different games in each).", c.Chosen+1, c.Games, c.Different)
	if h != nil {
		said += fmt.Sprintf(" The best of %d ratings flatters the one it picks, so its head-to-head was played again on a seed of its own: %.1f%% [%.1f, %.1f] over %d games against %s, %s.",
			len(c.Candidates), 100*h.Score, 100*h.Low, 100*h.High, h.Games, c.Anchor, confirmationWords(h))
	}
	if c.Repeated != "" {
		said += fmt.Sprintf(" Warning (repeated-games) in the round robin, where #1 is %s and #k+1 candidate k: %s", c.Anchor, c.Repeated)
	}
	return said
}

// confirmationWords says what a chosen candidate's confirming
// head-to-head shows.
func confirmationWords(h *HeadToHead) string {
	switch {
	case h.Low > 0.5:
		return "shown stronger"
	case h.High < 0.5:
		return "shown weaker"
	}
	return "not shown stronger (the interval holds 50%)"
}

// ChooseLogistic learns n logistic models (Run, one generation each:
// candidate i from the games of cfg's bots on the hand heuristic on seed
// cfg.Seed+i), plays a round robin of the hand heuristic's bots and the
// same bots playing each candidate (opts.HeadToHead games a pairing, the
// variant's games if 0), keeps the best rated, and plays its head-to-head
// against the hand heuristic's bots again on a seed of its own: recorded
// as generation 1's head-to-head, which the verdict reads. The best of n
// ratings flatters the one it picks; the confirmation does not. n = 1 is
// Run.
func ChooseLogistic(ctx context.Context, cfg *variants.Config, opts Options, n int) (*Fit, *Training, error) {
	games := cmp.Or(opts.HeadToHead, cfg.Games)
	switch err := checkCandidates(n, games); {
	case err != nil:
		return nil, nil, err
	case n == 1:
		return Run(ctx, cfg, opts)
	case opts.Generations > 1 || opts.Out != "" || opts.Budget > 0 || opts.MaxTime > 0:
		return nil, nil, fmt.Errorf("a choice among %d fits learns one generation of each, in one go: no generations, study directory, budget or time cap", n)
	}
	fits := make([]*Fit, n)
	trainings := make([]*Training, n)
	models := make([]*model.Model, n)
	var cands []Candidate
	for i := range n {
		c := *cfg
		c.Seed = cfg.Seed + uint64(i)
		fit, tr, err := Run(ctx, &c, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", candidateName(i, n), err)
		}
		fits[i], trainings[i], models[i] = fit, tr, fit.Model
		cands = append(cands, Candidate{Seed: c.Seed, LogLoss: tr.Learned.LogLoss, VersusBase: tr.VersusHand})
	}
	hand := [2]bots.Spec{cfg.Players[0].WithHand(), cfg.Players[1].WithHand()}
	choice, err := chooseByPlay(ctx, cfg, hand, "the hand heuristic's bots", models, cands, games, opts.Workers, opts.OnGame, nil)
	if err != nil {
		return nil, nil, err
	}
	fit, tr := fits[choice.Chosen], trainings[choice.Chosen]
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, nil, err
	}
	job.Trace = 0
	learned, _ := withModel(hand, fit.Model, generationName(1))
	o := opts
	o.HeadToHead = choice.Games
	h, err := headToHead(ctx, *job, learned, hand, o, 1)
	if err != nil {
		return nil, nil, err
	}
	tr.Generations[0].HeadToHead, tr.Choice = h, choice
	tr.Stopped = fmt.Sprintf("one generation of each of %d candidates, the best by play kept", n)
	if fit.Model.Training, err = json.Marshal(tr.withoutDecileIntervals()); err != nil {
		return nil, nil, err
	}
	return fit, tr, nil
}

// ChoicePlanned is the games ChooseLogistic plays for n candidates of cfg:
// each one's, the round robin's and the confirmation's.
func ChoicePlanned(cfg *variants.Config, opts Options, n int) int {
	games := cmp.Or(opts.HeadToHead, cfg.Games)
	games += games % 2
	return n*cfg.Games + (tournament.Pairings(n+1)+1)*games
}
