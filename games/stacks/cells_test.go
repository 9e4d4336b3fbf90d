package stacks

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
)

// image builds s's image under the board's symmetry k as seat sees the
// board: 1 mirrors along seat's axis, 2 across it, 3 does both
// (games.SymmetryGroup lists them in that order).
func image(s games.State, k int, seat games.Player) (games.State, bool) {
	if k < 1 || k > 3 {
		return nil, false
	}
	src := s.(*State)
	r := *src
	r.occ, r.atHeight = 0, [Pieces + 1]uint32{}
	for sq := range Squares {
		axis, cross := fromSquare(int(seat), sq)
		if k&1 != 0 {
			axis = Size - 1 - axis
		}
		if k&2 != 0 {
			cross = Size - 1 - cross
		}
		row, col := toSquare(int(seat), axis, cross)
		to := squareOf[row][col]
		h := src.height[sq]
		r.height[to] = h
		if h > 0 {
			r.occ |= 1 << to
			r.atHeight[h] |= 1 << to
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
			gamestest.CheckCellSymmetries(t, g, 4, 2, 1, image)
		})
	}
}

func TestCellsTurnTheBoardToTheSeat(t *testing.T) {
	g := newGame(t, DefaultRules())
	s := g.NewState().(*State)
	for s.CurrentPlayer() == games.Chance {
		s.Apply(s.ChanceOutcomes(nil)[0].Move)
	}
	// A stack of 3 on a2 (row 1, column 0): Red sees it at row 1, column
	// 0; Green, whose board is transposed, at row 0, column 1.
	sq := int(squareOf[1][0])
	s.height[sq] = 3
	red, green := s.AppendCells(nil, games.Seat0), s.AppendCells(nil, games.Seat1)
	if red[1*Size+0] != 3 || green[0*Size+1] != 3 {
		t.Errorf("the stack of 3: Red's cell %d, Green's %d", red[1*Size+0], green[0*Size+1])
	}
	for v := 1; v <= MaxValue; v++ {
		if got, want := red[cellHand*Size+v-1], s.hand[games.Seat0][v]; got != want {
			t.Errorf("Red's hand of %d-cards: cell %d, hand %d", v, got, want)
		}
		if got, want := red[cellOther*Size+v-1], s.hand[games.Seat1][v]+s.stock[games.Seat1][v]; got != want {
			t.Errorf("Green's %d-cards left as Red sees them: cell %d, hand and stock %d", v, got, want)
		}
	}
	if got := red[cellHand*Size+cellPoints]; got != uint8(g.cellStates()/2) {
		t.Errorf("the points cell at 0 – 0: %d", got)
	}
}

func TestMatchFeaturesWeighTheMatchScore(t *testing.T) {
	r := DefaultRules()
	if n := len(newGame(t, r).Features()); n != len(features) {
		t.Fatalf("a single game names %d features, want %d", n, len(features))
	}
	r.Match = &Match{Target: new(100)}
	g := newGame(t, r)
	names := g.Features()
	if len(names) != len(features)+len(matchFeatures) || len(g.HandWeights()) != len(names) {
		t.Fatalf("match play names %d features and %d hand weights", len(names), len(g.HandWeights()))
	}
	s := g.NewState().(*State)
	// Finished games 70 – 40; this game 6 – 2: totals 76 – 42.
	s.total, s.score = [2]int32{70, 40}, [2]int16{6, 2}
	f := s.AppendFeatures(nil, games.Seat0)
	want := map[string]float64{"points": 34, "match_lead": 30, "to_target": 2.4, "other_to_target": 5.8, "lead_by_distance": 34 / 5.0}
	for i, n := range names {
		if w, ok := want[n.Name]; ok && f[i] != w {
			t.Errorf("%s = %v, want %v", n.Name, f[i], w)
		}
	}
	if other := s.AppendFeatures(nil, games.Seat1); other[len(other)-1] != -34/5.0 || other[len(other)-3] != 5.8 {
		t.Errorf("seat 1's match features: %v", other[len(features):])
	}
}
