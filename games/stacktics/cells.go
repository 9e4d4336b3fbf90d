package stacktics

import "playtest/games"

// cellStates is the number of states of a board cell (AppendCells): empty,
// or a stack by its owner (the seat's army or the other), its bottom
// piece's size and whether it is one piece or more.
const cellStates = 1 + 2*3*2

// CellBoard is the board a learner reads (implements games.Boarder): the
// board's squares row by row from the seat's own home row, each empty or a
// stack by owner, bottom size and height (one piece, or more), without
// symmetries (the armies' start columns need not mirror).
func (g *Game) CellBoard() games.CellBoard {
	id := make([]int, g.rows*g.cols)
	for c := range id {
		id[c] = c
	}
	return games.CellBoard{Rows: g.rows, Cols: g.cols, States: cellStates, Symmetries: [][]int{id}}
}

// AppendCells appends every square from seat's view (implements
// games.CellState): 0 empty, else 1 + owner·6 + (bottom size − 1)·2 +
// (height ≥ 2), owner 0 the seat's army and 1 the other's. The board is
// turned to the seat: its cell row 0 is the home row of the army it
// commands (B's board upside down), so that a pattern a network learns
// for one army is the same pattern for the other (the game is the same
// under that turn: the armies start on mirrored home rows, and every
// piece moves alike in every direction).
func (s *State) AppendCells(dst []uint8, seat games.Player) []uint8 {
	own := s.armyOf(seat)
	states := &cellOfView[own]
	for r := range s.g.rows {
		row := r
		if own == ArmyB {
			row = s.g.rows - 1 - r
		}
		line := s.board[s.g.square(row, 0):][:s.g.cols]
		for _, c := range line {
			dst = append(dst, states[c&cellBits])
		}
	}
	return dst
}

// cellBits are the bits of a cell that its cell state reads: the pieces'
// counts and the owner.
const cellBits = countMask | ownerB

// cellOfView[army][c] is the cell state of c from the view of the seat
// commanding army (AppendCells), for every cell: one lookup a square.
var cellOfView = func() (t [2][cellBits + 1]uint8) {
	for own := range 2 {
		for c := range cell(cellBits + 1) {
			if c&countMask == 0 {
				continue
			}
			v := 1 + 2*(c.bottom()-Small)
			if c.owner() != own {
				v += 6
			}
			if c.height() >= 2 {
				v++
			}
			t[own][c] = uint8(v)
		}
	}
	return t
}()
