package mnk

import (
	"playtest/games"
	"playtest/games/inarow"
)

// Game is one variant of an m,n,k-game: its rules and the board's tables
// (inarow.Board: lines, keys, the heuristic's features, the reasons a game
// ends), immutable and shared by every state and goroutine.
type Game struct {
	rules Rules
	*inarow.Board
	centre, corners uint64 // the middle cell(s) and the corners, for the restrictions
}

// New builds the game of validated rules.
func New(r Rules) *Game {
	g := &Game{rules: r, Board: inarow.NewBoard(r.Rows, r.Cols, r.K, r.PieRule)}
	for _, row := range []int{(r.Rows - 1) / 2, r.Rows / 2} {
		for _, col := range []int{(r.Cols - 1) / 2, r.Cols / 2} {
			g.centre |= 1 << uint(g.Cell(row, col))
		}
	}
	for _, row := range []int{0, r.Rows - 1} {
		for _, col := range []int{0, r.Cols - 1} {
			g.corners |= 1 << uint(g.Cell(row, col))
		}
	}
	return g
}

// Name is the catalog name.
func (g *Game) Name() string { return Definition.Name }

// NewState returns the empty board, seat 0 to move.
func (g *Game) NewState() games.State { return &State{Position: inarow.Start(g.Board), g: g} }

// MaxLegalMoves is the number of cells (every empty cell is a move), and
// at least the pie decision's two.
func (g *Game) MaxLegalMoves() int { return max(g.rules.Rows*g.rules.Cols, 2) }

// CellBoard is the board a learner reads (implements games.Boarder):
// each cell empty, the seat's or the other's, under the board's
// reflections and rotations.
func (g *Game) CellBoard() games.CellBoard { return g.NewCellBoard(3) }
