package stacks

import "playtest/games"

// The board of cells a learner reads (games.Boarder), from one seat's
// view, 7 cells a row:
//
//   - rows 0–6, the board turned so that the seat moves along the rows
//     (Green's view is the board transposed): each square's stack height,
//     0 for an empty or dark square, clamped to the last state;
//   - row 7: the seat's hand, a count for each card value 1–4; whether the
//     seat has played a 4-card, whether the other has; the points
//     difference (the seat's minus the other's; in a match, the totals);
//   - row 8: the seat's stock, a count for each value; in a match, this
//     game's points difference;
//   - row 9: the cards the other has left, hand and stock together, by
//     value (its deal minus what it played: public), or, with open hands,
//     its stock;
//   - row 10: with open hands, the other's hand by value (else empty).
//
// A count is clamped to the last state; a difference d is states/2 + d,
// clamped. Nothing depends on what the seat cannot see: the other's hand
// enters only with its stock, unless hands are open.
//
// Both seats see the board the same way round, so its symmetries are its
// mirrors along and across the seat's axis and the half turn (each seat
// moves both ways along its axis, and the areas keep their parity); the
// rows of cards stay put.
const (
	cellRows    = Size + 4
	cellHand    = Size
	cellStock   = Size + 1
	cellOther   = Size + 2
	cellOpen    = Size + 3
	cellPlayed4 = 4 // row 7's columns
	cellPoints  = 6
	cellGame    = 4 // row 8's column
)

func (g *Game) cellStates() int {
	return min(games.MaxCellStates, max(g.maxHeight+1, 9))
}

// CellBoard is the board a learner reads (implements games.Boarder).
func (g *Game) CellBoard() games.CellBoard {
	n := cellRows * Size
	along, across := make([]int, n), make([]int, n)
	for c := range n {
		along[c], across[c] = c, c
	}
	for r := range Size {
		for c := range Size {
			along[r*Size+c] = r*Size + Size - 1 - c
			across[r*Size+c] = (Size-1-r)*Size + c
		}
	}
	return games.CellBoard{Rows: cellRows, Cols: Size, States: g.cellStates(), Symmetries: games.SymmetryGroup(n, along, across)}
}

// AppendCells appends the board's cells from seat's view (implements
// games.CellState; the layout is CellBoard's).
func (s *State) AppendCells(dst []uint8, seat games.Player) []uint8 {
	states := s.g.cellStates()
	count := func(n int) uint8 { return uint8(min(n, states-1)) }
	diff := func(d int) uint8 { return uint8(min(max(states/2+d, 0), states-1)) }
	at := len(dst)
	for range cellRows * Size {
		dst = append(dst, 0)
	}
	cells := dst[at:]
	for sq := range Squares {
		axis, cross := fromSquare(int(seat), sq)
		cells[cross*Size+axis] = count(int(s.height[sq]))
	}
	other := seat.Opponent()
	open := s.g.rules.OpenHands
	for v := 1; v <= MaxValue; v++ {
		cells[cellHand*Size+v-1] = count(int(s.hand[seat][v]))
		cells[cellStock*Size+v-1] = count(int(s.stock[seat][v]))
		left := int(s.stock[other][v])
		if open {
			cells[cellOpen*Size+v-1] = count(int(s.hand[other][v]))
		} else {
			left += int(s.hand[other][v])
		}
		cells[cellOther*Size+v-1] = count(left)
	}
	for i, p := range []games.Player{seat, other} {
		if s.played4[p] {
			cells[cellHand*Size+cellPlayed4+i] = 1
		}
	}
	sc := s.Scores()
	cells[cellHand*Size+cellPoints] = diff(sc[seat] - sc[other])
	if s.g.match {
		cells[cellStock*Size+cellGame] = diff(int(s.score[seat]) - int(s.score[other]))
	}
	return dst
}
