package capturecard

import "playtest/games"

// The board of cells a learner reads (games.Boarder), from one seat's
// view, 5 cells a row:
//
//   - rows 0–3, the layout's squares: 0 empty, 1 + size for the seat's
//     piece (Small, Medium, Large), 4 + size for the other's;
//   - rows 4–7, the same squares' suits: 0 not dealt yet, else 1 + suit;
//   - row 8: the seat's reserve (Small, Medium, Large), its saved Jokers,
//     and the opponent turns its Joker still protects it for; row 9 the
//     same for the other seat;
//   - row 10: the card drawn for this turn's action (0 before the draw),
//     and a Move's points left;
//   - rows 11–12: the draw deck, a count for each value (Jokers, then 1 –
//     never dealt – to 9).
//
// Counts are clamped to the last state. Nothing is hidden but the deck's
// order, which the counts do not show.
//
// The symmetries mirror the layout left and right and up and down (its
// corners map to corners, its steps to steps), pieces and suits together;
// the other rows stay put.
const (
	cellSuits  = Rows
	cellSeat   = 2 * Rows
	cellTurn   = cellSeat + 2
	cellDeck   = cellTurn + 1
	cellRows   = cellDeck + 2
	cellStates = 10
)

// CellBoard is the board a learner reads (implements games.Boarder).
func (g *Game) CellBoard() games.CellBoard {
	n := cellRows * Cols
	lr, ud := make([]int, n), make([]int, n)
	for c := range n {
		lr[c], ud[c] = c, c
	}
	for layer := range 2 {
		for r := range Rows {
			for c := range Cols {
				at := (layer*Rows+r)*Cols + c
				lr[at] = (layer*Rows+r)*Cols + Cols - 1 - c
				ud[at] = (layer*Rows+Rows-1-r)*Cols + c
			}
		}
	}
	return games.CellBoard{Rows: cellRows, Cols: Cols, States: cellStates, Symmetries: games.SymmetryGroup(n, lr, ud)}
}

// AppendCells appends the board's cells from seat's view (implements
// games.CellState; the layout is CellBoard's).
func (s *State) AppendCells(dst []uint8, seat games.Player) []uint8 {
	count := func(n uint8) uint8 { return min(n, cellStates-1) }
	at := len(dst)
	for range cellRows * Cols {
		dst = append(dst, 0)
	}
	cells := dst[at:]
	for sq := range Cards {
		if o := s.owner[sq]; o >= 0 {
			v := 1 + uint8(s.size[sq])
			if games.Player(o) != seat {
				v += 3
			}
			cells[sq] = v
		}
		if card := s.layout[sq]; card >= 0 {
			cells[cellSuits*Cols+sq] = 1 + uint8(card/Ranks)
		}
	}
	for i, p := range [2]games.Player{seat, seat.Opponent()} {
		row := cells[(cellSeat+i)*Cols:]
		for size := range 3 {
			row[size] = count(s.reserve[p][size])
		}
		row[3], row[4] = count(s.held[p]), count(s.protect[p])
	}
	switch s.phase {
	case phaseAction:
		cells[cellTurn*Cols] = count(s.card)
	case phaseMove:
		cells[cellTurn*Cols] = count(s.card)
		cells[cellTurn*Cols+1] = count(s.points)
	}
	for v := range 10 {
		cells[cellDeck*Cols+v] = count(s.deck[v])
	}
	return dst
}
