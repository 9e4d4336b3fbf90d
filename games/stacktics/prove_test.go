package stacktics_test

import (
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/prove"
	"playtest/games/stacktics"
)

// size2 returns Stacktics size 2 on 4×4 with the pie rule, its trees on
// the given columns.
func size2(t *testing.T, columns []int) games.Game {
	t.Helper()
	r := stacktics.DefaultRules()
	pie := true
	r.Size, r.Board, r.PieRule, r.StartColumns = 2, &stacktics.Board{Rows: 4, Cols: 4}, &pie, columns
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// With its trees in the corners, size 2 is a first-move win: a1Sxd4
// captures across the open diagonal. ProveWithin finds it, and only it;
// the designer's start (trees off the corners) has no forced win within 3
// decisions.
func TestProveWithin(t *testing.T) {
	s := size2(t, []int{0, 3}).NewState()
	pf, _ := prove.Within(s, 3)
	if pf == nil || pf.Winner != games.Seat0 || pf.Plies != 1 || !slices.Equal(pf.Line, []string{"a1Sxd4"}) {
		t.Fatalf("corner trees: proof %+v, want seat 0 wins in 1 with a1Sxd4", pf)
	}
	if s.Plies() != 0 {
		t.Error("the proof moved the state it was given")
	}
	if pf, searched := prove.Within(size2(t, nil).NewState(), 3); pf != nil || !searched {
		t.Errorf("the designer's size 2: proof %+v (searched %v), want none within 3 decisions", pf, searched)
	}
	// After any first move, a proof's line, played out, ends in its
	// winner's win in its number of decisions.
	child := size2(t, []int{0, 3}).NewState()
	moves := child.LegalMoves(nil)
	proven := 0
	for _, m := range moves {
		c := child.Clone()
		c.Apply(m)
		if pf, _ := prove.Within(c, 2); pf != nil {
			proven++
			end := c.Clone()
			for _, text := range pf.Line {
				mv, err := end.ParseMove(text)
				if err != nil {
					t.Fatal(err)
				}
				end.Apply(mv)
			}
			if !end.IsTerminal() || end.Result().Winner != pf.Winner || len(pf.Line) != pf.Plies {
				t.Fatalf("after %s: proof %+v does not end in its winner's win", child.MoveString(m), pf)
			}
		}
	}
	if proven == 0 {
		t.Fatal("no first move left a forced win within 2: the line check never ran")
	}
}
