package capturecard

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
)

// image builds s's image under the board's symmetry k: 1 mirrors the
// layout left and right, 2 up and down, 3 does both (games.SymmetryGroup
// lists them in that order). A layout still being dealt has none: the
// deal goes on in a fixed order.
func image(s games.State, k int, _ games.Player) (games.State, bool) {
	src := s.(*State)
	if k < 1 || k > 3 || src.phase == phaseLayout {
		return nil, false
	}
	r := *src
	r.walkers, r.pieces, r.suits = [2]uint32{}, [2]uint32{}, [Suits]uint32{}
	for sq := range Cards {
		row, col := sq/Cols, sq%Cols
		if k&1 != 0 {
			col = Cols - 1 - col
		}
		if k&2 != 0 {
			row = Rows - 1 - row
		}
		to := row*Cols + col
		r.layout[to], r.owner[to], r.size[to] = src.layout[sq], src.owner[sq], src.size[sq]
		r.suits[src.layout[sq]/Ranks] |= 1 << to
		if o := src.owner[sq]; o >= 0 {
			r.pieces[o] |= 1 << to
			if src.size[sq] != Large {
				r.walkers[o] |= 1 << to
			}
		}
	}
	return &r, true
}

func TestCellSymmetriesArePlayedAlike(t *testing.T) {
	for name, change := range variants() {
		t.Run(name, func(t *testing.T) {
			r := DefaultRules()
			change(r)
			g := newGame(t, r)
			gamestest.CheckCellSymmetries(t, g, 4, 1, 1, image)
		})
	}
}

func TestCellsShowPiecesSuitsAndTheTurn(t *testing.T) {
	g := newGame(t, DefaultRules())
	s := g.NewState().(*State)
	rng := pcg.New(1, 2)
	for s.phase != phaseAction { // a random layout, to the first action
		m, _, _ := gamestest.Pick(s, rng, nil, nil)
		s.Apply(m)
	}
	s.owner[0], s.size[0] = int8(games.Seat1), Medium
	mine, theirs := s.AppendCells(nil, s.toMove), s.AppendCells(nil, s.toMove.Opponent())
	if s.toMove == games.Seat1 {
		mine, theirs = theirs, mine
	}
	// Seat 1's Medium on a1: 1 + Medium for seat 1, 4 + Medium for seat 0.
	if theirs[0] != 1+Medium || mine[0] != 4+Medium {
		t.Errorf("a1's piece: %d for seat 1, %d for seat 0", theirs[0], mine[0])
	}
	if got, want := mine[cellSuits*Cols], 1+uint8(s.layout[0]/Ranks); got != want {
		t.Errorf("a1's suit: cell %d, want %d", got, want)
	}
	if got := s.AppendCells(nil, s.toMove)[cellTurn*Cols]; got != s.card || s.card == 0 {
		t.Errorf("the card drawn: cell %d, card %d", got, s.card)
	}
	if got := mine[cellSeat*Cols+Large]; got != min(s.reserve[games.Seat0][Large], cellStates-1) {
		t.Errorf("seat 0's Large reserve: cell %d", got)
	}
}
