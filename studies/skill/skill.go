package skill

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"playtest/games"
	"playtest/reports"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
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
	// MinStep is the least ratio between two rungs: closer rungs differ
	// too little in strength for a ladder to say anything.
	MinStep = 2
	// MinBudget is the smallest budget of the default ladder.
	MinBudget = 10
	// MaxBudget bounds the default ladder's budgets.
	MaxBudget = 1_000_000
	// MaxRungs bounds the default ladder's length.
	MaxRungs = 8
	// DefaultMaxTime is the default ladder's time allowance.
	DefaultMaxTime = 10 * time.Minute
	// MaxSettleGames bounds the games a rung plays with UntilSettled.
	MaxSettleGames = 64_000
)

// What a converged verdict asks of the top two rungs, by default.
const (
	// DefaultTolerance: the top two rungs' seat-0 figures must be shown to
	// differ by at most this (points of score, as a share).
	DefaultTolerance = 0.03
	// DefaultMaxGain: the top rung's gain over the one below must be shown
	// to be at most this many Elo per doubling (or clearly below the gain
	// before it).
	DefaultMaxGain = 35.0
)

// Options tune a ladder.
type Options struct {
	// Budgets are the rungs' budgets, increasing, each at least MinStep
	// times the one before; empty for the default ladder: ×Step from the
	// variant's budget / Step² (through the variant's own budget) while
	// the next rung is expected to fit in MaxTime.
	Budgets []int
	// MaxTime is the default ladder's allowance, and UntilSettled's
	// (DefaultMaxTime if 0). It decides only how many rungs and games the
	// ladder plays; every game's result depends on the seed alone.
	MaxTime time.Duration
	// Tolerance and MaxGain set what a converged verdict asks (the
	// defaults if 0).
	Tolerance, MaxGain float64
	// UntilSettled climbs on while the verdict is undecided or drifting:
	// more games on the top two rungs when their comparison is too
	// uncertain, a rung above when the bots still gain or the answer
	// still moves, until the ladder converges, MaxTime runs out, or the
	// budget or games reach their bounds.
	UntilSettled bool
	// MaxGames bounds the games a rung plays with UntilSettled
	// (MaxSettleGames if 0).
	MaxGames int
	Workers  int
	// Started, if set, is told before each run: the rung, its budget and
	// whether it is the head-to-head against the rung below, and how many
	// games it plays.
	Started func(rung, budget int, headToHead bool, games int)
	// OnGame, if set, sees every finished game.
	OnGame func()
	// Judged, if set, is told each verdict UntilSettled reaches on its way.
	Judged func(*Result)
	// NoBook plays the ladder from the start even where a proof gives an
	// opening book (a variant's own book: still holds).
	NoBook bool
	// Accuracy is how many self-play games of each rung, from index 0,
	// are judged against perfect play where the ladder is proven (package
	// accuracy; 0: none; AutoAccuracy: DefaultAccuracyGames where the full
	// solve proves the variant).
	Accuracy int
	// Perfect adds the perfect bot as the ladder's ceiling: its
	// self-play, and each rung's bot against it (not kept in Out's study).
	Perfect bool
	// deadline, when set (the default ladder and UntilSettled), stops a
	// rung that overruns MaxTime at a pair boundary (Rung.CutShort).
	deadline time.Time
	// Out, if set, keeps a fixed ladder (Budgets, without UntilSettled) as
	// a study (package study): each rung's self-play and head-to-head a run
	// directory under rungs/, and study.json.
	Out string
	// Resume continues the ladder kept in Out. Budgets, with Resume, are
	// the kept ladder's budgets then higher ones: the rungs added at its
	// top (climbKept), their runs alone played, to the ladder those
	// budgets would have given from the start.
	Resume bool
	// Games, with Resume, grows every run of the kept ladder to that many
	// games (study.Manifest.Grown) before going on: the games played are
	// kept and only the new ones played, to the ladder that many games
	// would have given from the start. 0 keeps the ladder's games.
	Games int
	// Shard, with Out, plays that slice of every run's games: the
	// ladder's result comes from playtest merge.
	Shard runlog.Shard
	// Command is the command line that started the ladder, recorded in
	// Out's study manifest.
	Command string
}

// Kind is the study kind of a skill ladder (study.Manifest.Kind).
const Kind = "skill"

// origin marks the overrides a ladder sets itself in its runs' variants
// (their budgets, pairs and book), as --set marks the user's.
const origin = "skill"

// design is what a ladder's study manifest records beside its units
// (each rung's self-play, then its head-to-head against the rung below):
// the result's header and the budgets.
type design struct {
	Result
	Budgets []int  `json:"budgets"`
	Presets []bool `json:"presets"` // which rungs play the variant's own budget
	// Pending marks the manifest a ladder writes before its first long
	// step (the proof behind its opening book): the variant and settings,
	// no rungs yet. A resume starts the ladder from it.
	Pending bool `json:"pending,omitempty"`
	NoBook  bool `json:"no_book,omitempty"`
}

// Rung is one budget of the ladder: self-play at that budget, and the
// head-to-head against the rung below.
type Rung struct {
	Budget int `json:"budget"`
	// Preset says the variant itself plays this budget.
	Preset bool `json:"preset,omitempty"`
	// Games is the number of games of its self-play and head-to-head.
	Games int `json:"games"`
	// Headline, rates and length of self-play at this budget.
	Headline reports.Headline `json:"headline"`
	reports.RatesAndLength
	// Warnings are self-play's warnings (reports.Warning codes).
	Warnings []string `json:"warnings,omitempty"`
	// Gain is this rung's score against the rung below, on common seeds
	// in seat-swapped pairs (nil on the first rung).
	Gain *Gain `json:"gain,omitempty"`
	// Shift is how far seat 0's figure moved from the rung below, paired
	// deal by deal (nil on the first rung).
	Shift *Shift `json:"shift,omitempty"`
	// Seconds is the wall time of the rung (self-play and head-to-head).
	Seconds float64 `json:"seconds"`
	// CutShort says --max-time ran out while the rung played: it stopped
	// at a pair boundary with Games of the games it was to play.
	CutShort bool `json:"cut_short,omitempty"`
	// Accuracy is the rung's self-play judged against perfect play (nil
	// where it was not: Options.Accuracy).
	Accuracy *RungAccuracy `json:"accuracy,omitempty"`
	// Gap is the rung's bot against the perfect bot (Options.Perfect).
	Gap *Gap `json:"gap,omitempty"`

	self, headToHead *series // the games played, for more games and shifts
}

// Shift is the change of seat 0's figure (score per game over pairs, or
// share of the games won) between two rungs, from their common deals: the
// rungs play the same deals and bot streams, so each deal's difference
// carries less noise than two independent figures.
type Shift struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// Deals is the number of deals compared.
	Deals int `json:"deals"`
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
	// Label names the variant with what --set changed in its rules.
	Label  string `json:"label,omitempty"`
	Source string `json:"source"`
	Seed   uint64 `json:"seed"`
	// Games is the games per rung asked for (a rung may have played more:
	// Rung.Games).
	Games int  `json:"games"`
	Pairs bool `json:"pairs"`
	// Bots describes the players at the variant's own budget, or without a
	// budget where --budgets leaves that one out (a --family given without
	// one has its bot's default); Param names the budget (iterations,
	// nodes).
	Bots  string `json:"bots"`
	Param string `json:"param"`
	Rungs []Rung `json:"rungs"`
	// Verdict is converged, drifting or undecided; Direction, when
	// drifting, says toward which seat; Text says it in words. Missing,
	// when not converged, says what the ladder lacks: MissingGames (the
	// top two rungs' comparison is too uncertain), MissingVariety (their
	// games repeat), MissingBudget (the bots
	// still gain, or the answer still moves) or MissingStrength (the bots
	// stop getting stronger while the answer moves).
	Verdict   string `json:"verdict"`
	Direction string `json:"direction,omitempty"`
	Missing   string `json:"missing,omitempty"`
	Text      string `json:"text"`
	// ProjectedGames, where the top two rungs' shift is too uncertain to
	// decide (MissingGames), is about how many games a rung would show it
	// within ±Tolerance were its estimate to hold (projection); 0 where
	// none would, or for any other verdict.
	ProjectedGames int `json:"projected_games,omitempty"`
	// Tolerance and MaxGain are what the converged verdict asked: the top
	// two rungs within ±Tolerance of each other, the top gain at most
	// MaxGain Elo per doubling.
	Tolerance float64 `json:"tolerance"`
	MaxGain   float64 `json:"max_gain_elo_per_doubling"`
	// SkillDepth is the mean Elo a doubled budget gains over the whole
	// ladder, with its interval: how much skill the game rewards, at these
	// budgets.
	SkillDepth     float64 `json:"skill_depth_elo_per_doubling"`
	SkillDepthLow  float64 `json:"skill_depth_low"`
	SkillDepthHigh float64 `json:"skill_depth_high"`
	// DoubledScore is the score a doubled budget is expected to make,
	// from SkillDepth.
	DoubledScore float64 `json:"doubled_budget_score"`
	// Proven is the variant's value with perfect play where playtest solve
	// finishes within ProofStates positions, or else its proof by search
	// within as many bounds (nil otherwise): shown beside the ladder, the
	// answer it should approach.
	Proven *Proven `json:"proven,omitempty"`
	// Book is how many decisions of each deal an opening book made
	// (the variant's book:, or BookPlies where the proof gave one: random
	// moves that keep the proven value); 0 for none. BookBot describes
	// the bot that chose them (the variant's book_bot:; "" for a book of
	// proofs).
	Book    int    `json:"book,omitempty"`
	BookBot string `json:"book_bot,omitempty"`
	// Ceiling is the perfect rung (Options.Perfect), nil without it.
	Ceiling *Ceiling `json:"ceiling,omitempty"`
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

// describeBots describes the ladder's players at their own budget, or
// without it where the ladder's budgets leave it out: the rungs then play
// only the budgets they name.
func describeBots(players [2]bots.Spec, own int, ladder []int) string {
	if ladder != nil && !slices.Contains(ladder, own) {
		return bots.DescribePlayersUnbudgeted(players)
	}
	return bots.DescribePlayers(players)
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
		if i > 0 && b < MinStep*opts.Budgets[i-1] {
			return fmt.Errorf("--budgets: %d is only %.2g times %d: rungs must be at least %d times apart, or the bots differ too little for the ladder to say anything", b, float64(b)/float64(opts.Budgets[i-1]), opts.Budgets[i-1], MinStep)
		}
		if err := cfg.Players[0].WithBudget(b).Params.Validate(); err != nil {
			return fmt.Errorf("--budgets %d: %v", b, err)
		}
	}
	if opts.Tolerance < 0 || opts.Tolerance >= 0.5 || opts.MaxGain < 0 || math.IsNaN(opts.Tolerance) || math.IsNaN(opts.MaxGain) {
		return fmt.Errorf("--tolerance %g, --max-gain %g: want a tolerance between 0 and 0.5 (a share of points) and a gain of at least 0 Elo", opts.Tolerance, opts.MaxGain)
	}
	if cfg.Games < MinGames {
		return fmt.Errorf("a skill ladder needs at least %d games per rung (a seat-swapped pair for each head-to-head), got %d", MinGames, cfg.Games)
	}
	if opts.Budgets != nil && len(opts.Budgets) < 2 {
		return fmt.Errorf("--budgets: a ladder needs at least two budgets")
	}
	if opts.Out != "" && (opts.Budgets == nil || opts.UntilSettled) && (opts.Resume || opts.Shard.Count > 0) {
		return fmt.Errorf("--resume and --shard need a ladder fixed in advance: give --budgets, without --until-settled (whose rungs and games depend on what it finds)")
	}
	return nil
}

// keptAsStudy says a ladder is kept as a study: it has an output
// directory and a design fixed in advance.
func keptAsStudy(opts Options) bool {
	return opts.Out != "" && opts.Budgets != nil && !opts.UntilSettled
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
// With UntilSettled it goes on while the verdict is not converged.
func Run(ctx context.Context, cfg *variants.Config, opts Options) (*Result, error) {
	if err := Validate(cfg, opts); err != nil {
		return nil, err
	}
	param, own, _ := budgets(cfg)
	if keptAsStudy(opts) {
		// The study records itself before the proof, which can take
		// seconds: a kill in that window leaves a ladder to resume.
		if err := recordPending(cfg, opts); err != nil {
			return nil, err
		}
	}
	if opts.Perfect {
		if err := checkPerfect(cfg); err != nil {
			return nil, err
		}
	}
	proven := prove(ctx, cfg)
	cfg, err := withBook(cfg, proven, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Source: cfg.Source, Seed: cfg.Seed,
		Games: cfg.Games, Pairs: cfg.Pairs, Bots: describeBots(cfg.Players, own, opts.Budgets), Param: param,
		Tolerance: cmp.Or(opts.Tolerance, DefaultTolerance), MaxGain: cmp.Or(opts.MaxGain, DefaultMaxGain),
		Proven: proven, Book: cfg.Book, BookBot: cfg.DescribeBookBot()}
	if keptAsStudy(opts) {
		return runStudy(ctx, cfg, res, opts)
	}
	ladder := opts.Budgets
	fixed := ladder != nil
	first := DefaultStart(own)
	if !fixed {
		ladder = []int{DefaultRung(own, first)}
	}
	maxTime := cmp.Or(opts.MaxTime, DefaultMaxTime)
	start := time.Now()
	// A rung begun on an estimate (past the default ladder's first two,
	// and every step UntilSettled takes) stops at a pair boundary when it
	// overruns the allowance.
	deadline := start.Add(maxTime)
	for k := 0; k < len(ladder); k++ {
		ropts := opts
		if !fixed && k >= 2 {
			ropts.deadline = deadline
		}
		rung, err := climb(ctx, cfg, ropts, res.Rungs, ladder[k], cfg.Games)
		if err != nil {
			return nil, err
		}
		rung.Preset = ladder[k] == own && cfg.Players[0].Same(cfg.Players[1])
		res.Rungs = append(res.Rungs, *rung)
		if rung.CutShort {
			break
		}
		if fixed {
			continue
		}
		// The default ladder goes on while the next rung is expected to
		// fit in the allowance (nextRungCost).
		next := DefaultRung(own, first+k+1)
		if k+1 < MaxRungs && next <= MaxBudget && cfg.Players[0].WithBudget(next).Params.Validate() == nil &&
			(k == 0 || time.Since(start)+nextRungCost(res.Rungs, float64(next)/float64(ladder[k]), cfg.Games) <= maxTime) {
			ladder = append(ladder, next)
		}
	}
	res.judge()
	res.agreeWithProof()
	if cut := res.cutShort(); cut != "" {
		res.Text += cut
	} else if opts.UntilSettled {
		opts.deadline = deadline
		if err := settle(ctx, cfg, opts, res, start, maxTime); err != nil {
			return nil, err
		}
	}
	return res, res.finish(ctx, cfg, opts)
}

// finish judges the rungs against perfect play, and climbs to the
// perfect rung, as opts ask.
func (r *Result) finish(ctx context.Context, cfg *variants.Config, opts Options) error {
	if err := r.judgeAccuracy(ctx, opts); err != nil {
		return err
	}
	if opts.Perfect {
		return r.climbToPerfect(ctx, cfg, opts)
	}
	return nil
}

// settle climbs on until the ladder converges or the time, budget or
// games run out: more games on the top two rungs when only their
// comparison is too uncertain, else a rung Step times above the top
// (the bots still gain, or the answer still moves). Each step's cost is
// estimated from the last rung's, and a step that would not fit in the
// allowance is not begun. Which steps are taken depends on the clock; the
// result of every game on the seed alone.
func settle(ctx context.Context, cfg *variants.Config, opts Options, res *Result, start time.Time, maxTime time.Duration) error {
	maxGames := cmp.Or(opts.MaxGames, MaxSettleGames)
	for res.Verdict != Converged {
		if opts.Judged != nil {
			opts.Judged(res)
		}
		n := len(res.Rungs)
		top := &res.Rungs[n-1]
		elapsed := time.Since(start)
		// More games on the top two rungs (self-play of both, and the
		// top one's head-to-head): twice as many, or as many as the
		// projection asks, up to four times.
		games := moreGames(top.Games, res.ProjectedGames, maxGames)
		switch {
		case res.Missing == MissingGames && top.Games*2 <= maxGames && elapsed+growthCost(res.Rungs, games) <= maxTime:
			for _, k := range []int{n - 2, n - 1} {
				if err := res.Rungs[k].extend(ctx, opts, games, k == n-1); err != nil {
					return err
				}
			}
			res.Rungs[n-1].Shift = shift(res.Rungs[n-1].self, res.Rungs[n-2].self)
		case res.Missing != MissingGames && top.Budget*Step <= MaxBudget && cfg.Players[0].WithBudget(top.Budget*Step).Params.Validate() == nil &&
			elapsed+nextRungCost(res.Rungs, Step, top.Games) <= maxTime:
			rung, err := climb(ctx, cfg, opts, res.Rungs, top.Budget*Step, top.Games)
			if err != nil {
				return err
			}
			res.Rungs = append(res.Rungs, *rung)
		default:
			res.judge()
			res.agreeWithProof()
			if res.Verdict != Converged {
				res.Text += settleStop(res, elapsed, maxTime, maxGames)
			}
			return nil
		}
		res.judge()
		res.agreeWithProof()
		if cut := res.cutShort(); cut != "" {
			res.Text += cut
			return nil
		}
	}
	return nil
}

// cutShort says which rung --max-time cut short, if one was ("").
func (res *Result) cutShort() string {
	for k, r := range res.Rungs {
		if r.CutShort {
			return fmt.Sprintf(" Stopped when --max-time ran out during rung %d (%s %s): it was cut short at %s games, a pair boundary.", k+1, bots.Thousands(r.Budget), res.Param, bots.Thousands(r.Games))
		}
	}
	return ""
}

// perGame is the rung's wall time per game played, over its self-play and
// head-to-head.
func (r *Rung) perGame() float64 {
	n := r.self.played
	if r.headToHead != nil {
		n += r.headToHead.played
	}
	if n == 0 {
		return 0
	}
	return r.Seconds / float64(n)
}

// nextRungCost estimates the wall time of a rung factor times the top
// rung's budget, playing games games of self-play and as many head to
// head: the top rung's time per game and per ply, times factor (a
// decision's search grows with its budget), times the plies its games
// are expected to last: the top rung's, grown as they grew from the rung
// below (at least 1, at most factor times), since stronger bots may play
// longer games (a ladder's games grew from 4.5 to 22.7 plies).
func nextRungCost(rungs []Rung, factor float64, games int) time.Duration {
	top := rungs[len(rungs)-1]
	plies := max(top.Plies.Value, 1)
	growth := 1.0
	if len(rungs) > 1 {
		growth = min(max(plies/max(rungs[len(rungs)-2].Plies.Value, 1), 1), factor)
	}
	perPly := top.perGame() / plies
	seconds := perPly * factor * plies * growth * float64(2*games)
	return time.Duration(seconds * float64(time.Second))
}

// moreGames is the games a rung --until-settled grows the top two rungs
// to from games: twice as many, or the projection's count (projected, 0
// for none) where it asks for more, at most four times as many and at
// most maxGames. Jumping to the projection spares the looks (and the
// games) a doubling at a time would take to reach it.
func moreGames(games, projected, maxGames int) int {
	return min(max(2*games, min(projected, 4*games)), maxGames)
}

// growthCost estimates the wall time of growing the top two rungs to
// games games a rung: the lower one's self-play and the top one's
// self-play and head-to-head, each at its own time per game.
func growthCost(rungs []Rung, games int) time.Duration {
	n := len(rungs)
	top, below := rungs[n-1], rungs[n-2]
	more := float64(max(games-top.Games, 0))
	seconds := below.perGame()*more + top.perGame()*2*more
	return time.Duration(seconds * float64(time.Second))
}

// settleStop says why UntilSettled stopped short of a converged ladder.
func settleStop(res *Result, elapsed, maxTime time.Duration, maxGames int) string {
	top := res.Rungs[len(res.Rungs)-1]
	switch {
	case res.Missing == MissingGames && top.Games*2 > maxGames:
		return fmt.Sprintf(" Stopped at %s games a rung (the most --until-settled plays).", bots.Thousands(top.Games))
	case res.Missing != MissingGames && top.Budget*Step > MaxBudget:
		return fmt.Sprintf(" Stopped at %s %s (the largest budget a ladder climbs to).", bots.Thousands(top.Budget), res.Param)
	}
	return fmt.Sprintf(" Stopped after %s of --max-time %s: the next step would not fit.", elapsed.Round(time.Second), maxTime)
}

// climb plays a rung at budget b with games games: self-play, then the
// head-to-head against the rung below (player 0 at b, player 1 at the
// budget below).
func climb(ctx context.Context, cfg *variants.Config, opts Options, below []Rung, b, games int) (*Rung, error) {
	begin := time.Now()
	rung, err := newRung(cfg, below, b)
	if err != nil {
		return nil, err
	}
	if err := rung.extend(ctx, opts, games, true); err != nil {
		return nil, err
	}
	if k := len(below); k > 0 {
		rung.Shift = shift(rung.self, below[k-1].self)
	}
	rung.Seconds = time.Since(begin).Seconds()
	return rung, nil
}

// seriesName names a rung's series: its self-play at budget b, or its
// head-to-head against the budget below.
func seriesName(b, below int, headToHead bool) string {
	if headToHead {
		return fmt.Sprintf("budget %d against %d", b, below)
	}
	return fmt.Sprintf("budget %d", b)
}

// newRung is the rung at budget b above below, not yet played: its
// self-play, and its head-to-head against the rung below (player 0 at b,
// player 1 at the budget below).
func newRung(cfg *variants.Config, below []Rung, b int) (*Rung, error) {
	k := len(below)
	rung := &Rung{Budget: b}
	self, err := withBudgets(cfg, b, b, cfg.Pairs)
	if err != nil {
		return nil, err
	}
	if rung.self, err = newSeries(self, seriesName(b, 0, false), k, b, false); err != nil {
		return nil, err
	}
	if k > 0 {
		lower := below[k-1].Budget
		h2h, err := withBudgets(cfg, b, lower, true)
		if err != nil {
			return nil, err
		}
		if rung.headToHead, err = newSeries(h2h, seriesName(b, lower, true), k, b, true); err != nil {
			return nil, err
		}
	}
	return rung, nil
}

// withBudgets is cfg with player 0 at budget b0, player 1 at b1 and pairs
// as given. It is rebuilt with overrides when cfg can be (a variant's
// recipe then rebuilds it: study.Unit), else changed in place.
func withBudgets(cfg *variants.Config, b0, b1 int, pairs bool) (*variants.Config, error) {
	want := *cfg
	want.Pairs = pairs
	want.Players = [2]bots.Spec{cfg.Players[0].WithBudget(b0), cfg.Players[1].WithBudget(b1)}
	if cfg.Text == nil {
		return &want, nil // built in code (tests, families): nothing to record
	}
	param, _, _ := cfg.Players[0].Budget()
	param1, _, _ := cfg.Players[1].Budget()
	n, err := cfg.With(variants.Override{Path: "pairs", Value: fmt.Sprint(pairs), Origin: origin},
		variants.Override{Path: "players.0." + param, Value: fmt.Sprint(b0), Origin: origin},
		variants.Override{Path: "players.1." + param1, Value: fmt.Sprint(b1), Origin: origin})
	if err != nil || n.Hash() != want.Hash() {
		return &want, nil // the players were set in code (families): not a study's
	}
	return n, nil
}

// extend plays the rung's self-play (and, with headToHead, its
// head-to-head) up to games games, and refreshes its figures.
func (r *Rung) extend(ctx context.Context, opts Options, games int, headToHead bool) error {
	begin := time.Now()
	defer func() { r.Seconds += time.Since(begin).Seconds() }()
	// With a deadline the games come in chunks of whole pairs, the
	// deadline checked between them: a rung that overruns stops at a pair
	// boundary, its series level with each other.
	played := r.self.played
	for to := played; to < games; {
		step := games - played
		if !opts.deadline.IsZero() {
			step = chunk(games-played, opts.Workers)
		}
		to = min(games, to+step)
		for _, s := range []*series{r.self, r.headToHead} {
			if s == nil || s == r.headToHead && !headToHead {
				continue
			}
			if err := s.extend(ctx, opts, to); err != nil {
				return err
			}
		}
		if to < games && !opts.deadline.IsZero() && time.Now().After(opts.deadline) {
			r.CutShort = true
			break
		}
	}
	return r.refresh()
}

// chunk is how many games a rung plays between two looks at the deadline:
// a sixteenth of what it has to play, at least four games a worker, in
// whole seat-swapped pairs.
func chunk(games, workers int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := max(games/16, 4*workers, 2)
	return n + n%2
}

// refresh computes the rung's figures from the games its series hold.
func (r *Rung) refresh() error {
	r.Games = r.self.played
	summary := r.self.summary()
	r.Headline, r.RatesAndLength, r.Warnings = summary.Headline, summary.RatesAndLength(), nil
	for _, w := range summary.Warnings {
		r.Warnings = append(r.Warnings, w.Code)
	}
	if r.headToHead != nil {
		hs := r.headToHead.summary()
		if hs.PairStats == nil {
			return fmt.Errorf("%s: too few games for a pair", r.headToHead.name)
		}
		lower := r.headToHead.cfg.Players[1]
		_, low, _ := lower.Budget()
		r.Gain = newGain(hs.PairStats.Player0, math.Log2(float64(r.Budget)/float64(low)))
	}
	return nil
}

// series is one configuration a ladder plays (a rung's self-play or
// head-to-head), kept so that more of its games can be played: game i's
// result depends only on the seed and i, so the first n games of a longer
// series are those of a shorter one.
type series struct {
	name         string
	cfg          variants.Config
	rung, budget int
	headToHead   bool
	agg          *reports.Aggregator
	played       int
	deals        []float64 // seat 0's total score per deal (a pair, or a game without pairs)
}

// add counts one finished game.
func (s *series) add(r *sim.Record) {
	s.agg.Add(r)
	deal := r.Index
	if s.cfg.Pairs {
		deal = r.Index / 2
	}
	for len(s.deals) <= deal {
		s.deals = append(s.deals, 0)
	}
	s.deals[deal] += r.Result.ScoreFor(games.Seat0)
}

// load counts the games of the series' run directory dir (all of them).
func (s *series) load(dir string) error { return s.loadFirst(dir, s.cfg.Games) }

// loadFirst counts the series' games (its first s.cfg.Games) from dir's
// log of logged games.
func (s *series) loadFirst(dir string, logged int) error {
	failed := 0
	_, err := runlog.Scan(dir, 0, logged, nil, func(r *sim.Record) error {
		switch {
		case r.Index >= s.cfg.Games:
		case r.Err != nil:
			failed++
		default:
			s.add(r)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%s: %d games failed (see %s)", s.name, failed, filepath.Join(dir, runlog.ErrorsFile))
	}
	s.played = s.cfg.Games
	return nil
}

func newSeries(cfg *variants.Config, name string, rung, budget int, headToHead bool) (*series, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, err
	}
	return &series{name: name, cfg: *cfg, rung: rung, budget: budget, headToHead: headToHead,
		agg: reports.NewAggregator(rundir.Info(cfg, job.Game))}, nil
}

// extend plays the series' games up to to.
func (s *series) extend(ctx context.Context, opts Options, to int) error {
	if to <= s.played {
		return nil
	}
	s.cfg.Games = to
	job, err := rundir.Job(&s.cfg)
	if err != nil {
		return err
	}
	job.Trace = 0 // a ladder reports no How it plays
	job.Sliced, job.From, job.To = true, s.played, to
	if opts.Started != nil {
		opts.Started(s.rung, s.budget, s.headToHead, to-s.played)
	}
	failed := 0
	err = sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
		if r.Err != nil {
			failed++
			return
		}
		s.add(r)
		if opts.OnGame != nil {
			opts.OnGame()
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	if failed > 0 {
		return fmt.Errorf("%s: %d games failed", s.name, failed)
	}
	s.played = to
	return nil
}

// summary is the series' summary so far.
func (s *series) summary() *reports.Summary { return s.agg.Summary(reports.Timing{}) }

// shift compares seat 0's figure at two rungs' self-play deal by deal,
// over the deals both played: the mean difference per game, with a 95%
// normal interval whose variance is shrunk, as the paired interval's is,
// toward that of two independent deals by PriorDeals pseudo-deals (so a
// few deals that happen to agree do not make it collapse).
func shift(top, below *series) *Shift {
	n := min(len(top.deals), len(below.deals))
	if n == 0 {
		return nil
	}
	games := 1.0 // games per deal
	if top.cfg.Pairs {
		games = 2
	}
	var m stats.Moments
	for d := range n {
		m.Add((top.deals[d] - below.deals[d]) / games)
	}
	// Two independent deals' figures each vary by at most ¼/games.
	iv := m.ShrunkInterval(stats.Z95, 2*0.25/games, PriorDeals)
	return newShift(m.Mean(), (iv.High-iv.Low)/2, n)
}

// newShift is a shift with its interval value ± half, cut to the ±100
// points a difference of two figures can span.
func newShift(value, half float64, deals int) *Shift {
	return &Shift{Value: value, Low: max(value-half, -1), High: min(value+half, 1), Deals: deals}
}

// PriorDeals is the weight, in deals, of the prior variance in a Shift.
const PriorDeals = stats.PriorPairs

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
