package stacktics

import (
	"playtest/games"
)

// Piece sizes; a piece's size is also its pip count.
const (
	Small  = 1
	Medium = 2
	Large  = 3
)

// Armies. Army A starts on row 0 and moves first; army B starts on the last
// row. Without a swap, seat 0 commands A.
const (
	ArmyA = 0
	ArmyB = 1
)

// Directions index the rays of a square: 0-3 orthogonal (rook), 4-7
// diagonal (bishop).
var directions = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// Game is an immutable Stacktics variant: resolved rules and the board's
// precomputed geometry. It is safe for concurrent use.
type Game struct {
	rules       Rules
	rows, cols  int
	squares     int
	loadedRange int
	pieRule     bool
	threshold   int // pips a player must capture to win
	forcePips   int // 6 × size
	initial     State
	// rays[sq][d] lists the squares from sq outward in direction d;
	// rayLen[sq][d] is how many there are.
	rays   [MaxSquares][8][MaxRows + MaxCols]uint8
	rayLen [MaxSquares][8]uint8
}

// New builds a game from validated rules.
func New(r Rules) *Game {
	g := &Game{
		rules:       r,
		rows:        r.Board.Rows,
		cols:        r.Board.Cols,
		squares:     r.Board.Rows * r.Board.Cols,
		loadedRange: *r.LoadedRange,
		pieRule:     *r.PieRule,
		forcePips:   6 * r.Size,
	}
	g.threshold = 3 * r.Size
	if r.WinThreshold == ThresholdMoreThanHalf {
		g.threshold++
	}
	for sq := range g.squares {
		row, col := sq/g.cols, sq%g.cols
		for d, dir := range directions {
			n := 0
			for r, c := row+dir[0], col+dir[1]; r >= 0 && r < g.rows && c >= 0 && c < g.cols; r, c = r+dir[0], c+dir[1] {
				g.rays[sq][d][n] = uint8(r*g.cols + c)
				n++
			}
			g.rayLen[sq][d] = uint8(n)
		}
	}
	g.initial.g = g
	g.initial.pie = -1
	g.initial.firstCapturer = -1
	g.initial.winner = games.NoPlayer
	tree := makeCell(ArmyA, 1, 1, 1)
	for _, c := range r.StartColumns {
		g.initial.put(g.square(0, c), tree)
		g.initial.put(g.square(g.rows-1, c), tree|ownerB)
	}
	g.initial.hash = g.initial.computeHash()
	return g
}

// Name returns "stacktics".
func (g *Game) Name() string { return Definition.Name }

// Rules returns the resolved rules of the variant.
func (g *Game) Rules() Rules { return g.rules }

// Rows returns the number of rows of the board.
func (g *Game) Rows() int { return g.rows }

// Cols returns the number of columns of the board.
func (g *Game) Cols() int { return g.cols }

// Threshold returns the pips a player must capture to win.
func (g *Game) Threshold() int { return g.threshold }

// NewState returns the start position.
func (g *Game) NewState() games.State { return g.Start() }

// Start returns the start position as a concrete *State.
func (g *Game) Start() *State {
	s := g.initial
	s.hist = make([]uint64, 1, 64)
	s.hist[0] = s.hash
	return &s
}

// MaxLegalMoves bounds the number of legal moves: each of a player's 3 ×
// size pieces can be the base of one unit, which reaches at most
// 2 × (rows + cols) squares.
func (g *Game) MaxLegalMoves() int { return 3*g.rules.Size*2*(g.rows+g.cols) + 2 }

// Sides names the armies: A moved first, B replied.
func (g *Game) Sides() []string { return []string{"A", "B"} }

func (g *Game) square(row, col int) int { return row*g.cols + col }
