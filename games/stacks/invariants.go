package stacks

import (
	"fmt"

	"playtest/games"
)

// CheckInvariants verifies the position: 24 pieces, no stack above
// max_height, pieces only on white squares, 12 pieces per area without
// four_card_moves, the bitboards matching the heights, and every seat's
// cards accounted for (hand + stock + played = its stock, each card played
// at most once).
func (s *State) CheckInvariants() error {
	g := s.g
	pieces := 0
	var occ uint32
	var atHeight [Pieces + 1]uint32
	for sq := range Squares {
		h := int(s.height[sq])
		if h > g.maxHeight {
			return fmt.Errorf("stack of %d on %s exceeds max_height %d", h, squareName(sq), g.maxHeight)
		}
		pieces += h
		if h > 0 {
			occ |= 1 << sq
			atHeight[h] |= 1 << sq
		}
	}
	if pieces != Pieces {
		return fmt.Errorf("%d pieces on the board, want %d", pieces, Pieces)
	}
	if occ != s.occ || atHeight != s.atHeight {
		return fmt.Errorf("bitboards out of step with the heights")
	}
	if !g.fourCards {
		inA := 0
		for sq := range Squares {
			if areaA&(1<<sq) != 0 {
				inA += int(s.height[sq])
			}
		}
		if inA != Pieces/2 {
			return fmt.Errorf("area A holds %d pieces, want %d", inA, Pieces/2)
		}
	}
	turns := 0
	for seat := range 2 {
		var handN, stockN, playedN int
		for v := 1; v <= MaxValue; v++ {
			if s.hand[seat][v]+s.stock[seat][v]+s.played[seat][v] != g.stock[v] {
				return fmt.Errorf("seat %d: %d-cards: hand %d + stock %d + played %d ≠ %d",
					seat, v, s.hand[seat][v], s.stock[seat][v], s.played[seat][v], g.stock[v])
			}
			handN += int(s.hand[seat][v])
			stockN += int(s.stock[seat][v])
			playedN += int(s.played[seat][v])
		}
		if handN != int(s.handN[seat]) || stockN != int(s.stockN[seat]) {
			return fmt.Errorf("seat %d: hand or stock count out of step", seat)
		}
		if handN > g.hand {
			return fmt.Errorf("seat %d holds %d cards, hand_size is %d", seat, handN, g.hand)
		}
		if s.fixed && int(s.dealt[seat]) != handN+playedN {
			return fmt.Errorf("seat %d: %d cards dealt, %d drawn", seat, s.dealt[seat], handN+playedN)
		}
		if s.phase == phasePlay && stockN > 0 && handN != g.hand {
			return fmt.Errorf("seat %d plays with %d cards in hand and %d in stock", seat, handN, stockN)
		}
		turns += playedN
		if s.played4[seat] != (g.fourCards && s.played[seat][4] > 0) {
			return fmt.Errorf("seat %d: backward moves unlocked %v after %d 4-cards", seat, s.played4[seat], s.played[seat][4])
		}
	}
	if s.phase == phasePlay && s.handN[s.toMove] == 0 {
		return fmt.Errorf("%v to move with an empty hand", s.toMove)
	}
	if s.phase == phaseOver && !s.g.match && turns != 2*g.cards {
		return fmt.Errorf("the game ended after %d cards, want %d", turns, 2*g.cards)
	}
	if !s.g.match && int(s.plies) != turns {
		return fmt.Errorf("%d turns but %d cards played", s.plies, turns)
	}
	if s.phase != phaseOver && s.winner != games.NoPlayer {
		return fmt.Errorf("a winner before the end")
	}
	return nil
}
