package games

import (
	"fmt"
	"slices"
)

// CellBoard is the board a learner reads a game's positions on (Boarder):
// Rows × Cols cells numbered row by row from the bottom left, each in one
// of States states (0: empty), and the board's symmetries.
type CellBoard struct {
	Rows, Cols int
	// States is how many states a cell takes (at most MaxCellStates).
	States int
	// Symmetries are the permutations of the cells under which the game's
	// values do not change (its reflections and rotations), the identity
	// first: Symmetries[k][c] is the cell that cell c goes to. A learner
	// shares its weights across them.
	Symmetries [][]int
	// Tuples are the tuples of cells the game's structure names, if any (a
	// Capstone stack, bottom to capstone): a learner reads them besides
	// the random snakes it draws (which cross the cells of a board whose
	// neighbours need not be related).
	Tuples [][]int
}

// MaxCellStates bounds the states of a cell.
const MaxCellStates = 16

// Cells is the number of cells.
func (b CellBoard) Cells() int { return b.Rows * b.Cols }

// Check checks the board: a size and states within bounds, and
// symmetries that are permutations, the identity first, closed under
// composition (a group).
func (b CellBoard) Check() error {
	n := b.Cells()
	switch {
	case b.Rows < 1 || b.Cols < 1 || n > 256:
		return fmt.Errorf("a board of %d × %d cells: want 1 to 256 cells", b.Rows, b.Cols)
	case b.States < 2 || b.States > MaxCellStates:
		return fmt.Errorf("%d states a cell: want 2 to %d", b.States, MaxCellStates)
	case len(b.Symmetries) == 0:
		return fmt.Errorf("no symmetry: the identity comes first")
	}
	key := func(p []int) string { return fmt.Sprint(p) }
	known := map[string]bool{}
	for k, p := range b.Symmetries {
		if len(p) != n {
			return fmt.Errorf("symmetry %d maps %d cells of %d", k, len(p), n)
		}
		seen := make([]bool, n)
		for c, to := range p {
			if to < 0 || to >= n || seen[to] {
				return fmt.Errorf("symmetry %d is not a permutation of the cells", k)
			}
			seen[to] = true
			if k == 0 && to != c {
				return fmt.Errorf("the first symmetry is not the identity")
			}
		}
		known[key(p)] = true
	}
	for k, t := range b.Tuples {
		if len(t) == 0 || slices.ContainsFunc(t, func(c int) bool { return c < 0 || c >= n }) {
			return fmt.Errorf("tuple %d (%v) is empty or leaves the board of %d cells", k, t, n)
		}
	}
	for _, p := range b.Symmetries {
		for _, q := range b.Symmetries {
			pq := make([]int, n)
			for c := range pq {
				pq[c] = q[p[c]]
			}
			if !known[key(pq)] {
				return fmt.Errorf("the symmetries are not closed under composition")
			}
		}
	}
	return nil
}

// Boarder is implemented by games whose positions a learner can read as a
// board of cells (n-tuple networks): their states implement CellState.
type Boarder interface {
	CellBoard() CellBoard
}

// CellState is implemented by the states of a Boarder: the position from
// seat's view as one state a cell, using only what seat may see.
type CellState interface {
	// AppendCells appends the board's cells (CellBoard().Cells() of them,
	// each below States) from seat's view, allocation-free when dst has
	// room.
	AppendCells(dst []uint8, seat Player) []uint8
}

// GridSymmetries lists the symmetries of a rows × cols board of cells
// numbered row by row, the identity first: "none"; "mirror" (left and
// right); "rectangle" (left and right, up and down, the half turn);
// "square" (the eight reflections and rotations, rows == cols).
func GridSymmetries(rows, cols int, kind string) ([][]int, error) {
	type transform func(r, c int) (int, int)
	id := func(r, c int) (int, int) { return r, c }
	lr := func(r, c int) (int, int) { return r, cols - 1 - c }
	ud := func(r, c int) (int, int) { return rows - 1 - r, c }
	half := func(r, c int) (int, int) { return rows - 1 - r, cols - 1 - c }
	var ts []transform
	switch kind {
	case "none":
		ts = []transform{id}
	case "mirror":
		ts = []transform{id, lr}
	case "rectangle":
		ts = []transform{id, lr, ud, half}
	case "square":
		if rows != cols {
			return nil, fmt.Errorf("a square's symmetries on a %d × %d board", rows, cols)
		}
		n := rows - 1
		ts = []transform{id, lr, ud, half,
			func(r, c int) (int, int) { return c, r },
			func(r, c int) (int, int) { return n - c, n - r },
			func(r, c int) (int, int) { return c, n - r },
			func(r, c int) (int, int) { return n - c, r }}
	default:
		return nil, fmt.Errorf("unknown symmetries %q: want none, mirror, rectangle or square", kind)
	}
	var out [][]int
	for _, t := range ts {
		p := make([]int, rows*cols)
		for cell := range p {
			r, c := t(cell/cols, cell%cols)
			p[cell] = r*cols + c
		}
		// On a board of one row (or one cell) some transforms are the
		// same permutation: each is listed once.
		if !slices.ContainsFunc(out, func(q []int) bool { return slices.Equal(p, q) }) {
			out = append(out, p)
		}
	}
	return out, nil
}

// SymmetryGroup lists the group of cell permutations the generators
// generate (each a permutation of n cells, as CellBoard.Symmetries), the
// identity first and the rest in the order they are reached: for boards
// whose symmetries move some regions of cells and fix others (a board
// mirrored while its rows of counts stay put).
func SymmetryGroup(n int, generators ...[]int) [][]int {
	id := make([]int, n)
	for c := range id {
		id[c] = c
	}
	group := [][]int{id}
	for i := 0; i < len(group); i++ {
		for _, g := range generators {
			p := make([]int, n)
			for c := range p {
				p[c] = g[group[i][c]]
			}
			if !slices.ContainsFunc(group, func(q []int) bool { return slices.Equal(p, q) }) {
				group = append(group, p)
			}
		}
	}
	return group
}
