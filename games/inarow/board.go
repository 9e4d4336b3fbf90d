package inarow

import (
	"math/bits"

	"playtest/games"
)

// MaxSide is the longest side of a board: its cells fit one bitboard.
const MaxSide = 8

// Board holds a variant's tables, immutable and shared by every state and
// goroutine. Cells are numbered row by row from the bottom left: row·cols
// + col.
type Board struct {
	Rows, Cols, K int
	// PieRule lets seat 1 take over seat 0's first stone.
	PieRule bool
	cells   int
	all     uint64   // every cell
	lines   []uint64 // every line of K cells
	linesAt [64][]int32
	zobrist [2][64]uint64
	two     uint64 // the key of seat 1 to move
	pie     uint64 // the key of the pie decision pending
	// syms are the board's symmetries but the identity, each the image
	// of every cell: the rectangle's reflections and half turn, and on a
	// square its quarter turns and diagonal reflections too.
	syms [][64]uint8
	// symBytes is each symmetry's image of every byte of cells, and pow3
	// the base-3 digits' sums of every byte (on boards of at most
	// MaxBase3Cells cells): the prover's keys (tactics.go).
	symBytes [][8][256]uint64
	pow3     *[8][256]uint64
}

// ValidateBoard checks the knobs every k-in-a-row game has: rows and
// columns within MaxSide, and k from 2 to the board's longer side (a line
// must fit).
func ValidateBoard(rows, cols, k int) error {
	switch {
	case rows < 1 || rows > MaxSide:
		return games.KnobErrorf("rows", "must be between 1 and %d, got %d", MaxSide, rows)
	case cols < 1 || cols > MaxSide:
		return games.KnobErrorf("cols", "must be between 1 and %d, got %d", MaxSide, cols)
	case k < 2 || k > max(rows, cols):
		return games.KnobErrorf("k", "must be between 2 and the board's longer side (%d), got %d: no line could be made", max(rows, cols), k)
	}
	return nil
}

// NewBoard builds the tables of a rows × cols board where k in a row wins.
func NewBoard(rows, cols, k int, pieRule bool) *Board {
	b := &Board{Rows: rows, Cols: cols, K: k, PieRule: pieRule, cells: rows * cols}
	b.all = 1<<uint(b.cells) - 1 // 1<<64 is 0: every bit for 64 cells
	for row := range rows {
		for col := range cols {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				endRow, endCol := row+d[0]*(k-1), col+d[1]*(k-1)
				if endRow >= rows || endCol < 0 || endCol >= cols {
					continue
				}
				var line uint64
				for i := range k {
					line |= 1 << uint(b.Cell(row+d[0]*i, col+d[1]*i))
				}
				for c := line; c != 0; c &= c - 1 {
					at := bits.TrailingZeros64(c)
					b.linesAt[at] = append(b.linesAt[at], int32(len(b.lines)))
				}
				b.lines = append(b.lines, line)
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
	for seat := range b.zobrist {
		for c := range b.zobrist[seat] {
			b.zobrist[seat][c] = next()
		}
	}
	b.two, b.pie = next(), next()
	last := func(n, i int) int { return n - 1 - i }
	images := []func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, last(cols, c) },
		func(r, c int) (int, int) { return last(rows, r), c },
		func(r, c int) (int, int) { return last(rows, r), last(cols, c) },
	}
	if rows == cols {
		images = append(images,
			func(r, c int) (int, int) { return c, r },
			func(r, c int) (int, int) { return c, last(rows, r) },
			func(r, c int) (int, int) { return last(cols, c), r },
			func(r, c int) (int, int) { return last(cols, c), last(rows, r) })
	}
	for _, image := range images {
		var perm [64]uint8
		for row := range rows {
			for col := range cols {
				r, c := image(row, col)
				perm[b.Cell(row, col)] = uint8(b.Cell(r, c))
			}
		}
		b.syms = append(b.syms, perm)
	}
	b.buildSymBytes()
	b.buildPow3()
	return b
}

// LeftRightOnly keeps of the board's symmetries only its left-right
// reflection, for a game whose rules tell up from down (Connect Four's
// stones fall), and returns b.
func (b *Board) LeftRightOnly() *Board {
	b.syms, b.symBytes = b.syms[:1], b.symBytes[:1]
	return b
}

// Cell is the index of the cell at row and col (row 0 at the bottom).
func (b *Board) Cell(row, col int) int { return row*b.Cols + col }

// All is every cell of the board.
func (b *Board) All() uint64 { return b.all }

// The reasons a game ends.
const (
	ReasonLine = "line"       // a seat made K in a row
	ReasonFull = "full-board" // the board filled without a line
)

// Reasons lists how a game ends (implements games.Reasoner for the games
// that embed a Board).
func (b *Board) Reasons() []games.ReasonDoc {
	return []games.ReasonDoc{
		{Name: ReasonLine, Outcome: games.Decisive},
		{Name: ReasonFull, Outcome: games.Drawn},
	}
}

// Metrics are the figures a game's positions report, for its Definition.
var Metrics = []games.MetricDoc{
	{Name: "full_board", Doc: "share of the games that filled the board (a draw, or a line made with the last stone)"},
	{Name: games.MetricPieSwap, Doc: "share of the games (with the pie rule) in which seat 1 took over the first stone"},
	{Name: games.MetricPieKeepSeat1Wins, Doc: "seat 1's wins after keeping, with the pie rule"},
	{Name: games.MetricPieSwapSeat1Wins, Doc: "seat 1's wins after swapping, with the pie rule"},
}
