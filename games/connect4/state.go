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
		return
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
	return s.Check()
}
