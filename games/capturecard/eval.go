package capturecard

import (
	"math/bits"

	"playtest/games"
)

// WinScore is the evaluation of a won game (lost: −WinScore).
const WinScore = 1000.0

// Evaluate scores the position for seat: ±WinScore once the game is over;
// before, 10 × (the most cards seat holds in one suit − the same for the
// opponent) + (seat's pieces on the board − the opponent's), and −20 when
// seat holds three corners and all_corners_loses (one more would lose).
func (s *State) Evaluate(seat games.Player) float64 {
	if s.phase == phaseOver {
		return WinScore * s.Result().ValueFor(seat)
	}
	v := 10*(s.bestSuit(seat)-s.bestSuit(seat.Opponent())) + int(s.onBoard[seat]) - int(s.onBoard[seat.Opponent()])
	if s.g.rules.AllCornersLoses && s.cornersHeld(seat) == 3 {
		v -= 20
	}
	return float64(v)
}

// bestSuit is the most cards of one suit p has a piece on.
func (s *State) bestSuit(p games.Player) int {
	best := 0
	for _, suit := range s.suits {
		best = max(best, bits.OnesCount32(s.pieces[p]&suit))
	}
	return best
}

func (s *State) cornersHeld(p games.Player) int {
	n := 0
	for _, c := range corners {
		if s.owner[c] >= 0 && games.Player(s.owner[c]) == p {
			n++
		}
	}
	return n
}

// AppendMetrics reports the figures of a finished game: how it ended per
// seat (suit_complete.seatN: seat N completed a suit; all_corners.seatN:
// seat N lost by holding all corners), turns, Jokers played
// (jokers_played), pieces knocked off and shrunk in the game (knocked_off,
// shrunk), and each seat's pieces knocked off (knocked_off.seatN).
func (s *State) AppendMetrics(dst []games.Metric) []games.Metric {
	suit := s.reason == ReasonSuitComplete
	corners := s.reason == ReasonAllCorners
	return append(dst,
		games.Rate("suit_complete.seat0", suit && s.winner == games.Seat0),
		games.Rate("suit_complete.seat1", suit && s.winner == games.Seat1),
		games.Rate("all_corners.seat0", corners && s.winner == games.Seat1),
		games.Rate("all_corners.seat1", corners && s.winner == games.Seat0),
		games.Value("turns", float64(s.turns)),
		games.Value("jokers_played", float64(s.jokersPlayed[0]+s.jokersPlayed[1])),
		games.Value("knocked_off", float64(s.knockedOff[0]+s.knockedOff[1])),
		games.Value("knocked_off.seat0", float64(s.knockedOff[0])),
		games.Value("knocked_off.seat1", float64(s.knockedOff[1])),
		games.Value("shrunk", float64(s.shrunk[0]+s.shrunk[1])),
	)
}
