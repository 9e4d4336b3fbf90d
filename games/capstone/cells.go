package capstone

import "playtest/games"

// The board of cells a learner reads (games.Boarder), from one seat's
// view, in rows of cols = max(stacks_per_size, goal_size) cells:
//
//   - for the Large stacks, then the Medium ones: stack_height rows of
//     pieces, bottom first, a column per stack; then a row of the stacks'
//     capstones;
//   - a row of the seat's own goal, top first, as far as it is known.
//
// A piece is 0 (none), cellMatch when it has the colour the seat's goal
// wants at the position it will hold in its full stack (which is how the
// stack scores for the seat), else cellColor + its colour: the cells say
// every colour, and what the seat's goal makes of it. A capstone is 0
// (none), 1 for a neutral one, else 1 + its colour; a goal piece 0
// (unknown yet) or 1 + its colour. The other seat's goal is hidden:
// nothing here depends on it, and the seat infers nothing more of it than
// its own goal says (the bag's contents are fixed).
//
// The stash is left out: what is left of each colour and size is its
// count less the pieces on the board, which the cells show.
//
// The symmetries mirror the stacks of both sizes (stacks of one size are
// interchangeable) and swap the sizes (Large and Medium have the same
// counts and rules). The board names its stacks as tuples
// (games.CellBoard.Tuples).
const (
	cellMatch = 1
	cellColor = 2
)

// cellLayout is where a game's cells lie.
type cellLayout struct {
	cols, rows, states int
	// capRow[size] is the row of a size's capstones (its pieces' rows are
	// the stack_height rows below); goalRow follows.
	capRow  [2]int
	goalRow int
}

func (g *Game) cellLayout() cellLayout {
	r := &g.rules
	l := cellLayout{cols: max(g.n, r.GoalSize)}
	l.capRow = [2]int{r.StackHeight, 2*r.StackHeight + 1}
	l.goalRow = l.capRow[Medium] + 1
	l.rows = l.goalRow + 1
	l.states = cellColor + r.Colors
	return l
}

// CellBoard is the board a learner reads (implements games.Boarder).
func (g *Game) CellBoard() games.CellBoard {
	l := g.cellLayout()
	n := l.rows * l.cols
	mirror, swap := make([]int, n), make([]int, n)
	for cell := range n {
		mirror[cell], swap[cell] = cell, cell
	}
	sizeRows := l.capRow[Medium] - l.capRow[Large] // rows of one size
	for row := range 2 * sizeRows {
		for col := range g.n {
			mirror[row*l.cols+col] = row*l.cols + g.n - 1 - col
		}
		for col := range l.cols {
			swap[row*l.cols+col] = (row+sizeRows)%(2*sizeRows)*l.cols + col
		}
	}
	// The named tuples are whole stacks, pieces and capstone: a stack is
	// scored alone, and the symmetries carry the first half of the Large
	// stacks onto every other.
	var tuples [][]int
	for col := range (g.n + 1) / 2 {
		var t []int
		for row := range sizeRows {
			t = append(t, row*l.cols+col)
		}
		tuples = append(tuples, t)
	}
	return games.CellBoard{Rows: l.rows, Cols: l.cols, States: l.states, Symmetries: games.SymmetryGroup(n, mirror, swap), Tuples: tuples}
}

// AppendCells appends the board's cells from seat's view (implements
// games.CellState; the layout is CellBoard's).
func (s *State) AppendCells(dst []uint8, seat games.Player) []uint8 {
	g, r := s.g, &s.g.rules
	l := g.cellLayout()
	at := len(dst)
	for range l.rows * l.cols {
		dst = append(dst, 0)
	}
	cells := dst[at:]
	h := r.StackHeight
	// want[j] is the colour the seat's goal wants at height j of a full
	// stack (position h−1−j from the top), or 0xff.
	var want [MaxHeight]uint8
	for j := range want {
		want[j] = 0xff
	}
	for pos := range min(int(s.goalLen[seat]), h) {
		want[h-1-pos] = s.goal[seat][pos]
	}
	for st := range g.stacks {
		size, col := g.sizeOf(st), st%g.n
		stk := &s.stacks[st]
		for j := range int(stk.n) {
			v := uint8(cellColor) + stk.colors[j]
			if stk.colors[j] == want[j] {
				v = cellMatch
			}
			cells[(l.capRow[size]-h+j)*l.cols+col] = v
		}
		if stk.cap >= 0 {
			v := uint8(1)
			if !g.neutral {
				v += uint8(stk.cap)
			}
			cells[l.capRow[size]*l.cols+col] = v
		}
	}
	for pos := range int(s.goalLen[seat]) {
		cells[l.goalRow*l.cols+pos] = 1 + s.goal[seat][pos]
	}
	return dst
}
