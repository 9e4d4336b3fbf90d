package learn

import (
	"context"
	"fmt"
	"io"
	"time"

	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/sim/model"
	"playtest/studies/tournament"
	"playtest/variants"
)

// MaxCandidates bounds ChooseFit's candidates.
const MaxCandidates = 16

// chooseSeed sets a choice's round robin apart from the fits' games and
// from the head-to-head that confirms the choice.
const chooseSeed = 0x63686f6f7365 // "choose"

// Choice is a choice among fits by play (ChooseFit): every candidate
// fitted to games and tuples of its own seed, a round robin of their bots
// and the bots' own, and the best-rated candidate kept.
type Choice struct {
	// Games is each pairing's games in the round robin, Seed its seed.
	Games int    `json:"games_per_pairing"`
	Seed  uint64 `json:"seed"`
	// Candidates are the fits in the order fitted; Chosen indexes the one
	// kept.
	Candidates []Candidate `json:"candidates"`
	Chosen     int         `json:"chosen"`
	// Different is the fewest different games of a pairing (the
	// repeated-games count: a pairing whose games repeat rates its
	// entrants on fewer games than it played).
	Different int `json:"fewest_different_games"`
}

// Candidate is one fit of a Choice.
type Candidate struct {
	// Seed is its FitOptions.Seed: its games, its tuples and the order of
	// its passes.
	Seed uint64 `json:"seed"`
	// LogLoss is its held-out log-loss, VersusBase that less its base's.
	LogLoss    float64    `json:"log_loss"`
	VersusBase Difference `json:"versus_base"`
	// Elo is its Bradley-Terry rating in the round robin, the bots' own
	// model at 0, and Score its score against the bots' own there.
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
	if n < 1 || n > MaxCandidates {
		return nil, nil, fmt.Errorf("%d candidates: want 1 to %d", n, MaxCandidates)
	}
	if n == 1 {
		return FitNTuple(ctx, cfg, opts)
	}
	if opts.HeadToHead < 2 {
		return nil, nil, fmt.Errorf("a choice among %d fits is made by play: it needs head-to-head games (2 or more a pairing)", n)
	}
	began := time.Now()
	games := opts.HeadToHead + opts.HeadToHead%2
	entrants := []tournament.Entrant{{Label: "the bots' own model", Spec: cfg.Players[0]}}
	models := make([]*model.Model, n)
	trainings := make([]*FitTraining, n)
	choice := &Choice{Games: games, Seed: cfg.Seed ^ chooseSeed}
	for i := range n {
		o := opts
		o.Seed, o.HeadToHead = opts.Seed+uint64(i), 0
		said := fmt.Sprintf("candidate %d of %d", i+1, n)
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
		players, ok := withModel(cfg.Players, m, "("+said+")")
		if !ok {
			return nil, nil, fmt.Errorf("%s's bots cannot play a learned model: a choice by play needs bots that can", cfg.Label())
		}
		models[i], trainings[i] = m, tr
		entrants = append(entrants, tournament.Entrant{Label: fmt.Sprintf("candidate %d (seed %d)", i+1, o.Seed), Spec: players[0]})
		choice.Candidates = append(choice.Candidates, Candidate{Seed: o.Seed, LogLoss: tr.Learned.LogLoss, VersusBase: tr.VersusBase})
	}
	rr := *cfg
	rr.Games, rr.Seed = games, choice.Seed
	if opts.OnStage != nil {
		opts.OnStage("round robin", "games", games*tournament.Pairings(len(entrants)))
	}
	res, err := tournament.Run(ctx, &rr, entrants, tournament.Options{Workers: opts.Workers, OnGame: opts.OnGame})
	if err != nil {
		return nil, nil, err
	}
	choice.Different = games
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
	m, tr := models[choice.Chosen], trainings[choice.Chosen]
	if opts.OnStage != nil {
		opts.OnStage("confirming candidate "+fmt.Sprint(choice.Chosen+1), "games", games)
	}
	if tr.HeadToHead, err = fitHeadToHead(ctx, cfg, m, opts); err != nil {
		return nil, nil, err
	}
	tr.Choice = choice
	tr.Seconds = time.Since(began).Seconds()
	return m, tr, nil
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

// WriteChoice writes a choice's candidates (nothing without one): each
// one's seed, held-out log-loss, rating and score in the round robin, the
// chosen one marked, and what its confirmation says.
func (tr *FitTraining) WriteChoice(w io.Writer) error {
	c := tr.Choice
	if c == nil {
		return nil
	}
	rows := make([][]string, len(c.Candidates))
	for i, k := range c.Candidates {
		chosen := ""
		if i == c.Chosen {
			chosen = "chosen"
		}
		rows[i] = []string{fmt.Sprint(i + 1), fmt.Sprint(k.Seed), fmt.Sprintf("%.4f (%+.4f)", k.LogLoss, k.VersusBase.Mean),
			fmt.Sprintf("%+.0f [%+.0f, %+.0f]", k.Elo.Elo, k.Elo.Low, k.Elo.High), fmt.Sprintf("%.1f%%", 100*k.Score), chosen}
	}
	if err := reports.WriteStringTable(w, []string{"candidate", "seed", "held-out log-loss (less the base's)", "Elo over the bots' own model", "score against it", ""}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "Chosen by play: candidate %d, the best rated in a round robin of %d games a pairing (seed %d; at least %d different games in each).", c.Chosen+1, c.Games, c.Seed, c.Different)
	if h := tr.HeadToHead; h != nil {
		fmt.Fprintf(w, " The best of %d ratings flatters the one it picks, so its head-to-head was played again on a seed of its own: %.1f%% [%.1f, %.1f] over %d games against the bots' own model, %s.",
			len(c.Candidates), 100*h.Score, 100*h.Low, 100*h.High, h.Games, confirmationWords(h))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// confirmationWords says what a chosen candidate's confirming
// head-to-head shows.
func confirmationWords(h *HeadToHead) string {
	switch {
	case h.Low > 0.5:
		return "shown stronger"
	case h.High < 0.5:
		return "shown weaker: keep the bots' own model"
	}
	return "not shown stronger (the interval holds 50%)"
}
