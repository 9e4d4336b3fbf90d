package mnk

import (
	"math/bits"

	"playtest/games"
	"playtest/games/inarow"
)

// The prover's hooks (games.WinFinder, SafeMover, ThreatOrderer,
// PackedKeyer): every empty cell can be played.

// WinningMove returns a cell where the mover's stone makes k in a row
// (implements games.WinFinder).
func (s *State) WinningMove() (games.Move, bool) {
	if s.IsTerminal() || s.PieDecision() {
		return 0, false
	}
	w := s.Threats(s.ToMove)
	if w == 0 {
		return 0, false
	}
	return games.Move(bits.TrailingZeros64(w)), true
}

// SafeMoves appends the cells after which the other seat cannot win at
// once (implements games.SafeMover): every empty cell if it has no threat,
// the one that blocks it if it has one, none if it has two.
func (s *State) SafeMoves(buf []games.Move) []games.Move {
	if s.IsTerminal() {
		return buf
	}
	if buf, pie := s.AppendPieMoves(buf); pie {
		return buf
	}
	can := s.g.All() &^ s.Occupied()
	if theirs := s.Threats(s.ToMove.Opponent()); theirs != 0 {
		if theirs&(theirs-1) != 0 {
			return buf
		}
		can = theirs
	}
	for ; can != 0; can &= can - 1 {
		buf = append(buf, games.Move(bits.TrailingZeros64(can)))
	}
	return buf
}

// OrderMoves puts first the cells whose stone leaves the mover the most
// cells where it would win next, the central cells first among equals
// (implements games.ThreatOrderer).
func (s *State) OrderMoves(moves []games.Move) {
	if s.IsTerminal() || s.PieDecision() {
		return
	}
	me := s.ToMove
	before := s.Threats(me)
	inarow.SortByScore(moves, func(m games.Move) int {
		return 64*bits.OnesCount64(s.ThreatsWith(me, int(m), before)) + s.g.Centrality(int(m))
	})
}

// PackedKey is the position's base-3 key (implements games.PackedKeyer):
// exact on boards of at most inarow.MaxBase3Cells cells.
func (s *State) PackedKey() (uint64, bool) { return s.Base3Key(s.Stones) }

// PackedCanonicalKey is the canonical image's base-3 key.
func (s *State) PackedCanonicalKey() (uint64, bool) { return s.Base3Key(s.CanonicalStones()) }
