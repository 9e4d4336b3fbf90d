package reports

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"

	"playtest/games"
	"playtest/internal/knobs"
	"playtest/reports/howplays"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/sim/bots"
)

// SchemaV1 is the schema tag of summary.json.
const SchemaV1 = "playtest/summary/v1"

// Summary is the result of a run, as written to summary.json.
type Summary struct {
	Schema  string `json:"schema"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	// Label names the variant with what --set changed in its rules
	// ("stacktics/size2 + board {rows: 5, cols: 3}"); RuleChanges are
	// those knobs, from the preset's or file's value to the one played.
	Label       string         `json:"label,omitempty"`
	RuleChanges []knobs.Change `json:"rule_changes,omitempty"`
	ConfigHash  string         `json:"config_hash"`
	Seed        uint64         `json:"seed"`
	// Games is the number of games played to a result.
	Games int `json:"games"`
	// Failed counts the games that failed (an engine panic or an invalid
	// state, recorded in errors.jsonl) and are left out of every figure.
	Failed int  `json:"failed,omitempty"`
	Pairs  bool `json:"pairs"`
	// Book is how many decisions of each deal the variant's opening book
	// made: random moves that keep the value playtest solve proves, or
	// with BookBot that bot's choices (absent without a book).
	Book int `json:"book,omitempty"`
	// BookBot describes the bot that chose the book's moves (the
	// variant's book_bot:; absent for a book drawn from proofs).
	BookBot string `json:"book_bot,omitempty"`
	// Opening is the line of play every game started after (the variant's
	// opening:; absent without one).
	Opening []string `json:"opening,omitempty"`
	// Rules are the game's knobs with every default resolved.
	Rules   any      `json:"rules"`
	Players []Player `json:"players"`
	// Outcomes counts games by result, per seat (seat 0 moved first).
	Outcomes Outcomes `json:"outcomes"`
	// Rates are the outcomes as rates with 95% Wilson intervals.
	Rates       OutcomeRates   `json:"rates"`
	WinReasons  map[string]int `json:"win_reasons"`
	DrawReasons map[string]int `json:"draw_reasons"`
	// Stalled counts the draws by a move or turn cap.
	Stalled Rate `json:"stalled"`
	// Lifted counts the decisions of restricted players (restrict:) whose
	// every legal move their restriction forbade, so it was lifted.
	Lifted int `json:"restriction_lifted,omitempty"`
	// Sides gives the wins of each named side (army, colour), for games
	// that have sides.
	Sides []Side `json:"sides,omitempty"`
	// Plies is the distribution of game length in moves.
	Plies Distribution `json:"plies"`
	// Balance holds Ludii's balance metrics.
	Balance Balance `json:"balance"`
	// PairStats are the pentanomial statistics of seat-swapped pairs.
	PairStats *PairStats `json:"pair_stats,omitempty"`
	// Metrics are the game-specific figures, sorted by name.
	Metrics []Metric `json:"metrics,omitempty"`
	// Openings are the statistics of the first decision.
	Openings *Openings `json:"openings,omitempty"`
	// Repetition counts the different games among the games played (nil
	// for a run read back from a log written before games had
	// fingerprints).
	Repetition *Repetition `json:"repetition,omitempty"`
	// HowItPlays says how the traced games played (nil for a run that
	// traced none).
	HowItPlays *howplays.Report `json:"how_it_plays,omitempty"`
	// Broken says the rules, not the bots, decide the games (nil unless
	// every game was short or alike).
	Broken *Broken `json:"broken_rules,omitempty"`
	// Proven is the variant's value proven from its start within
	// games.ProofNodes positions (nil where the game allows no proof,
	// the bound passed, or a forced win in Broken says more): it judges
	// the seat outcomes whatever the bots.
	Proven *ProvenStart `json:"proven_value,omitempty"`
	// Headline is the run's answer in one plain sentence.
	Headline Headline `json:"headline"`
	// Warnings say where the answer may be the bots' rather than the
	// game's, and what to run next.
	Warnings []Warning `json:"warnings"`
	// Timing holds everything that depends on the clock or the machine.
	Timing Timing `json:"timing"`
}

// DrawReasonRate is the share of games drawn for reason, with a Wilson
// interval over games; when every draw had this reason it is the draws'
// own rate, so the two rows of the same count show the same interval
// (over pairs, when the games came in pairs).
func (s *Summary) DrawReasonRate(reason string) Rate {
	if n := s.DrawReasons[reason]; n != s.Rates.Draw.Count || n == 0 {
		return NewRate(n, s.Games)
	}
	return s.Rates.Draw
}

// VariantLabel names the run's variant for people: with what --set changed
// in its rules, when anything did.
func (s *Summary) VariantLabel() string { return cmp.Or(s.Label, s.Variant) }

// Outcomes counts games by result.
type Outcomes struct {
	Seat0 int `json:"seat0"`
	Seat1 int `json:"seat1"`
	Draw  int `json:"draw"`
}

// OutcomeRates are the outcomes as rates. With seat-swapped pairs the
// intervals come from the pairs (Interval "paired-wilson"), since the two
// games of a deal are not independent; otherwise they are Wilson's over
// the games ("wilson").
type OutcomeRates struct {
	Seat0    Rate   `json:"seat0"`
	Seat1    Rate   `json:"seat1"`
	Draw     Rate   `json:"draw"`
	Interval string `json:"interval"`
}

// Interval methods of OutcomeRates.
const (
	IntervalWilson       = "wilson"
	IntervalPairedWilson = "paired-wilson"
)

// Rate is a count out of N with its rate and 95% Wilson interval.
type Rate struct {
	Count int     `json:"count"`
	N     int     `json:"n"`
	Rate  float64 `json:"rate"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// NewRate builds a Rate with its Wilson interval.
func NewRate(count, n int) Rate {
	ci := stats.Wilson(count, n, stats.Z95)
	r := Rate{Count: count, N: n, Low: ci.Low, High: ci.High}
	if n > 0 {
		r.Rate = float64(count) / float64(n)
	}
	return r
}

// Player is one player's bot and results over all its games, whichever
// seat it sat in. Score counts a win 1 and a draw ½.
type Player struct {
	Bot    string      `json:"bot"`
	Params bots.Params `json:"params"`
	// Model is the model file the player's bot plays as the variant named
	// it ("preset", a path), where it plays one: its parameters keep the
	// content's hash alone.
	Model  string `json:"model,omitempty"`
	Wins   int    `json:"wins"`
	Losses int    `json:"losses"`
	Draws  int    `json:"draws"`
	Score  Mean   `json:"score"`
}

// Side is the record of one named side.
type Side struct {
	Name string `json:"name"`
	Wins Rate   `json:"wins"`
}

// Mean is a mean with its sample size, standard deviation, 95% interval,
// and the least and greatest values seen.
type Mean struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	// Bootstrap is the 95% percentile bootstrap interval of the mean, for
	// metrics whose values are whole numbers (scores, margins, counts).
	Bootstrap *stats.Interval `json:"bootstrap,omitempty"`
}

// Interval is the mean's 95% interval to show people: the percentile
// bootstrap one for whole-number figures (it never leaves the range of
// the values, so a count's never goes below zero), else the normal one
// clamped to the range seen.
func (m Mean) Interval() (lo, hi float64) {
	if b := m.Bootstrap; b != nil {
		return b.Low, b.High
	}
	return max(m.Low, m.Min), min(m.High, m.Max)
}

func newMean(m *stats.Moments) Mean {
	ci := m.MeanInterval(stats.Z95)
	return Mean{N: m.N, Mean: m.Mean(), SD: m.SD(), Low: ci.Low, High: ci.High, Min: m.Min(), Max: m.Max()}
}

// Distribution summarises an integer distribution.
type Distribution struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P05    float64 `json:"p05"`
	P95    float64 `json:"p95"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

func newDistribution(h *stats.Histogram) Distribution {
	return Distribution{
		Mean: round6(h.Mean()), Median: round6(h.Quantile(0.5)), P05: round6(h.Quantile(0.05)),
		P95: round6(h.Quantile(0.95)), Min: round6(h.Quantile(0)), Max: round6(h.Quantile(1)),
	}
}

// round6 rounds to 6 decimals, hiding floating-point noise such as
// 187.49999999999974 in interpolated quantiles.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// Metric is one game-specific figure over the games that reported it: a
// rate (Kind "rate", with Rate) or a mean (Kind "value", with Mean).
type Metric struct {
	Name string `json:"name"`
	// Doc explains the metric in one line (the game's glossary).
	Doc  string `json:"doc,omitempty"`
	Kind string `json:"kind"`
	Rate *Rate  `json:"rate,omitempty"`
	Mean *Mean  `json:"mean,omitempty"`
}

// Kinds of a summary's Metric.
const (
	MetricRate  = "rate"
	MetricValue = "value"
)

// Timing holds what depends on the clock or the machine.
type Timing struct {
	Workers        int     `json:"workers"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	GamesPerSecond float64 `json:"games_per_second"`
	PliesPerSecond float64 `json:"plies_per_second"`
}

// RunInfo describes a run for its summary.
type RunInfo struct {
	// Source is where the variant came from: a file, or "preset NAME".
	Source  string
	Game    string
	Variant string
	// Label and RuleChanges: see Summary. Rerun holds the shell-quoted
	// --set arguments that give a suggested command the same rules, book
	// and opening (variants.Config.StartArgs).
	Label       string
	RuleChanges []knobs.Change
	Rerun       string
	ConfigHash  string
	Seed        uint64
	Pairs       bool
	// Book is how many decisions of each deal an opening book made
	// (variants.Config.Book; 0: none); BookBot describes the bot that
	// chose them ("" for a book drawn from proofs).
	Book    int
	BookBot string
	// Opening is the variant's opening: (variants.Config.Opening).
	Opening []string
	Rules   any
	Players [games.NumSeats]bots.Spec
	// Sides names the game's sides, if it has any.
	Sides []string
	// Describe, if set, explains a game metric in one line (the game's
	// glossary; "" when it has no entry).
	Describe func(metric string) string
	// Reasons, if set, are the ways the game declares its games end
	// (games.Reasoner); MaxLegalMoves bounds a decision's legal moves.
	Reasons       []games.ReasonDoc
	MaxLegalMoves int
	// Replay, if set, plays a game's recorded entries from the start and
	// returns how it ended: a record that kept its moves is checked
	// against them.
	Replay func(moves []string) (games.Result, int, error)
	// TraceMapping, if set, maps the traced games' leads to chances of
	// winning (the variant's learned model); otherwise a logistic is
	// fitted to the traced games. Hidden says the game hides information.
	TraceMapping *howplays.Mapping
	Hidden       bool
	// Prove, if set, looks for a forced win from the start within depth
	// decisions (prove.Within): for runs whose games are all short.
	Prove func(depth int) (*games.Proof, bool)
	// Settle, if set, proves the variant's value from its start within
	// games.ProofNodes positions (prove.Settle), nil when it cannot.
	Settle func() *ProvenStart
}

// MaxRecordPlies bounds a game's length as read back from a log or
// games.csv: ten times the largest move cap a game allows, far beyond any
// game, and far below a sum that could overflow.
const MaxRecordPlies = 10_000_000

// CheckRecord checks that a record read back from a run's log can be one of
// this run's games: its deal and seats those the run's pairing gives its
// index; a result the game declares (Reasons: a known reason, a winner for
// a decisive one, none for a drawn one); counts that agree with each other
// and stay within MaxRecordPlies; sides only for a game that has them (one
// per seat, each a side of the game, two different sides); metrics of a
// known kind, finite, and rates 0 or 1. Aggregating a record that fails it
// could panic or corrupt the summary. (A summary-records line cannot show
// its winner was the one played: only its consistency is checked. A record
// that kept its moves is replayed with Replay, and its result and length
// must be the ones the moves give.)
func (info RunInfo) CheckRecord(r *sim.Record) error {
	if r.Index < 0 || r.Deal < 0 {
		return fmt.Errorf("game index %d, deal %d: want none negative", r.Index, r.Deal)
	}
	deal, swapped := r.Index, false
	if info.Pairs {
		deal, swapped = r.Index/2, r.Index%2 == 1
	}
	if r.Deal != deal || r.Swapped != swapped {
		return fmt.Errorf("game %d: deal %d, swapped %v, but the run plays game %d on deal %d, swapped %v", r.Index, r.Deal, r.Swapped, r.Index, deal, swapped)
	}
	if r.Err != nil {
		return nil
	}
	switch w := r.Result.Winner; {
	case w != games.Seat0 && w != games.Seat1 && w != games.NoPlayer:
		return fmt.Errorf("game %d: winner %d is neither a seat (0, 1) nor a draw (%d)", r.Index, w, games.NoPlayer)
	case r.Result.Reason == "":
		return fmt.Errorf("game %d: no reason for its result", r.Index)
	case r.Plies < 0 || r.Decisions < 0 || r.PlayerDecisions < 0 || r.Uncounted < 0 || r.Choices < 0 || r.LegalMoves < 0:
		return fmt.Errorf("game %d: a negative count", r.Index)
	case r.Plies > MaxRecordPlies || r.Decisions > 4*MaxRecordPlies:
		return fmt.Errorf("game %d: %d plies, %d decisions: beyond any game (at most %d plies)", r.Index, r.Plies, r.Decisions, MaxRecordPlies)
	case r.PlayerDecisions > r.Decisions:
		return fmt.Errorf("game %d: %d decisions by the seats of %d in all", r.Index, r.PlayerDecisions, r.Decisions)
	case r.Uncounted > r.PlayerDecisions:
		return fmt.Errorf("game %d: %d decisions uncounted of %d", r.Index, r.Uncounted, r.PlayerDecisions)
	case r.Choices > r.PlayerDecisions-r.Uncounted:
		return fmt.Errorf("game %d: %d decisions with a choice of %d counted", r.Index, r.Choices, r.PlayerDecisions-r.Uncounted)
	case r.LegalMoves < r.PlayerDecisions-r.Uncounted || info.MaxLegalMoves > 0 && r.LegalMoves > (r.PlayerDecisions-r.Uncounted)*info.MaxLegalMoves:
		return fmt.Errorf("game %d: %d legal moves over %d counted decisions", r.Index, r.LegalMoves, r.PlayerDecisions-r.Uncounted)
	case r.Lifted < 0 || r.Lifted > r.PlayerDecisions:
		return fmt.Errorf("game %d: a restriction lifted at %d of %d decisions", r.Index, r.Lifted, r.PlayerDecisions)
	}
	if err := checkTrace(r); err != nil {
		return fmt.Errorf("game %d: %v", r.Index, err)
	}
	if len(info.Reasons) > 0 {
		if err := games.CheckResult(info.Reasons, r.Result); err != nil {
			return fmt.Errorf("game %d: %v", r.Index, err)
		}
	}
	switch {
	case len(info.Sides) == 0 && r.Sides != nil:
		return fmt.Errorf("game %d: sides %v for a game without sides", r.Index, r.Sides)
	case len(info.Sides) > 0 && len(r.Sides) != games.NumSeats:
		return fmt.Errorf("game %d: sides %v, want one per seat", r.Index, r.Sides)
	case len(r.Sides) == games.NumSeats && r.Sides[0] == r.Sides[1]:
		return fmt.Errorf("game %d: both seats command side %d", r.Index, r.Sides[0])
	}
	for _, s := range r.Sides {
		if s < 0 || s >= len(info.Sides) {
			return fmt.Errorf("game %d: side %d, want 0 to %d", r.Index, s, len(info.Sides)-1)
		}
	}
	for _, m := range r.Metrics {
		switch {
		case m.Kind != games.MetricRate && m.Kind != games.MetricValue || m.Name == "":
			return fmt.Errorf("game %d: metric %q of unknown kind %d", r.Index, m.Name, m.Kind)
		case math.IsNaN(m.Value) || math.IsInf(m.Value, 0):
			return fmt.Errorf("game %d: metric %q is %v", r.Index, m.Name, m.Value)
		case m.Kind == games.MetricRate && m.Value != 0 && m.Value != 1:
			return fmt.Errorf("game %d: rate metric %q is %v, want 0 or 1", r.Index, m.Name, m.Value)
		}
	}
	if len(r.Moves) > 0 && info.Replay != nil {
		result, plies, err := info.Replay(r.Moves)
		switch {
		case err != nil:
			return fmt.Errorf("game %d: its moves do not replay: %v", r.Index, err)
		case result != r.Result || plies != r.Plies:
			return fmt.Errorf("game %d: %s after %d plies, but its moves give %s after %d", r.Index, games.ResultText(r.Result), r.Plies, games.ResultText(result), plies)
		}
	}
	return nil
}

// checkTrace checks a traced record's trace and play: one entry a
// decision, none beyond a decided lead, and counts that fit the game.
func checkTrace(r *sim.Record) error {
	if r.Trace != nil && len(r.Trace) != r.Decisions {
		return fmt.Errorf("a trace of %d entries for %d decisions", len(r.Trace), r.Decisions)
	}
	for _, e := range r.Trace {
		if e > sim.TraceDecided || e < -sim.TraceDecided {
			return fmt.Errorf("trace entry %d beyond a decided lead (±%d)", e, sim.TraceDecided)
		}
	}
	p := r.Play
	switch {
	case p == nil:
		return nil
	case r.Trace == nil:
		return fmt.Errorf("play figures without a trace")
	case p.Deliberated < 0 || p.Deliberated > r.PlayerDecisions || p.Near < p.Deliberated || p.Of < p.Near || p.Of > r.LegalMoves:
		return fmt.Errorf("clarity counts %d near of %d moves over %d decisions do not fit the game's %d decisions, %d legal moves", p.Near, p.Of, p.Deliberated, r.PlayerDecisions, r.LegalMoves)
	case p.Cells < 0 || p.Cells > 64 || p.Covered < 0 || p.Covered > p.Cells:
		return fmt.Errorf("%d of %d cells covered", p.Covered, p.Cells)
	case p.Positions < 0 || p.Positions > r.Decisions || p.Repeats < 0 || p.Repeats >= max(p.Positions, 1):
		return fmt.Errorf("%d repeated of %d positions in %d decisions", p.Repeats, p.Positions, r.Decisions)
	}
	return nil
}

// Aggregator folds records into a Summary as games finish. Feed it the
// records in index order (as sim.Run delivers them) for reproducible output.
type Aggregator struct {
	info        RunInfo
	games       int
	failed      int
	outcomes    Outcomes
	winReasons  map[string]int
	drawReasons map[string]int
	stalled     int
	sideWins    []int
	players     [games.NumSeats]struct {
		wins, losses, draws int
		score               stats.Moments
	}
	plies    stats.Histogram
	metrics  map[string]*metricAcc
	bal      balanceAcc
	openings map[string]*openingAcc
	// early counts the games won within EarlyPlies plies.
	early int
	// repeats tells the games apart by their decisions.
	repeats RepetitionCounter
	// traced keeps the traced games, for HowItPlays.
	traced []*sim.Record
	lifted int
	// quickProof is the forced win within QuickProofPlies from the start
	// (nil: none), once quickProved.
	quickProof  *games.Proof
	quickProved bool
	// settled is the variant's proven value (nil: none), once settleTried.
	settled     *ProvenStart
	settleTried bool
}

type metricAcc struct {
	kind    games.MetricKind
	moments stats.Moments
	hits    int
	// values keeps the exact distribution of a value metric while every
	// value is a whole number (scores, margins, counts), for its bootstrap
	// interval; fractional is set once one is not.
	values     stats.Histogram
	fractional bool
}

// maxBootstrapValues bounds the distinct values a metric's histogram keeps.
const maxBootstrapValues = 100000

// NewAggregator starts an empty aggregate.
func NewAggregator(info RunInfo) *Aggregator {
	return &Aggregator{
		info:        info,
		winReasons:  map[string]int{},
		drawReasons: map[string]int{},
		sideWins:    make([]int, len(info.Sides)),
		metrics:     map[string]*metricAcc{},
		openings:    map[string]*openingAcc{},
	}
}

// Add folds in one finished game; a failed game (r.Err set) has no result
// and is left out.
func (a *Aggregator) Add(r *sim.Record) {
	if r.Err != nil {
		a.failed++
		return
	}
	a.games++
	a.lifted += r.Lifted
	if r.Trace != nil {
		// Only what the figures read: not the moves a full record keeps.
		a.traced = append(a.traced, &sim.Record{Index: r.Index, Deal: r.Deal, Swapped: r.Swapped, Result: r.Result, Plies: r.Plies,
			Decisions: r.Decisions, PlayerDecisions: r.PlayerDecisions, Uncounted: r.Uncounted, Choices: r.Choices,
			LegalMoves: r.LegalMoves, Trace: r.Trace, Play: r.Play})
	}
	if a.info.Pairs {
		a.repeats.AddPaired(r.Deal, r.Fingerprint)
	} else {
		a.repeats.Add(r.Fingerprint)
	}
	a.plies.Add(r.Plies)
	a.bal.add(r, a.info.Pairs)
	a.addOpening(r)
	res := r.Result
	// Won by the first move and its answer: a game some seat decided in
	// (one that chance alone decides is no blunder of the bots').
	if !res.IsDraw() && r.Plies <= EarlyPlies && r.PlayerDecisions > 0 {
		a.early++
	}
	switch res.Winner {
	case games.Seat0:
		a.outcomes.Seat0++
	case games.Seat1:
		a.outcomes.Seat1++
	default:
		a.outcomes.Draw++
	}
	if res.IsDraw() {
		a.drawReasons[res.Reason]++
		if games.IsStalled(res.Reason) {
			a.stalled++
		}
	} else {
		a.winReasons[res.Reason]++
		if r.Sides != nil {
			a.sideWins[r.Sides[res.Winner]]++
		}
	}
	for seat := range games.Player(games.NumSeats) {
		p := &a.players[r.PlayerOf(seat)]
		switch res.Winner {
		case seat:
			p.wins++
			p.score.Add(1)
		case games.NoPlayer:
			p.draws++
			p.score.Add(0.5)
		default:
			p.losses++
			p.score.Add(0)
		}
	}
	for _, m := range r.Metrics {
		acc := a.metrics[m.Name]
		if acc == nil {
			acc = &metricAcc{kind: m.Kind}
			a.metrics[m.Name] = acc
		}
		acc.moments.Add(m.Value)
		if m.Value != 0 {
			acc.hits++
		}
		if acc.kind == games.MetricValue && !acc.fractional {
			if m.Value == math.Trunc(m.Value) && math.Abs(m.Value) < 1e9 && acc.values.Distinct() < maxBootstrapValues {
				acc.values.Add(int(m.Value))
			} else {
				acc.fractional = true
			}
		}
	}
}

// Games returns the number of games folded in so far.
func (a *Aggregator) Games() int { return a.games }

// Summary returns the summary of the games so far.
func (a *Aggregator) Summary(timing Timing) *Summary {
	n := a.games
	s := &Summary{
		Schema: SchemaV1, Game: a.info.Game, Variant: a.info.Variant, ConfigHash: a.info.ConfigHash,
		Label: a.info.Label, RuleChanges: a.info.RuleChanges,
		Seed: a.info.Seed, Games: n, Failed: a.failed, Pairs: a.info.Pairs, Book: a.info.Book, BookBot: a.info.BookBot, Opening: a.info.Opening, Rules: a.info.Rules,
		Outcomes:    a.outcomes,
		Rates:       a.outcomeRates(),
		WinReasons:  a.winReasons,
		DrawReasons: a.drawReasons,
		Stalled:     NewRate(a.stalled, n),
		Lifted:      a.lifted,
		Plies:       newDistribution(&a.plies),
		Balance:     a.balance(),
		PairStats:   a.pairStats(),
		Repetition:  a.repeats.Summary(),
		Timing:      timing,
	}
	for i, name := range a.info.Sides {
		s.Sides = append(s.Sides, Side{Name: name, Wins: NewRate(a.sideWins[i], n)})
	}
	for i, spec := range a.info.Players {
		p := &a.players[i]
		score := newMean(&p.score)
		// A player's score: over pairs the paired interval (player 1's is
		// player 0's mirrored), else Wilson's over the games; never the
		// normal interval, which collapses to a point at 0% or 100%.
		iv := stats.WilsonMean(score.Mean, score.N, stats.Z95)
		if ps := s.PairStats; ps != nil {
			iv = ps.Player0.CI
			if i == 1 {
				iv = stats.Interval{Low: 1 - iv.High, High: 1 - iv.Low}
			}
		}
		score.Low, score.High = iv.Low, iv.High
		player := Player{
			Bot: spec.Bot, Params: spec.Params,
			Wins: p.wins, Losses: p.losses, Draws: p.draws, Score: score,
		}
		if mu, ok := spec.Params.(bots.ModelUser); ok {
			player.Model = mu.ModelFile()
		}
		s.Players = append(s.Players, player)
	}
	names := make([]string, 0, len(a.metrics))
	for name := range a.metrics {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		acc := a.metrics[name]
		m := Metric{Name: name}
		if a.info.Describe != nil {
			m.Doc = a.info.Describe(name)
		}
		if acc.kind == games.MetricRate {
			r := NewRate(acc.hits, acc.moments.N)
			m.Kind, m.Rate = MetricRate, &r
		} else {
			mean := newMean(&acc.moments)
			if !acc.fractional {
				iv := stats.BootstrapMean(&acc.values, bootstrapResamples, 0.05, a.info.Seed)
				mean.Bootstrap = &iv
			}
			m.Kind, m.Mean = MetricValue, &mean
		}
		s.Metrics = append(s.Metrics, m)
	}
	s.Openings = a.openingStats()
	s.HowItPlays = howplays.Build(a.traced, a.info.TraceMapping, a.info.Pairs, a.info.Hidden, sim.StaticTrace(a.info.Players), a.info.Seed)
	s.Broken = a.broken(s)
	s.Proven = a.proven(s)
	s.Headline = a.headline(s)
	s.Warnings = a.warnings(s)
	return s
}

// outcomeRates are the outcomes as rates, with intervals over the pairs
// when games come in seat-swapped pairs.
func (a *Aggregator) outcomeRates() OutcomeRates {
	n, o := a.games, a.outcomes
	if a.info.Pairs && a.bal.seat0Pairs.Pairs() > 0 {
		return OutcomeRates{
			Seat0:    pairedRate(o.Seat0, n, &a.bal.seat0WinPairs.Pentanomial),
			Seat1:    pairedRate(o.Seat1, n, &a.bal.seat1WinPairs.Pentanomial),
			Draw:     pairedRate(o.Draw, n, &a.bal.drawPairs.Pentanomial),
			Interval: IntervalPairedWilson,
		}
	}
	return OutcomeRates{Seat0: NewRate(o.Seat0, n), Seat1: NewRate(o.Seat1, n), Draw: NewRate(o.Draw, n), Interval: IntervalWilson}
}

// WriteJSON writes the summary as indented JSON with a final newline.
func (s *Summary) WriteJSON(w io.Writer) error { return WriteJSON(w, s) }

// WriteJSON writes v as JSON indented by two spaces, with a final newline:
// the form of every JSON file and output of playtest.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// SavedParams are bot parameters read back from a summary.json: kept as
// their JSON, written out unchanged.
type SavedParams json.RawMessage

// Validate accepts saved parameters: they were valid when the run started.
func (SavedParams) Validate() error { return nil }

// MarshalJSON writes the parameters as they were read.
func (p SavedParams) MarshalJSON() ([]byte, error) {
	if len(p) == 0 {
		return []byte("{}"), nil
	}
	return p, nil
}

// Describe names the player's bot with its budget and the settings that
// differ from the bot's defaults: "mcts, 1,000 iterations (rollout_cap 6,
// eval_scale 6)"; the bot's name alone when its parameters cannot be read.
func (p Player) Describe() string {
	params := p.Params
	if saved, ok := params.(SavedParams); ok {
		d, err := bots.Lookup(p.Bot)
		if err != nil {
			return p.Bot
		}
		params = d.NewParams()
		if len(saved) > 0 && json.Unmarshal(saved, params) != nil {
			return p.Bot
		}
	}
	if params == nil {
		return p.Bot
	}
	if mu, ok := params.(bots.ModelUser); ok && p.Model != "" && mu.ModelFile() == "" {
		mu.SetModelPath(p.Model)
	}
	return bots.Spec{Bot: p.Bot, Params: params}.Describe()
}

// UnmarshalJSON reads a player, keeping its bot parameters as SavedParams.
func (p *Player) UnmarshalJSON(data []byte) error {
	type plain Player
	var aux struct {
		plain
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*p = Player(aux.plain)
	p.Params = SavedParams(aux.Params)
	return nil
}

// ReadSummary reads a summary.json written by WriteJSON.
func ReadSummary(r io.Reader) (*Summary, error) {
	var s Summary
	var rules json.RawMessage
	s.Rules = &rules // kept as written, so the knobs keep the game's order
	dec := json.NewDecoder(r)
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	s.Rules = rules
	if s.Schema != SchemaV1 {
		return nil, fmt.Errorf("schema %q, want %q", s.Schema, SchemaV1)
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%v: not a run's summary (was it edited?)", err)
	}
	return &s, nil
}

// check refuses a summary read back that no run could have written and
// whose reports would be wrong or could not be drawn: counts that do not
// add up, a metric without its figure.
func (s *Summary) check() error {
	o := s.Outcomes
	switch {
	case s.Games < 0 || s.Failed < 0 || o.Seat0 < 0 || o.Seat1 < 0 || o.Draw < 0:
		return fmt.Errorf("a negative count of games")
	case o.Seat0+o.Seat1+o.Draw != s.Games:
		return fmt.Errorf("outcomes %d + %d + %d, but %d games", o.Seat0, o.Seat1, o.Draw, s.Games)
	case len(s.Players) != games.NumSeats:
		return fmt.Errorf("%d players, want %d", len(s.Players), games.NumSeats)
	}
	for _, r := range []Rate{s.Rates.Seat0, s.Rates.Seat1, s.Rates.Draw, s.Stalled} {
		if r.Count < 0 || r.N < 0 || r.Count > r.N {
			return fmt.Errorf("a rate of %d out of %d", r.Count, r.N)
		}
	}
	for _, m := range s.Metrics {
		switch {
		case m.Name == "":
			return fmt.Errorf("a metric without a name")
		case m.Kind == MetricRate && (m.Rate == nil || m.Mean != nil):
			return fmt.Errorf("metric %q of kind rate without its rate", m.Name)
		case m.Kind == MetricValue && (m.Mean == nil || m.Rate != nil):
			return fmt.Errorf("metric %q of kind value without its mean", m.Name)
		case m.Kind != MetricRate && m.Kind != MetricValue:
			return fmt.Errorf("metric %q of kind %q, want %s or %s", m.Name, m.Kind, MetricRate, MetricValue)
		}
	}
	return nil
}
