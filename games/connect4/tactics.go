package connect4

import (
	"math/bits"

	"playtest/games"
	"playtest/games/inarow"
)

// The prover's hooks (games.WinFinder, SafeMover, ThreatOrderer,
// PackedKeyer): a stone can be played on each column's lowest empty cell
// only, and a stone under a cell where the other seat would win lets it
// win there next.

// playable is each column's lowest empty cell.
func (s *State) playable() uint64 {
	var p uint64
	for col := range s.g.rules.Cols {
		if h := int(s.height[col]); h < s.g.rules.Rows {
			p |= 1 << uint(s.g.Cell(h, col))
		}
	}
	return p
}

// WinningMove returns a column where the mover's stone makes k in a row
// (implements games.WinFinder).
func (s *State) WinningMove() (games.Move, bool) {
	if s.IsTerminal() || s.PieDecision() {
		return 0, false
	}
	w := s.Threats(s.ToMove) & s.playable()
	if w == 0 {
		return 0, false
	}
	return games.Move(bits.TrailingZeros64(w) % s.g.rules.Cols), true
}

// SafeMoves appends the columns after which the other seat cannot win at
// once (implements games.SafeMover): the one that blocks its only playable
// threat, if it has one (none if it has two), and never a column whose
// stone would lie under one of its threats.
func (s *State) SafeMoves(buf []games.Move) []games.Move {
	if s.IsTerminal() {
		return buf
	}
	if buf, pie := s.AppendPieMoves(buf); pie {
		return buf
	}
	theirs := s.Threats(s.ToMove.Opponent())
	play := s.playable()
	can := play
	if forced := theirs & play; forced != 0 {
		if forced&(forced-1) != 0 {
			return buf
		}
		can = forced
	}
	can &^= theirs >> uint(s.g.rules.Cols)
	for col := range s.g.rules.Cols {
		if h := int(s.height[col]); h < s.g.rules.Rows && can&(1<<uint(s.g.Cell(h, col))) != 0 {
			buf = append(buf, games.Move(col))
		}
	}
	return buf
}

// OrderMoves puts first the columns whose stone leaves the mover the most
// cells where it would win next, the central columns first among equals
// (implements games.ThreatOrderer).
func (s *State) OrderMoves(moves []games.Move) {
	if s.IsTerminal() || s.PieDecision() {
		return
	}
	me := s.ToMove
	before := s.Threats(me)
	cols := s.g.rules.Cols
	inarow.SortByScore(moves, func(m games.Move) int {
		cell := s.g.Cell(int(s.height[m]), int(m))
		d := 2*int(m) - (cols - 1)
		return 64*bits.OnesCount64(s.ThreatsWith(me, cell, before)) - max(d, -d)
	})
}

// PackedKey packs the position into 64 bits (implements
// games.PackedKeyer): rows + 1 bits a column, seat 0's stones and a bit
// above the column's top stone, then the pie bits; false when the board
// has more than 61 such bits.
func (s *State) PackedKey() (uint64, bool) {
	k, _, ok := s.packed()
	return k, ok
}

// PackedCanonicalKey is the least of the packed keys of the position and
// its mirror image.
func (s *State) PackedCanonicalKey() (uint64, bool) {
	k, mirror, ok := s.packed()
	return min(k, mirror), ok
}

// packed is the position's packed key and its mirror image's.
func (s *State) packed() (key, mirror uint64, ok bool) {
	rows, cols := s.g.rules.Rows, s.g.rules.Cols
	h := rows + 1
	if h*cols+3 > 64 {
		return 0, 0, false
	}
	mine := s.Stones[0]
	for col := range cols {
		column := uint64(1) << s.height[col]
		for row := range int(s.height[col]) {
			column |= (mine >> uint(s.g.Cell(row, col)) & 1) << uint(row)
		}
		key |= column << uint(col*h)
		mirror |= column << uint((cols-1-col)*h)
	}
	pie := s.PieBits()
	return key<<3 | pie, mirror<<3 | pie, true
}
