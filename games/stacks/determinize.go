package stacks

import (
	"playtest/games"
	"playtest/games/pcg"
)

// Hidden information
//
// A seat sees the board, the scores, every card played and its own hand.
// It does not see the other hand (unless open_hands) nor the order of
// either stock. Draws are chance outcomes taken when they happen, so the
// stocks hold no hidden order: only their contents, which follow from what
// is hidden in the hands.

// Determinize re-deals the other seat's hand uniformly from its unplayed
// cards (its hand and stock together), as the spec says; the stock keeps the
// rest. With open_hands nothing is hidden but the stock order, which is
// never stored. A fixed deal (perft) is dropped: the stocks' order is
// hidden from both seats, so later draws become chance again.
func (s *State) Determinize(observer games.Player, rng *pcg.Rand) {
	s.fixed = false
	if s.g.rules.OpenHands {
		return
	}
	opp := observer.Opponent()
	var pool [MaxValue + 1]uint8
	left := 0
	for v := 1; v <= MaxValue; v++ {
		pool[v] = s.hand[opp][v] + s.stock[opp][v]
		left += int(pool[v])
	}
	var hand [MaxValue + 1]uint8
	for range s.handN[opp] {
		x := rng.IntN(left)
		v := 1
		for ; x >= int(pool[v]); v++ {
			x -= int(pool[v])
		}
		pool[v]--
		hand[v]++
		left--
	}
	s.hand[opp], s.stock[opp] = hand, pool
}
