package solve

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/games/prove"
)

// TestRetrogradeAgreesWithValueIteration solves random game graphs both
// ways: values and distances must agree on every reachable position.
func TestRetrogradeAgreesWithValueIteration(t *testing.T) {
	rng := pcg.New(3, 4)
	draws, wins := 0, 0
	for trial := range 300 {
		g := gamestest.RandomGraph(rng, 2+rng.IntN(40), 5)
		gr, err := enumerate(context.Background(), g, g.NewState(), 1000, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		sol, _ := retrograde(context.Background(), gr)
		val, dist := g.Values()
		for i := range gr.mover {
			node := int(binary.LittleEndian.Uint32(gr.key(i)))
			if gr.mover[i] == terminalMover {
				continue
			}
			got := map[int8]byte{valWin: 'W', valLoss: 'L', valDraw: 'D'}[sol.value[i]]
			if got != val[node] || (got != 'D' && int(sol.dist[i]) != dist[node]) {
				t.Fatalf("trial %d node %d: solver %c in %d, value iteration %c in %d", trial, node, got, sol.dist[i], val[node], dist[node])
			}
			switch got {
			case 'D':
				draws++
			default:
				wins++
			}
		}
	}
	if draws == 0 || wins == 0 {
		t.Errorf("the random graphs gave %d decided and %d drawn positions: the test does not cover both", wins, draws)
	}
}

func TestTooLarge(t *testing.T) {
	rng := pcg.New(1, 1)
	g := gamestest.RandomGraph(rng, 500, 5)
	for i := range g.Movers {
		if g.Movers[i] == games.Terminal {
			g.Movers[i] = games.Seat0
		}
		g.Next[i] = []int{(i + 1) % 500, (i + 7) % 500}
	}
	_, err := enumerate(context.Background(), g, g.NewState(), 100, true, nil)
	if e, ok := err.(*TooLargeError); !ok || e.Max != 100 {
		t.Fatalf("got %v, want a TooLargeError at 100", err)
	}
}

// TestBoundedProofAgreesWithRetrograde checks the depth-bounded search on
// random game graphs: every win or loss it proves is the full solve's, at
// the same distance, and within its horizon it proves every one.
func TestBoundedProofAgreesWithRetrograde(t *testing.T) {
	rng := pcg.New(8, 9)
	proven := 0
	for trial := range 200 {
		g := gamestest.RandomGraph(rng, 2+rng.IntN(30), 5)
		gr, err := enumerate(context.Background(), g, g.NewState(), 1000, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		sol, _ := retrograde(context.Background(), gr)
		for depth := 1; depth <= 6; depth++ {
			se, err := prove.New(g.NewState(), prove.Options{Horizon: depth, Entries: 1 << 12})
			if err != nil {
				t.Fatal(err)
			}
			for i := range gr.mover {
				if gr.mover[i] == terminalMover {
					continue
				}
				s := g.NewState()
				s.(games.Keyer).SetKey(gr.key(i))
				outcome, dist := proveWithin(t, se, s, depth)
				// Every proof must be the solve's result; every result the
				// solve finds within the horizon must be proven.
				want, wantDist := sol.value[i], int(sol.dist[i])
				withinHorizon := want != valDraw && wantDist <= depth
				if outcome != valUnknown && (outcome != want || dist != wantDist) ||
					outcome == valUnknown && withinHorizon {
					t.Fatalf("trial %d, depth %d, position %d: proof %d in %d, solve %d in %d", trial, depth, i, outcome, dist, sol.value[i], sol.dist[i])
				}
				if outcome != valUnknown {
					proven++
				}
			}
			se.Close()
		}
	}
	if proven == 0 {
		t.Error("no position was proven: the test checks nothing")
	}
}

// TestLinesProveTheValues (issue 34) follows the lines of play both
// solvers print on random game graphs: each is a sequence of legal
// decisions by the player to move that ends the game, as the value says
// (the winner of a won position, its opponent for a lost one), in exactly
// the value's number of decisions; and every decision on it keeps the
// value (a win stays won for its player). Drawn and unproven positions
// have no line.
func TestLinesProveTheValues(t *testing.T) {
	rng := pcg.New(5, 6)
	checked := 0
	follow := func(t *testing.T, g *gamestest.Graph, node int, line []string, value int8, dist int) {
		t.Helper()
		s := g.NewState().(*gamestest.GraphState)
		s.Node = node
		who := s.CurrentPlayer()
		if value != valWin && value != valLoss {
			if line != nil {
				t.Fatalf("node %d: a line %v for a position without a forced end", node, line)
			}
			return
		}
		if len(line) != dist {
			t.Fatalf("node %d: a line of %d decisions for a result in %d: %v", node, len(line), dist, line)
		}
		for _, step := range line {
			mover, move, _ := strings.Cut(step, " ")
			if mover != s.CurrentPlayer().String() {
				t.Fatalf("node %d: %q, but %v is to move", node, step, s.CurrentPlayer())
			}
			ok := false
			for m := range s.LegalMoves(nil) {
				if s.MoveString(games.Move(m)) == move {
					s.Apply(games.Move(m))
					ok = true
					break
				}
			}
			if !ok {
				t.Fatalf("node %d: %q is not legal", node, step)
			}
		}
		winner := who
		if value == valLoss {
			winner = who.Opponent()
		}
		if !s.IsTerminal() || s.Result().Winner != winner {
			t.Fatalf("node %d: the line %v does not end in %v's win", node, line, winner)
		}
		checked++
	}
	for range 200 {
		g := gamestest.RandomGraph(rng, 2+rng.IntN(30), 5)
		gr, err := enumerate(context.Background(), g, g.NewState(), 1000, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		sol, _ := retrograde(context.Background(), gr)
		se, err := prove.New(g.NewState(), prove.Options{Horizon: 8, Entries: 1 << 12})
		if err != nil {
			t.Fatal(err)
		}
		pr := &bounded{se: se}
		for i := range gr.mover {
			if gr.mover[i] == terminalMover {
				continue
			}
			node := int(binary.LittleEndian.Uint32(gr.key(i)))
			s := g.NewState().(*gamestest.GraphState)
			s.Node = node
			follow(t, g, node, sol.line(gr, i, s), sol.value[i], int(sol.dist[i]))
			s = g.NewState().(*gamestest.GraphState)
			s.Node = node
			outcome, dist := proveWithin(t, se, s.Clone(), 8)
			line, err := pr.line(s, 8)
			if err != nil {
				t.Fatal(err)
			}
			follow(t, g, node, line, outcome, dist)
		}
		se.Close()
	}
	if checked < 100 {
		t.Errorf("only %d lines checked", checked)
	}
}

// proveWithin is the prover's result for s within depth as the
// retrograde solve states one: valWin or valLoss for the mover in dist
// decisions, or valUnknown.
func proveWithin(t *testing.T, se *prove.Searcher, s games.State, depth int) (int8, int) {
	t.Helper()
	v, err := se.Score(s, depth)
	if err != nil {
		t.Fatal(err)
	}
	switch v.Outcome {
	case 1:
		return valWin, v.Plies
	case -1:
		return valLoss, v.Plies
	}
	return valUnknown, 0
}
