package stacktics

import "playtest/games"

// Heuristic weights of Evaluate.
const (
	// WinScore is the evaluation of a won position (lost: −WinScore).
	WinScore = 1000.0
	// MobilityWeight is the value of one legal move, in pips.
	MobilityWeight = 0.05
)

// Evaluate scores the position for seat: WinScore or −WinScore once the game
// is decided (0 for a draw); otherwise material plus mobility,
//
//	(pips captured by seat's army − pips captured by the other army)
//	+ MobilityWeight × (legal moves of seat's army − legal moves of the other)
//
// with the moves counted as if each army were to move. A pip of material
// outweighs twenty moves of mobility, so the greedy bot takes any capture it
// can and otherwise spreads out.
func (s *State) Evaluate(seat games.Player) float64 {
	if s.phase == phaseOver {
		return WinScore * s.Result().ValueFor(seat)
	}
	army := s.armyOf(seat)
	material := float64(s.captured[army]) - float64(s.captured[army^1])
	return material + MobilityWeight*float64(s.mobility(army)-s.mobility(army^1))
}

// ZeroSum reports that Evaluate is zero-sum: material and mobility are
// differences, so Evaluate(Seat1) = −Evaluate(Seat0) exactly.
func (s *State) ZeroSum() bool { return true }

// ChanceFree reports that Stacktics has no chance and no hidden
// information.
func (s *State) ChanceFree() bool { return true }

// MetricLargeLoserWins is the metric of the designer's claim on losing a
// Large (see AppendMetrics).
const MetricLargeLoserWins = "large_vs_small_medium.large_loser_wins"

// AppendMetrics reports the Stacktics figures of a finished game:
//
//   - captures: number of captures (value);
//   - pie.swap: seat 1 took the swap (rate; games with a pie decision);
//   - pie.keep.seat1_wins, pie.swap.seat1_wins: seat 1 won after keeping,
//     after swapping (rates; decisive games where that choice was made);
//   - first_capture.capturer_wins: the army that made the first capture won
//     (rate; decisive games with a capture);
//   - first_capture_large.victim_wins: the army that lost a Large in the
//     first capture of the game won (rate; decisive games whose first
//     capture took a Large);
//   - large_vs_small_medium.large_loser_wins: the army whose first three
//     pips lost were one Large won against the army whose first three were
//     a Small and a Medium (rate; decisive games where both happened).
//     Below 50%, the designer's "losing a large is worse than losing both
//     a small and a medium" holds.
//
// Every "wins" rate leaves draws out: a draw is neither side's win, and
// counting it as a loss for one side would push the rate below 50% by the
// draws alone.
func (s *State) AppendMetrics(dst []games.Metric) []games.Metric {
	dst = append(dst, games.Value("captures", float64(s.captures)))
	decisive := s.winner != games.NoPlayer
	if s.pie >= 0 {
		seat1Won := s.winner == games.Seat1
		dst = append(dst, games.Rate(games.MetricPieSwap, s.pie == 1))
		switch {
		case !decisive:
		case s.pie == 1:
			dst = append(dst, games.Rate(games.MetricPieSwapSeat1Wins, seat1Won))
		default:
			dst = append(dst, games.Rate(games.MetricPieKeepSeat1Wins, seat1Won))
		}
	}
	if !decisive {
		return dst
	}
	if s.firstCapturer >= 0 {
		capturer := s.seatOf(int(s.firstCapturer))
		dst = append(dst, games.Rate("first_capture.capturer_wins", s.winner == capturer))
		if s.firstTookLarge {
			dst = append(dst, games.Rate("first_capture_large.victim_wins", s.winner == capturer.Opponent()))
		}
	}
	for army := range 2 {
		if s.firstLoss[army] == lossLarge && s.firstLoss[army^1] == lossSmallMedium {
			dst = append(dst, games.Rate(MetricLargeLoserWins, s.winner == s.seatOf(army)))
		}
	}
	return dst
}
