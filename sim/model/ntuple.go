package model

import (
	"fmt"
	"slices"

	"playtest/games"
	"playtest/games/pcg"
)

// MaxTupleLength bounds a tuple's cells: a tuple's table has
// States^length entries.
const MaxTupleLength = 10

// maxTableEntries bounds one tuple's table, maxWeights all of them (a
// model.json of at most 64 MiB holds fewer).
const (
	maxTableEntries = 1 << 22
	maxWeights      = 1 << 24
)

// NTuple is an n-tuple network (Lucas 2008; Thill, Koch and Konen 2012):
// many small lookup tables, each indexed by the states of a few cells of
// the board (a tuple), their entries summed. Each tuple is read at its
// images under every symmetry of the board, all sharing its table, so the
// value of a position is the value of every image of it, and a pattern
// learned in one corner is known in the others. Value and Update allocate
// nothing.
type NTuple struct {
	Board games.CellBoard
	// Tuples are each tuple's cells; Weights each tuple's table, indexed
	// by Σ_k state(cell_k)·States^k.
	Tuples  [][]int
	Weights [][]float32
	// The tuples' images under every symmetry, flat for Value and Update:
	// image i reads cells imageCells[imageStart[i]:imageStart[i+1]] and
	// its tuple's table at flat[imageTable[i]:]; every table is a window
	// of flat (Weights[t]).
	imageCells []int32
	imageStart []int32
	imageTable []int32
	flat       []float32
	// length is every tuple's cells where all have as many (0 where they
	// differ): Value then reads imageCells length at a time.
	length int
}

// NewNTuple returns a network of zero weights over the tuples of cells of
// board.
func NewNTuple(board games.CellBoard, tuples [][]int) (*NTuple, error) {
	if err := board.Check(); err != nil {
		return nil, err
	}
	if len(tuples) == 0 {
		return nil, fmt.Errorf("no tuples: the game names none, and no snakes were asked for")
	}
	n := &NTuple{Board: board, Tuples: tuples, imageStart: []int32{0}}
	total := 0
	for i, t := range tuples {
		if len(t) < 1 || len(t) > MaxTupleLength {
			return nil, fmt.Errorf("tuple %d has %d cells: want 1 to %d", i, len(t), MaxTupleLength)
		}
		size := 1
		for _, c := range t {
			if c < 0 || c >= board.Cells() {
				return nil, fmt.Errorf("tuple %d: cell %d is off the board of %d cells", i, c, board.Cells())
			}
			size *= board.States
		}
		if size > maxTableEntries {
			return nil, fmt.Errorf("tuple %d: %d cells of %d states make a table of %d entries, more than %d", i, len(t), board.States, size, maxTableEntries)
		}
		for _, sym := range board.Symmetries {
			for _, c := range t {
				n.imageCells = append(n.imageCells, int32(sym[c]))
			}
			n.imageStart = append(n.imageStart, int32(len(n.imageCells)))
			n.imageTable = append(n.imageTable, int32(total))
		}
		total += size
	}
	if total > maxWeights {
		return nil, fmt.Errorf("%d weights in all: more than %d", total, maxWeights)
	}
	n.flat = make([]float32, total)
	n.length = len(tuples[0])
	for _, t := range tuples {
		if len(t) != n.length {
			n.length = 0
		}
	}
	off := 0
	for _, t := range tuples {
		size := 1
		for range t {
			size *= board.States
		}
		n.Weights = append(n.Weights, n.flat[off:off+size:off+size])
		off += size
	}
	return n, nil
}

// Value is the network's value of cells (a position's, AppendCells): the
// sum, over the tuples and the board's symmetries, of each image's entry.
func (n *NTuple) Value(cells []uint8) float64 {
	var v float32
	states := int32(n.Board.States)
	// The cells of image i are imageCells[l·i:l·i+l] where every tuple has
	// l cells; the usual lengths are unrolled (twice as fast as the loop).
	l := n.length
	img := n.imageCells[:l*len(n.imageTable)]
	switch l {
	case 3:
		for i, table := range n.imageTable {
			c := img[3*i : 3*i+3 : 3*i+3]
			v += n.flat[table+(int32(cells[c[2]])*states+int32(cells[c[1]]))*states+int32(cells[c[0]])]
		}
	case 4:
		for i, table := range n.imageTable {
			c := img[4*i : 4*i+4 : 4*i+4]
			v += n.flat[table+((int32(cells[c[3]])*states+int32(cells[c[2]]))*states+int32(cells[c[1]]))*states+int32(cells[c[0]])]
		}
	default:
		for i, table := range n.imageTable {
			v += n.flat[n.entry(i, table, cells)]
		}
	}
	return float64(v)
}

// entry is the index in flat of image i's entry for cells, its table
// beginning at table: Σ_k state(cell_k)·States^k.
func (n *NTuple) entry(i int, table int32, cells []uint8) int32 {
	img := n.imageCells[n.imageStart[i]:n.imageStart[i+1]]
	idx, states := int32(0), int32(n.Board.States)
	for k := len(img) - 1; k >= 0; k-- {
		idx = idx*states + int32(cells[img[k]])
	}
	return table + idx
}

// Update adds delta to every entry Value reads for cells, so that Value
// moves by delta times the entries read (a gradient step of a squared
// error: delta = rate · (target − Value)).
func (n *NTuple) Update(cells []uint8, delta float64) {
	d := float32(delta)
	for i, table := range n.imageTable {
		n.flat[n.entry(i, table, cells)] += d
	}
}

// MoverView says whose view of s an n-tuple network rates, for seat: the
// seat to move (the cells do not say whose turn it is, the mover's view
// with the stones' counts does), or seat itself where no seat is to move
// (a chance event); negate says seat is not that mover, so that its value
// is the mover's negated (a logit) or complemented (a chance).
//
// In a game with hidden information each seat's view shows a part of the
// position the other's does not (its own goal, its own hand): the mover's
// view alone would rate the position by the mover's part, so there a seat
// is rated from its own view, as a logistic model rates it.
func MoverView(s games.State, seat games.Player) (view games.Player, negate bool) {
	if _, hidden := s.(games.Determinizer); hidden {
		return seat, false
	}
	mover := s.CurrentPlayer()
	if mover != games.Seat0 && mover != games.Seat1 {
		return seat, false
	}
	return mover, mover != seat
}

// Reads is how many entries Value sums: the tuples times the symmetries
// (a learning rate is usually divided by it).
func (n *NTuple) Reads() int { return len(n.Tuples) * len(n.Board.Symmetries) }

// BoardTuples are a network's tuples on board: the tuples the game names
// (games.CellBoard.Tuples), then count snakes of length cells
// (SnakeTuples).
func BoardTuples(board games.CellBoard, count, length int, rng *pcg.Rand) [][]int {
	return append(slices.Clone(board.Tuples), SnakeTuples(board, count, length, rng)...)
}

// SnakeTuples draws count tuples of length cells each, as random walks
// over the board's king-move neighbours that do not revisit a cell
// (Thill, Koch and Konen's snakes): connected patterns, such as a line, a
// bend or a block, where the board's threats lie.
func SnakeTuples(board games.CellBoard, count, length int, rng *pcg.Rand) [][]int {
	length = min(length, board.Cells())
	var out [][]int
	for len(out) < count {
		at := rng.IntN(board.Cells())
		t := []int{at}
		for len(t) < length {
			var next []int
			r, c := at/board.Cols, at%board.Cols
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					nr, nc := r+dr, c+dc
					if (dr != 0 || dc != 0) && nr >= 0 && nr < board.Rows && nc >= 0 && nc < board.Cols && !contains(t, nr*board.Cols+nc) {
						next = append(next, nr*board.Cols+nc)
					}
				}
			}
			if len(next) == 0 {
				break // a dead end: the snake stops short
			}
			at = next[rng.IntN(len(next))]
			t = append(t, at)
		}
		out = append(out, t)
	}
	return out
}

func contains(t []int, c int) bool {
	for _, x := range t {
		if x == c {
			return true
		}
	}
	return false
}
