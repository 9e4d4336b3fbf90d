package connect4

import (
	"playtest/games"
	"playtest/games/inarow"
)

// Game is one variant of Connect Four: its rules and the board's tables
// (inarow.Board: lines, keys, the heuristic's features, the reasons a game
// ends), immutable and shared by every state and goroutine.
type Game struct {
	rules Rules
	*inarow.Board
	bits *columnBits // nil where rows + 1 bits a column do not fit 64
	// colBits is bits.height where bits is kept, else 0: Apply's shift,
	// read without following bits.
	colBits uint
}

// New builds the game of validated rules.
func New(r Rules) *Game {
	g := &Game{rules: r, Board: inarow.NewBoard(r.Rows, r.Cols, r.K, r.PieRule).LeftRightOnly(), bits: newColumnBits(r)}
	if g.bits != nil {
		g.colBits = g.bits.height
	}
	return g
}

// Name is the catalog name.
func (g *Game) Name() string { return Definition.Name }

// NewState returns the empty board, seat 0 to move.
func (g *Game) NewState() games.State { return &State{Position: inarow.Start(g.Board), g: g} }

// MaxLegalMoves is the number of columns, and at least the pie
// decision's two.
func (g *Game) MaxLegalMoves() int { return max(g.rules.Cols, 2) }

// CellBoard is the board a learner reads (implements games.Boarder):
// each cell empty, the seat's, the other's, or empty and playable now
// (CellPlayable: a stone dropped in its column lands there), under the
// left-right mirror.
func (g *Game) CellBoard() games.CellBoard { return g.NewCellBoard(4) }
