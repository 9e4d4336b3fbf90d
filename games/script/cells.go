package script

import (
	"fmt"

	"go.starlark.net/starlark"

	"playtest/games"
)

// boardGame is a scripted game with cell_board(knobs) and cells(state,
// seat): a board of cells a learner reads (implements games.Boarder).
type boardGame struct{ *game }

// featureBoardGame is a scripted game with both FEATURES and cells.
type featureBoardGame struct{ *game }

func (g boardGame) CellBoard() games.CellBoard        { return g.board }
func (g featureBoardGame) CellBoard() games.CellBoard { return g.board }

// readCells reads cell_board(knobs): {"rows": R, "cols": C, "states": S,
// "symmetries": …}, the symmetries "none", "mirror" (left and right),
// "rectangle" (both mirrors and the half turn), "square" (every
// reflection and rotation of a square board) or a list of permutations of
// the cells, the identity first.
func (g *game) readCells() error {
	s := g.s
	if (s.function("cell_board") == nil) != (s.function("cells") == nil) {
		return s.refuse("", "a board of cells for the learners needs both cell_board(knobs), its size, states and symmetries, and cells(state, seat), the cells from a seat's view")
	}
	if s.function("cell_board") == nil {
		return nil
	}
	v, err := s.call("cell_board", g.knobs)
	if err != nil {
		return err
	}
	d, ok := v.(*starlark.Dict)
	if !ok {
		return s.refuse("cell_board", "returned %s: want a dict with rows, cols, states and symmetries", v)
	}
	number := func(key string) (int, error) {
		x, found, _ := d.Get(starlark.String(key))
		if !found {
			return 0, s.refuse("cell_board", "returned no %q: want a whole number", key)
		}
		n, err := starlark.AsInt32(x)
		if err != nil {
			return 0, s.refuse("cell_board", "returned %q = %s: want a whole number", key, x)
		}
		return n, nil
	}
	var b games.CellBoard
	if b.Rows, err = number("rows"); err != nil {
		return err
	}
	if b.Cols, err = number("cols"); err != nil {
		return err
	}
	if b.States, err = number("states"); err != nil {
		return err
	}
	if b.Rows < 1 || b.Cols < 1 || b.Rows*b.Cols > 256 {
		return s.refuse("cell_board", "returned a board of %d × %d cells: want 1 to 256 cells", b.Rows, b.Cols)
	}
	sym, found, _ := d.Get(starlark.String("symmetries"))
	if !found {
		sym = starlark.String("none")
	}
	if name, ok := starlark.AsString(sym); ok {
		if b.Symmetries, err = games.GridSymmetries(b.Rows, b.Cols, name); err != nil {
			return s.refuse("cell_board", "returned symmetries %q: %v", name, err)
		}
	} else if b.Symmetries, err = permutations(sym); err != nil {
		return s.refuse("cell_board", "returned symmetries %s: %v", sym, err)
	}
	if err := b.Check(); err != nil {
		return s.refuse("cell_board", "%v", err)
	}
	g.board = b
	return nil
}

// permutations reads a list of lists of cell numbers.
func permutations(v starlark.Value) ([][]int, error) {
	seq, ok := v.(starlark.Indexable)
	if !ok {
		return nil, fmt.Errorf("want a name (none, mirror, rectangle, square) or a list of permutations of the cells")
	}
	var out [][]int
	for i := range seq.Len() {
		p, ok := seq.Index(i).(starlark.Indexable)
		if !ok {
			return nil, fmt.Errorf("entry %d is %s: want a list of cell numbers", i, seq.Index(i))
		}
		perm := make([]int, p.Len())
		for c := range perm {
			n, err := starlark.AsInt32(p.Index(c))
			if err != nil {
				return nil, fmt.Errorf("entry %d holds %s: want cell numbers", i, p.Index(c))
			}
			perm[c] = n
		}
		out = append(out, perm)
	}
	return out, nil
}

// AppendCells appends cells(state, seat), checked against cell_board
// (implements games.CellState for a game with cells).
func (s *State) AppendCells(dst []uint8, seat games.Player) []uint8 {
	sc := s.g.s
	v, err := sc.call("cells", s.v, starlark.MakeInt(int(seat)))
	if err != nil {
		fail(err)
	}
	seq, ok := v.(starlark.Indexable)
	b := s.g.board
	if !ok || seq.Len() != b.Cells() {
		fail(sc.refuse("cells", "returned %s: want %d cells, one per cell of cell_board's %d × %d", v, b.Cells(), b.Rows, b.Cols))
	}
	for i := range seq.Len() {
		n, err := starlark.AsInt32(seq.Index(i))
		if err != nil || n < 0 || n >= b.States {
			fail(sc.refuse("cells", "returned %s for cell %d: want a state from 0 to %d", seq.Index(i), i, b.States-1))
		}
		dst = append(dst, uint8(n))
	}
	return dst
}
