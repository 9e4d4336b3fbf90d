package mnk

import (
	"math/bits"

	"playtest/games"
	"playtest/games/inarow"
)

// State is one m,n,k-game in progress: an inarow.Position (the stones,
// the result, keys, invariants, heuristic and drawings) and its game.
type State struct {
	inarow.Position
	g *Game
}

// LegalMoves appends every empty cell, lowest first (a move is the cell's
// index), or the pie decision's keep and swap.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.IsTerminal() {
		return buf
	}
	if buf, pie := s.AppendPieMoves(buf); pie {
		return buf
	}
	for free := s.g.All() &^ s.Occupied(); free != 0; free &= free - 1 {
		buf = append(buf, games.Move(bits.TrailingZeros64(free)))
	}
	return buf
}

// Apply places the mover's stone on cell m (or plays the pie decision).
func (s *State) Apply(m games.Move) {
	if !s.ApplyPie(m) {
		s.Place(int(m))
	}
}

// Clone returns an independent copy.
func (s *State) Clone() games.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src (a state of the same game).
func (s *State) CopyFrom(src games.State) { *s = *src.(*State) }

// CheckInvariants checks what every position must satisfy (implements
// games.InvariantChecker; inarow.Position.Check).
func (s *State) CheckInvariants() error { return s.Check() }
