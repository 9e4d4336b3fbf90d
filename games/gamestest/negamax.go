package gamestest

import "playtest/games"

// Negamax is a plain negamax without pruning or tricks, memoised by the
// exact key (games.Keyer): the outcome of s (unfinished) for its mover, +1
// a win, 0 a draw, −1 a loss. It is the oracle tests hold provers, bots
// and judges to on small boards, knowing nothing of games/prove.
func Negamax(s games.State, memo map[string]int) int {
	key := string(s.(games.Keyer).AppendKey(nil))
	if v, ok := memo[key]; ok {
		return v
	}
	mover := s.CurrentPlayer()
	best := -2
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		best = max(best, After(c, mover, memo))
	}
	memo[key] = best
	return best
}

// After is the outcome for mover of c, the position a move of mover's left
// (finished or not): Negamax's value from mover's side.
func After(c games.State, mover games.Player, memo map[string]int) int {
	switch {
	case c.IsTerminal():
		return int(c.Result().ValueFor(mover))
	case c.CurrentPlayer() == mover:
		return Negamax(c, memo)
	}
	return -Negamax(c, memo)
}
