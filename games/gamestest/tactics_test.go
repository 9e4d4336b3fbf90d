package gamestest_test

import (
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/connect4"
	"playtest/games/gamestest"
	"playtest/games/pcg"
)

// liar is a Connect Four state whose hooks lie in one way each.
type liar struct {
	*connect4.State
	lie string
}

func (l liar) WinningMove() (games.Move, bool) {
	m, ok := l.State.WinningMove()
	if l.lie == "no win" {
		return 0, false
	}
	if l.lie == "false win" && !ok {
		return l.LegalMoves(nil)[0], true
	}
	return m, ok
}

func (l liar) SafeMoves(buf []games.Move) []games.Move {
	switch l.lie {
	case "all safe":
		return l.LegalMoves(buf)
	case "none safe":
		return buf
	}
	return l.State.SafeMoves(buf)
}

func (l liar) OrderMoves(moves []games.Move) {
	l.State.OrderMoves(moves)
	if l.lie == "order drops" && len(moves) > 1 {
		moves[1] = moves[0]
	}
}

func (l liar) PackedKey() (uint64, bool) {
	k, ok := l.State.PackedKey()
	if l.lie == "packed collides" {
		return k >> 8, ok
	}
	return k, ok
}

// TestLyingHooksAreCaught (issue 54): the prover trusts a game's tactics
// hooks, so the conformance suite must catch each kind of lie within a
// few random games of Connect Four; the truthful hooks pass.
func TestLyingHooksAreCaught(t *testing.T) {
	g := connect4.New(connect4.Rules{Rows: 5, Cols: 5, K: 4})
	for _, c := range []struct{ lie, want string }{
		{"", ""},
		{"no win", "WinningMove finds no move"},
		{"false win", "WinningMove says"},
		{"all safe", "SafeMoves gives"},
		{"none safe", "SafeMoves gives"},
		{"order drops", "OrderMoves turns"},
		{"packed collides", "PackedKey"},
	} {
		rng := pcg.New(1, 2)
		check := gamestest.NewTacticsChecker()
		var caught error
		for game := 0; game < 200 && caught == nil; game++ {
			s := g.NewState().(*connect4.State)
			for !s.IsTerminal() && caught == nil {
				caught = check.Check(liar{s, c.lie})
				moves := s.LegalMoves(nil)
				s.Apply(moves[rng.IntN(len(moves))])
			}
		}
		switch {
		case c.want == "" && caught != nil:
			t.Errorf("truthful hooks: %v", caught)
		case c.want != "" && (caught == nil || !strings.Contains(caught.Error(), c.want)):
			t.Errorf("lie %q: caught as %v, want %q", c.lie, caught, c.want)
		}
	}
}
