package connect4

import (
	"fmt"

	"playtest/games"
	"playtest/games/inarow"
)

// State is one Connect Four game in progress: an inarow.Position (the
// stones, the result, keys, invariants, heuristic and drawings), each
// column's height, and its game.
type State struct {
	inarow.Position
	g      *Game
	height [inarow.MaxSide]uint8
	// cols is each seat's stones column by column, rows + 1 bits a column
	// (the top bit always empty), kept where the board fits 64 such bits
	// (Game.bits): the prover's hooks work on them (tactics.go).
	cols [2]uint64
}

// LegalMoves appends every column with room, from the left (a move is the
// column's index, the stone landing on its lowest empty cell), or the pie
// decision's keep and swap.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.IsTerminal() {
		return buf
	}
	if buf, pie := s.AppendPieMoves(buf); pie {
		return buf
	}
	for col := range s.g.rules.Cols {
		if int(s.height[col]) < s.g.rules.Rows {
			buf = append(buf, games.Move(col))
		}
	}
	return buf
}

// Apply drops the mover's stone into column m (or plays the pie decision).
func (s *State) Apply(m games.Move) {
	if s.ApplyPie(m) {
		if s.Pie == inarow.PieSwapped {
			s.cols[0], s.cols[1] = s.cols[1], s.cols[0]
		}
		return
	}
	if h := s.g.colBits; h != 0 {
		s.cols[s.ToMove&1] |= 1 << (uint(m)*h + uint(s.height[m]))
	}
	s.Place(s.g.Cell(int(s.height[m]), int(m)))
	s.height[m]++
}

// Clone returns an independent copy.
func (s *State) Clone() games.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src (a state of the same game).
func (s *State) CopyFrom(src games.State) { *s = *src.(*State) }

// SetKey makes s the position a key describes (implements games.Keyer):
// the columns' heights follow from the stones.
func (s *State) SetKey(key []byte) {
	s.Position.SetKey(key)
	s.height = [inarow.MaxSide]uint8{}
	for col := range s.g.rules.Cols {
		for int(s.height[col]) < s.g.rules.Rows && s.Occupied()&(1<<uint(s.g.Cell(int(s.height[col]), col))) != 0 {
			s.height[col]++
		}
	}
	s.cols = s.columns()
}

// columns is each seat's stones column by column, or zeros where the
// board does not fit.
func (s *State) columns() (cols [2]uint64) {
	if s.g.bits == nil {
		return cols
	}
	h := s.g.bits.height
	for col := range s.g.rules.Cols {
		for row := range int(s.height[col]) {
			bit := uint64(1) << (uint(col)*h + uint(row))
			if s.Stones[0]&(1<<uint(s.g.Cell(row, col))) != 0 {
				cols[0] |= bit
			} else {
				cols[1] |= bit
			}
		}
	}
	return cols
}

// CheckInvariants checks what every position must satisfy (implements
// games.InvariantChecker): inarow.Position.Check's, and each column's
// stones lying on its bottom rows, as many as its height (none floats).
func (s *State) CheckInvariants() error {
	for col := range s.g.rules.Cols {
		for row := range s.g.rules.Rows {
			filled := s.Occupied()&(1<<uint(s.g.Cell(row, col))) != 0
			if filled != (row < int(s.height[col])) {
				return fmt.Errorf("column %c: height %d, but row %d is filled %v (stones float)", 'a'+col, s.height[col], row+1, filled)
			}
		}
	}
	if want := s.columns(); want != s.cols {
		return fmt.Errorf("the column bitboards %#x; the stones give %#x", s.cols, want)
	}
	return s.Check()
}

// CellPlayable is the state of an empty cell a stone dropped in its
// column would land on (AppendCells): Thill, Koch and Konen's fourth state,
// which tells a threat that can be played from one that cannot yet.
const CellPlayable = 3

// AppendCells appends every cell from seat's view: empty, the seat's, the
// other's, or empty and playable now (implements games.CellState).
func (s *State) AppendCells(dst []uint8, seat games.Player) []uint8 {
	start := len(dst)
	dst = s.Position.AppendCells(dst, seat)
	if s.IsTerminal() {
		return dst
	}
	for col := range s.g.rules.Cols {
		if h := int(s.height[col]); h < s.g.rules.Rows {
			dst[start+s.g.Cell(h, col)] = CellPlayable
		}
	}
	return dst
}
