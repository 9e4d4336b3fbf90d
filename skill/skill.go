package skill

import (
	"context"
	"fmt"
	"math"
	"time"

	"playtest/experiment"
	"playtest/reports"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/variants"
)

// Schema is the schema tag of skill.json.
const Schema = "playtest/skill/v1"

// Verdicts of a ladder.
const (
	Converged = "converged"
	Drifting  = "drifting"
	Undecided = "undecided"
)

// Limits of the default ladder.
const (
	// Step is the budget ratio between rungs of the default ladder.
	Step = 4
	// MinBudget is the smallest budget of the default ladder.
	MinBudget = 10
	// MaxBudget bounds the default ladder's budgets.
	MaxBudget = 1_000_000
	// MaxRungs bounds the default ladder's length.
	MaxRungs = 8
	// DefaultMaxTime is the default ladder's time allowance.
	DefaultMaxTime = 10 * time.Minute
)

// Options tune a ladder.
type Options struct {
	// Budgets are the rungs' budgets, increasing; empty for the default
	// ladder: ×Step from the variant's budget / Step² (through the
	// variant's own budget) while the next rung is expected to fit in
	// MaxTime.
	Budgets []int
	// MaxTime is the default ladder's allowance (DefaultMaxTime if 0). It
	// decides only how many rungs the default ladder has; every rung's
	// results depend on the seed alone.
	MaxTime time.Duration
	Workers int
	// Started, if set, is told before each run: the rung, its budget and
	// whether it is the head-to-head against the rung below.
	Started func(rung, budget int, headToHead bool, games int)
	// OnGame, if set, sees every finished game.
	OnGame func()
}

// Rung is one budget of the ladder: self-play at that budget, and the
// head-to-head against the rung below.
type Rung struct {
	Budget int `json:"budget"`
	// Preset says the variant itself plays this budget.
	Preset bool `json:"preset,omitempty"`
	// Headline, rates and length of self-play at this budget.
	Headline reports.Headline `json:"headline"`
	reports.RatesAndLength
	Warnings []string `json:"warnings,omitempty"`
	// Gain is this rung's score against the rung below, on common seeds
	// in seat-swapped pairs (nil on the first rung).
	Gain *Gain `json:"gain,omitempty"`
	// Seconds is the wall time of the rung (self-play and head-to-head).
	Seconds float64 `json:"seconds"`
}

// Gain is the strength gained over the rung below.
type Gain struct {
	// Score is the stronger rung's score per game against the weaker,
	// over pairs, with its interval and Elo.
	Score stats.PairScore `json:"score"`
	// PerDoubling is the Elo gained per doubling of the budget (the gain
	// over log2 of the budget ratio), with its interval.
	PerDoubling     float64 `json:"elo_per_doubling"`
	PerDoublingLow  float64 `json:"elo_per_doubling_low"`
	PerDoublingHigh float64 `json:"elo_per_doubling_high"`
}

// Result is a finished ladder, as written to skill.json.
type Result struct {
	Schema  string `json:"schema"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Source  string `json:"source"`
	Seed    uint64 `json:"seed"`
	Games   int    `json:"games"`
	Pairs   bool   `json:"pairs"`
	// Bots describes the players at the variant's own budget; Param names
	// the budget (iterations, nodes).
	Bots  string `json:"bots"`
	Param string `json:"param"`
	Rungs []Rung `json:"rungs"`
	// Verdict is converged, drifting or undecided; Direction, when
	// drifting, says toward which seat; Text says it in words.
	Verdict   string `json:"verdict"`
	Direction string `json:"direction,omitempty"`
	Text      string `json:"text"`
	// SkillDepth is the mean Elo a doubled budget gains over the whole
	// ladder, with its interval: how much skill the game rewards, at these
	// budgets.
	SkillDepth     float64 `json:"skill_depth_elo_per_doubling"`
	SkillDepthLow  float64 `json:"skill_depth_low"`
	SkillDepthHigh float64 `json:"skill_depth_high"`
	// DoubledScore is the score a doubled budget is expected to make,
	// from SkillDepth.
	DoubledScore float64 `json:"doubled_budget_score"`
}

// budgets checks the variant's players and returns the budget parameter's
// name and the variant's own budget.
func budgets(cfg *variants.Config) (param string, own int, err error) {
	var names [2]string
	var values [2]int
	for i, p := range cfg.Players {
		name, value, ok := p.Budget()
		if !ok {
			return "", 0, fmt.Errorf("player %d plays %s, which has no search budget: a skill ladder varies the budget of search bots (mcts, ismcts, alphabeta); set players: to search bots", i, p.Bot)
		}
		names[i], values[i] = name, value
	}
	if names[0] != names[1] {
		return "", 0, fmt.Errorf("the players' budgets are in different units (%s and %s): a skill ladder gives both seats the same budget", names[0], names[1])
	}
	return names[0], max(values[0], values[1]), nil
}

// Validate checks that the variant can climb a ladder and the options make
// sense, before any game is played.
func Validate(cfg *variants.Config, opts Options) error {
	if _, _, err := budgets(cfg); err != nil {
		return err
	}
	for i, b := range opts.Budgets {
		if b < 1 || b > MaxBudget {
			return fmt.Errorf("--budgets: %d is not between 1 and %d", b, MaxBudget)
		}
		if i > 0 && b <= opts.Budgets[i-1] {
			return fmt.Errorf("--budgets: want increasing budgets, got %d after %d", b, opts.Budgets[i-1])
		}
		if err := cfg.Players[0].WithBudget(b).Params.Validate(); err != nil {
			return fmt.Errorf("--budgets %d: %v", b, err)
		}
	}
	if cfg.Games < MinGames {
		return fmt.Errorf("a skill ladder needs at least %d games per rung (a seat-swapped pair for each head-to-head), got %d", MinGames, cfg.Games)
	}
	if opts.Budgets != nil && len(opts.Budgets) < 2 {
		return fmt.Errorf("--budgets: a ladder needs at least two budgets")
	}
	return nil
}

// DefaultRung is rung k of the default ladder of a variant whose bots play
// own: own × Step^k, so own itself is rung 0 and the ladder passes through
// the variant's budget (own / Step and own / Step² below it, rounded down).
func DefaultRung(own, k int) int {
	b := own
	for ; k < 0; k++ {
		b /= Step
	}
	for ; k > 0; k-- {
		b *= Step
	}
	return b
}

// DefaultStart is the index of the default ladder's first rung: two steps
// below the variant's budget, or fewer when that would go under MinBudget.
func DefaultStart(own int) int {
	k := -2
	for k < 0 && DefaultRung(own, k) < MinBudget {
		k++
	}
	return k
}

// Run climbs the ladder: for each budget, self-play with both seats at it
// and a head-to-head against the rung below, all on the variant's seeds
// (every rung plays the same deals and bot streams), then the verdict.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Result, error) {
	if err := Validate(cfg, opts); err != nil {
		return nil, err
	}
	param, own, _ := budgets(cfg)
	res := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Source: cfg.Source, Seed: cfg.Seed,
		Games: cfg.Games, Pairs: cfg.Pairs, Bots: bots.DescribePlayers(cfg.Players), Param: param}
	ladder := opts.Budgets
	fixed := ladder != nil
	first := DefaultStart(own)
	if !fixed {
		ladder = []int{DefaultRung(own, first)}
	}
	maxTime := opts.MaxTime
	if maxTime <= 0 {
		maxTime = DefaultMaxTime
	}
	start := time.Now()
	for k := 0; k < len(ladder); k++ {
		b := ladder[k]
		rung, err := climb(ctx, cfg, opts, k, b, ladder)
		if err != nil {
			return nil, err
		}
		rung.Preset = b == own && cfg.Players[0].Same(cfg.Players[1])
		res.Rungs = append(res.Rungs, *rung)
		if fixed {
			continue
		}
		// The default ladder goes on while the next rung, about Step
		// times this one's cost, fits in the allowance.
		next := DefaultRung(own, first+k+1)
		if k+1 < MaxRungs && next <= MaxBudget && cfg.Players[0].WithBudget(next).Params.Validate() == nil &&
			(k == 0 || time.Since(start)+time.Duration(float64(Step)*rung.Seconds*float64(time.Second)) <= maxTime) {
			ladder = append(ladder, next)
		}
	}
	res.judge()
	return res, nil
}

// climb plays rung k at budget b: self-play, then the head-to-head
// against rung k−1 (player 0 at b, player 1 at the budget below).
func climb(ctx context.Context, cfg *variants.Config, opts Options, k, b int, ladder []int) (*Rung, error) {
	begin := time.Now()
	self := *cfg
	self.Players = [2]bots.Spec{cfg.Players[0].WithBudget(b), cfg.Players[1].WithBudget(b)}
	if opts.Started != nil {
		opts.Started(k, b, false, self.Games)
	}
	s, err := play(ctx, &self, opts)
	if err != nil {
		return nil, fmt.Errorf("budget %d: %w", b, err)
	}
	rung := &Rung{Budget: b, Headline: s.Headline, RatesAndLength: s.RatesAndLength()}
	for _, w := range s.Warnings {
		rung.Warnings = append(rung.Warnings, w.Code)
	}
	if k > 0 {
		below := ladder[k-1]
		h2h := *cfg
		h2h.Pairs = true
		h2h.Players = [2]bots.Spec{cfg.Players[0].WithBudget(b), cfg.Players[1].WithBudget(below)}
		if opts.Started != nil {
			opts.Started(k, b, true, h2h.Games)
		}
		hs, err := play(ctx, &h2h, opts)
		if err != nil {
			return nil, fmt.Errorf("budget %d against %d: %w", b, below, err)
		}
		if hs.PairStats == nil {
			return nil, fmt.Errorf("budget %d against %d: too few games for a pair", b, below)
		}
		rung.Gain = newGain(hs.PairStats.Player0, math.Log2(float64(b)/float64(below)))
	}
	rung.Seconds = time.Since(begin).Seconds()
	return rung, nil
}

// play runs one variant.
func play(ctx context.Context, cfg *variants.Config, opts Options) (*reports.Summary, error) {
	eopts := experiment.Options{Workers: opts.Workers}
	if opts.OnGame != nil {
		eopts.OnRecord = func(*sim.Record) { opts.OnGame() }
	}
	s, err := experiment.Run(ctx, cfg, eopts)
	if err != nil {
		return nil, err
	}
	if s.Failed > 0 {
		return nil, fmt.Errorf("%d games failed", s.Failed)
	}
	return s, nil
}

// unsigned0 turns −0 into 0, so no figure prints as "-0".
func unsigned0(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x
}

// MinGames is the fewest games a ladder plays per rung: a head-to-head
// needs whole seat-swapped pairs.
const MinGames = 2

// eloCap replaces an infinite Elo (a score of 0 or 1) in gains: a clean
// sweep is at least this much.
const eloCap = 800

func eloOr(p *float64, fallback float64) float64 {
	if p == nil {
		return fallback
	}
	return *p
}

// newGain builds a Gain from the stronger rung's pair score and the
// doublings between the rungs.
func newGain(score stats.PairScore, doublings float64) *Gain {
	elo := eloOr(score.Elo, math.Copysign(eloCap, score.Score-0.5))
	lo := eloOr(score.EloLow, -eloCap)
	hi := eloOr(score.EloHigh, eloCap)
	return &Gain{Score: score, PerDoubling: unsigned0(elo / doublings), PerDoublingLow: unsigned0(lo / doublings), PerDoublingHigh: unsigned0(hi / doublings)}
}
