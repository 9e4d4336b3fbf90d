package inarow

import "playtest/games"

// Cell states of a k-in-a-row board from one seat's view (AppendCells).
const (
	CellEmpty  = 0
	CellMine   = 1
	CellTheirs = 2
)

// NewCellBoard is the board a learner reads (games.CellBoard): the cells
// in b's order, states cell states, and b's symmetries (the identity
// first).
func (b *Board) NewCellBoard(states int) games.CellBoard {
	cb := games.CellBoard{Rows: b.Rows, Cols: b.Cols, States: states}
	id := make([]int, b.cells)
	for c := range id {
		id[c] = c
	}
	cb.Symmetries = append(cb.Symmetries, id)
	for _, perm := range b.syms {
		p := make([]int, b.cells)
		for c := range p {
			p[c] = int(perm[c])
		}
		cb.Symmetries = append(cb.Symmetries, p)
	}
	return cb
}

// AppendCells appends every cell from seat's view: CellEmpty, CellMine or
// CellTheirs (nothing is hidden in these games).
func (p *Position) AppendCells(dst []uint8, seat games.Player) []uint8 {
	mine, theirs := p.Stones[seat&1], p.Stones[(seat^1)&1]
	for c := range p.B.cells {
		var v uint8
		switch bit := uint64(1) << uint(c); {
		case mine&bit != 0:
			v = CellMine
		case theirs&bit != 0:
			v = CellTheirs
		}
		dst = append(dst, v)
	}
	return dst
}
