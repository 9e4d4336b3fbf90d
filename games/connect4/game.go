package connect4

import (
	"math/bits"

	"playtest/games"
)

// Game is one variant of a Connect Four game: its rules and the tables built from them,
// immutable and shared by every state and goroutine.
type Game struct {
	rules      Rules
	cells      int
	all        uint64   // every cell of the board
	lines      []uint64 // every line of k cells
	linesAt    [64][]int32
	zobrist    [2][64]uint64
	zobristTwo uint64 // the key of seat 1 to move
	zobristPie uint64 // the key of the pie decision pending
}

// New builds the game of validated rules.
func New(r Rules) *Game {
	g := &Game{rules: r, cells: r.Rows * r.Cols}
	g.all = 1<<uint(g.cells) - 1
	if g.cells == 64 {
		g.all = ^uint64(0)
	}
	for row := range r.Rows {
		for col := range r.Cols {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				endRow, endCol := row+d[0]*(r.K-1), col+d[1]*(r.K-1)
				if endRow >= r.Rows || endCol < 0 || endCol >= r.Cols {
					continue
				}
				var line uint64
				for i := range r.K {
					line |= 1 << uint(g.cell(row+d[0]*i, col+d[1]*i))
				}
				for c := line; c != 0; c &= c - 1 {
					g.linesAt[bits.TrailingZeros64(c)] = append(g.linesAt[bits.TrailingZeros64(c)], int32(len(g.lines)))
				}
				g.lines = append(g.lines, line)
			}
		}
	}
	x := uint64(0x9e3779b97f4a7c15) // splitmix64: the same keys every run
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for seat := range g.zobrist {
		for c := range g.zobrist[seat] {
			g.zobrist[seat][c] = next()
		}
	}
	g.zobristTwo = next()
	g.zobristPie = next()
	return g
}

// cell is the index of the cell at row and col (row 0 at the bottom).
func (g *Game) cell(row, col int) int { return row*g.rules.Cols + col }

// Name is the catalog name.
func (g *Game) Name() string { return Definition.Name }

// NewState returns the empty board, seat 0 to move.
func (g *Game) NewState() games.State { return &State{g: g, winner: games.NoPlayer} }

// MaxLegalMoves is the number of columns, and at least the pie
// decision's two.
func (g *Game) MaxLegalMoves() int { return max(g.rules.Cols, 2) }

// Reasons lists how a game of a Connect Four game ends (implements games.Reasoner).
func (g *Game) Reasons() []games.ReasonDoc {
	return []games.ReasonDoc{
		{Name: ReasonLine, Outcome: games.Decisive},
		{Name: ReasonFull, Outcome: games.Drawn},
	}
}

// The reasons a game ends.
const (
	ReasonLine = "line"       // a seat made k in a row
	ReasonFull = "full-board" // the board filled without a line
)
