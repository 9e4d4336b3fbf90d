package bots

import (
	"math"
	"testing"

	"playtest/games"
	"playtest/games/connect4"
	"playtest/games/mnk"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

// TestTacticsKeepExactValues searches positions of small k-in-a-row
// boards (random openings with and without the pie rule's decision) to the
// end of the game, with the threat hooks and without: every leaf is a
// finished game, so both root values are exact minimax values, win
// distances included, and must be equal; the hooks prune only moves that
// lose at once and extend only forced answers. They must also search
// fewer nodes, or they do nothing.
func TestTacticsKeepExactValues(t *testing.T) {
	boards := []struct {
		name string
		g    games.Game
	}{
		{"Connect Four 4 × 4", connect4.New(connect4.Rules{Cols: 4, Rows: 4, K: 4})},
		{"Connect Four 5 × 4, k = 3", connect4.New(connect4.Rules{Cols: 5, Rows: 4, K: 3})},
		{"4,4,3", mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 3})},
		{"4,4,4", mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 4})},
		{"tic-tac-toe with the pie rule", mnk.New(mnk.Rules{Rows: 3, Cols: 3, K: 3, PieRule: true})},
	}
	rng := pcg.New(56, 3)
	forced, compared := 0, 0
	var nodes [2]int
	for _, bd := range boards {
		for i := range max(3, testenv.Scale(12)) {
			s := bd.g.NewState()
			for range 3 + rng.IntN(5) {
				if s.IsTerminal() {
					break
				}
				moves := s.LegalMoves(nil)
				s.Apply(moves[rng.IntN(len(moves))])
			}
			if s.IsTerminal() || len(s.LegalMoves(nil)) < 2 {
				continue
			}
			var values [2]float64
			for k, tactics := range []bool{false, true} {
				b := NewAlphaBeta(AlphaBetaParams{Nodes: 100000000, Quiescence: true, Tactics: tactics, TTMB: 4})
				b.Reset(s.CurrentPlayer(), pcg.New(1, uint64(i)))
				b.Choose(s, s.LegalMoves(nil))
				top, ok := b.RootValue()
				if !ok {
					t.Fatalf("%s, position %d: no value", bd.name, i)
				}
				values[k] = top
				nodes[k] += b.nodes
			}
			if values[0] != values[1] {
				t.Fatalf("%s, position %d:\n%v\nwithout tactics %v, with %v", bd.name, i, s, values[0], values[1])
			}
			if math.Abs(values[0]) > winValue/2 {
				forced++
			}
			compared++
		}
	}
	t.Logf("%d positions, %d forced results; nodes without tactics %d, with %d", compared, forced, nodes[0], nodes[1])
	if compared < 10 || forced < 3 {
		t.Errorf("%d positions, %d with a forced result: too few to test", compared, forced)
	}
	if nodes[1] >= nodes[0] {
		t.Errorf("the tactics searched %d nodes, %d without them: they prune nothing", nodes[1], nodes[0])
	}
}

// TestTacticsSeeAThreatBeyondTheHorizon: at depth 1, a bot with the hooks
// blocks the other seat's three on 4,4,4 (a threat the static
// evaluation at depth 1 cannot see is a loss two decisions on), and the
// hooks make every depth-1 value of a move that leaves a win at once a
// forced loss.
func TestTacticsSeeAThreatBeyondTheHorizon(t *testing.T) {
	g := mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 4})
	s := g.NewState()
	// Seat 0: a1 b1 c1; seat 1: a4 b4. Seat 1 to move must block d1.
	for _, cell := range []int{0, 12, 1, 13, 2} {
		s.Apply(games.Move(cell))
	}
	b := NewAlphaBeta(AlphaBetaParams{Nodes: 100000, Depth: 1, Quiescence: true, Tactics: true})
	b.Reset(s.CurrentPlayer(), pcg.New(1, 1))
	if m := b.Choose(s, s.LegalMoves(nil)); m != 3 {
		t.Fatalf("played %d, not the block at cell 3", m)
	}
	for i, m := range b.lastOrder {
		if v := b.lastValues[i]; m != 3 && v > -winValue/2 {
			t.Errorf("move %d leaves a win at once, valued %v", m, v)
		}
	}
}
