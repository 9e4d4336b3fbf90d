package stacks

import "playtest/games"

// WinScore is the evaluation of a won game or match (lost: −WinScore).
const WinScore = 1000.0

// Evaluate scores the position for seat: ±WinScore once the game (or
// match) is over, else seat's points minus the other's (in a match, the
// running totals). Points are public, so the evaluation uses nothing the
// seat cannot see.
func (s *State) Evaluate(seat games.Player) float64 {
	if s.phase == phaseOver {
		return WinScore * s.Result().ValueFor(seat)
	}
	sc := s.Scores()
	return float64(sc[seat] - sc[seat.Opponent()])
}

// turnNames name the turn kinds in metrics.
var turnNames = [turnKinds]string{"stack", "minus1", "minus2", "minus3", "minus4", "minus5"}

// AppendMetrics reports the figures of a finished game or match:
//
//   - score.seat0, score.seat1 and margin (seat 0 − seat 1): the final
//     scores (in a match, the totals);
//   - turns.K.seatN: the share of seat N's turns that were of kind K: stack
//     (a stacking move), minus1, minus2, minus4, and with four_card_moves
//     minus3 and minus5;
//   - with match play: games (games in the match, counting one cut short)
//     and, once per finished game of the match, game.starter_wins (the
//     game's first mover won it), game.seat0_wins and game.tie; with
//     match.end immediately, match.cut_short (the match ended during a
//     game).
func (s *State) AppendMetrics(dst []games.Metric) []games.Metric {
	sc := s.Scores()
	dst = append(dst,
		games.Value("score.seat0", float64(sc[0])),
		games.Value("score.seat1", float64(sc[1])),
		games.Value("margin", float64(sc[0]-sc[1])),
	)
	seatNames := [2]string{"seat0", "seat1"}
	for seat := range 2 {
		turns := uint32(0)
		for _, n := range s.turnKinds[seat] {
			turns += n
		}
		for k, name := range turnNames {
			if (k == turnMinus3 || k == turnMinus5) && !s.g.fourCards || turns == 0 {
				continue
			}
			dst = append(dst, games.Value("turns."+name+"."+seatNames[seat], float64(s.turnKinds[seat][k])/float64(turns)))
		}
	}
	if !s.g.match {
		return dst
	}
	played := s.gamesDone
	if s.cutShort {
		played++
	}
	dst = append(dst, games.Value("games", float64(played)))
	if s.g.endNow {
		dst = append(dst, games.Rate("match.cut_short", s.cutShort))
	}
	for i := range s.gamesDone {
		dst = append(dst, games.Rate("game.tie", i < s.gameTies))
	}
	// Who won a game of the match: over the games with a winner, ties left
	// out (a tie is neither seat's win).
	for i := range s.gamesDone - s.gameTies {
		dst = append(dst,
			games.Rate("game.starter_wins", i < s.starterWins),
			games.Rate("game.seat0_wins", i < s.seat0Wins))
	}
	return dst
}
