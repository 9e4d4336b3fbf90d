package stacktics

import "playtest/games"

// cellStates is the number of states of a board cell (AppendCells): empty,
// or a stack by its owner (the seat's army or the other), its bottom
// piece's size and whether it is one piece or more.
const cellStates = 1 + 2*3*2

// CellBoard is the board a learner reads (implements games.Boarder): the
// board's squares row by row, each empty or a stack by owner, bottom size
// and height (one piece, or more), without symmetries (the armies' start
// columns need not mirror).
func (g *Game) CellBoard() games.CellBoard {
	id := make([]int, g.rows*g.cols)
	for c := range id {
		id[c] = c
	}
	return games.CellBoard{Rows: g.rows, Cols: g.cols, States: cellStates, Symmetries: [][]int{id}}
}

// AppendCells appends every square from seat's view (implements
// games.CellState): 0 empty, else 1 + owner·6 + (bottom size − 1)·2 +
// (height ≥ 2), owner 0 the seat's army and 1 the other's.
func (s *State) AppendCells(dst []uint8, seat games.Player) []uint8 {
	own := s.armyOf(seat)
	for row := range s.g.rows {
		for col := range s.g.cols {
			c := s.board[s.g.square(row, col)]
			if c&countMask == 0 {
				dst = append(dst, 0)
				continue
			}
			v := 1 + 2*(c.bottom()-Small)
			if c.owner() != own {
				v += 6
			}
			if c.height() >= 2 {
				v++
			}
			dst = append(dst, uint8(v))
		}
	}
	return dst
}
