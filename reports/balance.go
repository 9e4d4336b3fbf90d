package reports

import (
	"math"

	"playtest/games"
	"playtest/reports/stats"
	"playtest/sim"
)

// Balance holds the balance metrics as Ludii defines them, each with its
// sample size: how fair, decisive and long the games are, and how many real
// choices the players had.
type Balance struct {
	// AdvantageP1 is the share of all games seat 0 won.
	AdvantageP1 Rate `json:"advantage_p1"`
	// Balance is 1 − |seat 0's win rate − seat 1's|, with a 95% interval.
	Balance Estimate `json:"balance"`
	// SeatBiasP is the two-sided p-value of the test that the seat does
	// not matter, the one the headline's interval inverts: with
	// seat-swapped pairs the score test over the pairs (SeatBiasN pairs;
	// stats.PairTest), otherwise Wilson's score test that seat 0 wins half
	// of the decisive games (SeatBiasN games). SeatBiasTest names the
	// test. SeatBiasExactP is the exact test beside it (the sign-flip
	// test over the pairs, or the binomial test), named by
	// SeatBiasExactTest: the two differ a little at the margin.
	SeatBiasP         float64 `json:"seat_bias_p"`
	SeatBiasTest      string  `json:"seat_bias_test"`
	SeatBiasN         int     `json:"seat_bias_n"`
	SeatBiasExactP    float64 `json:"seat_bias_exact_p"`
	SeatBiasExactTest string  `json:"seat_bias_exact_test"`
	// Completion is the share of games with a winner.
	Completion Rate `json:"completion"`
	// Drawishness is the share of draws that are not stalled games.
	Drawishness Rate `json:"drawishness"`
	// Timeouts is the share of stalled games (a move, turn or game cap).
	Timeouts Rate `json:"timeouts"`
	// DurationTurns is the mean game length in plies (turns as each game
	// counts them) with a 95% percentile bootstrap interval.
	DurationTurns Estimate `json:"duration_turns"`
	// DecisionMoves is the share of the players' decisions that had more
	// than one legal move; BranchingFactor the mean number of legal moves
	// at a player's decision. PlayerDecisions is the number of the
	// players' decisions; UncountedDecisions those whose legal moves were
	// not counted (random bots drawing through the game's sampler: see
	// sim.Record.Uncounted), left out when 0. The two figures' sample size
	// is CountedDecisions().
	DecisionMoves      float64 `json:"decision_moves"`
	BranchingFactor    float64 `json:"branching_factor"`
	PlayerDecisions    int     `json:"player_decisions"`
	UncountedDecisions int     `json:"uncounted_decisions,omitempty"`
}

// CountedDecisions returns the number of decisions whose legal moves were
// counted: the sample size of DecisionMoves and BranchingFactor.
func (b Balance) CountedDecisions() int { return b.PlayerDecisions - b.UncountedDecisions }

// Estimate is a value with its 95% interval.
type Estimate struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// PairStats are the pentanomial statistics of seat-swapped pairs: seat 0's
// mean score per game over each pair (both players sat there once, so
// their strength cancels: the first-move advantage on equal deals), and
// player 0's (the seat cancels: how much stronger player 0 is). An odd
// last game has no pair and is left out.
type PairStats struct {
	Seat0   stats.PairScore `json:"seat0"`
	Player0 stats.PairScore `json:"player0"`
	// Correlation is the within-pair correlation of seat 0's score (the
	// intraclass correlation of the two games of a deal): above 0 when a
	// deal favours the same seat in both games, which makes a pair worth
	// less than two independent games.
	Correlation float64 `json:"correlation"`
}

// bootstrapResamples is the number of resamples of the bootstrap
// intervals.
const bootstrapResamples = 1000

// balanceAcc accumulates what Balance and PairStats need.
type balanceAcc struct {
	playerDecisions, uncounted, choices, legalMoves int
	seat0Pairs, player0Pairs                        stats.PairSeries
	// 0/1 series of seat 0's wins, seat 1's, draws, draws that are not
	// stalled games and stalled games, for the rates' paired intervals.
	seat0WinPairs, seat1WinPairs, drawPairs, drawishPairs, stalledPairs stats.PairSeries
	// seat0Score holds seat 0's score per game, for the correlation.
	seat0Score stats.Moments
}

// add folds in one record; pairs says records come in seat-swapped pairs.
func (b *balanceAcc) add(r *sim.Record, pairs bool) {
	b.playerDecisions += r.PlayerDecisions
	b.uncounted += r.Uncounted
	b.choices += r.Choices
	b.legalMoves += r.LegalMoves
	if pairs {
		b.seat0Pairs.Add(r.Index, r.Result.ScoreFor(games.Seat0))
		b.player0Pairs.Add(r.Index, r.Result.ScoreFor(r.SeatOf(0)))
		b.seat0WinPairs.Add(r.Index, indicator(r.Result.Winner == games.Seat0))
		b.seat1WinPairs.Add(r.Index, indicator(r.Result.Winner == games.Seat1))
		b.drawPairs.Add(r.Index, indicator(r.Result.IsDraw()))
		stalled := r.Result.IsDraw() && games.IsStalled(r.Result.Reason)
		b.drawishPairs.Add(r.Index, indicator(r.Result.IsDraw() && !stalled))
		b.stalledPairs.Add(r.Index, indicator(stalled))
		b.seat0Score.Add(r.Result.ScoreFor(games.Seat0))
	}
}

// balance computes the Balance of the games so far.
func (a *Aggregator) balance() Balance {
	n := a.games
	o := a.outcomes
	draws := o.Draw - a.stalled
	b := Balance{
		AdvantageP1:        NewRate(o.Seat0, n),
		Completion:         NewRate(o.Seat0+o.Seat1, n),
		Drawishness:        NewRate(draws, n),
		Timeouts:           NewRate(a.stalled, n),
		SeatBiasP:          stats.WilsonTest(o.Seat0, o.Seat0+o.Seat1),
		SeatBiasTest:       TestWilsonScore,
		SeatBiasN:          o.Seat0 + o.Seat1,
		SeatBiasExactP:     stats.BinomialTest(o.Seat0, o.Seat0+o.Seat1, 0.5),
		SeatBiasExactTest:  TestBinomial,
		PlayerDecisions:    a.bal.playerDecisions,
		UncountedDecisions: a.bal.uncounted,
	}
	b.Balance = balanceEstimate(o.Seat0, o.Seat1, n)
	if a.info.Pairs && a.bal.seat0Pairs.Pairs() > 0 {
		// The two games of a deal are not independent: every rate's
		// interval is over the pairs, as the headline's and the
		// outcomes' are.
		b.SeatBiasP, b.SeatBiasTest, b.SeatBiasN = a.bal.seat0Pairs.PairTest(), TestPairScore, a.bal.seat0Pairs.Pairs()
		b.SeatBiasExactP, b.SeatBiasExactTest = a.bal.seat0Pairs.SignFlipTest(), TestSignFlip
		b.AdvantageP1 = pairedRate(o.Seat0, n, &a.bal.seat0WinPairs.Pentanomial)
		draw := pairedRate(o.Draw, n, &a.bal.drawPairs.Pentanomial)
		b.Completion.Low, b.Completion.High = 1-draw.High, 1-draw.Low
		b.Drawishness = pairedRate(draws, n, &a.bal.drawishPairs.Pentanomial)
		b.Timeouts = pairedRate(a.stalled, n, &a.bal.stalledPairs.Pentanomial)
		// Seat 0's win rate minus seat 1's is twice seat 0's score less
		// one, game by game: its interval is the paired score's.
		iv := a.bal.seat0Pairs.PairedWilson(stats.Z95)
		b.Balance = balanceFromDifference(float64(o.Seat0-o.Seat1)/float64(n), 2*iv.Low-1, 2*iv.High-1)
	}
	iv := stats.BootstrapMean(&a.plies, bootstrapResamples, 0.05, a.info.Seed)
	b.DurationTurns = Estimate{Value: round6(a.plies.Mean()), Low: round6(iv.Low), High: round6(iv.High)}
	if d := b.CountedDecisions(); d > 0 {
		b.DecisionMoves = float64(a.bal.choices) / float64(d)
		b.BranchingFactor = float64(a.bal.legalMoves) / float64(d)
	}
	return b
}

// balanceEstimate is 1 − |p0 − p1| for the win rates of the two seats, with
// the normal interval of the difference of two multinomial shares
// (variance (p0 + p1 − (p0 − p1)²) / n) carried through the absolute value.
func balanceEstimate(w0, w1, n int) Estimate {
	if n == 0 {
		return Estimate{Value: 1, Low: 0, High: 1}
	}
	p0, p1 := float64(w0)/float64(n), float64(w1)/float64(n)
	d := p0 - p1
	se := math.Sqrt(math.Max(0, p0+p1-d*d) / float64(n))
	return balanceFromDifference(d, d-stats.Z95*se, d+stats.Z95*se)
}

// balanceFromDifference is 1 − |d| for the difference d of the seats' win
// rates, its interval [lo, hi] carried through the absolute value.
func balanceFromDifference(d, lo, hi float64) Estimate {
	minAbs, maxAbs := math.Min(math.Abs(lo), math.Abs(hi)), math.Max(math.Abs(lo), math.Abs(hi))
	if lo <= 0 && hi >= 0 {
		minAbs = 0
	}
	return Estimate{Value: 1 - math.Abs(d), Low: math.Max(0, 1-maxAbs), High: 1 - minAbs}
}

// pairStats returns the pair statistics, or nil without pairs.
func (a *Aggregator) pairStats() *PairStats {
	if !a.info.Pairs || a.bal.seat0Pairs.Pairs() == 0 {
		return nil
	}
	sd := a.bal.seat0Score.SD()
	return &PairStats{Seat0: a.bal.seat0Pairs.Score(stats.Z95), Player0: a.bal.player0Pairs.Score(stats.Z95),
		Correlation: round6(a.bal.seat0Pairs.Correlation(sd * sd))}
}

// indicator is 1 for true and 0 for false.
func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
