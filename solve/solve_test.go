package solve

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// graphGame is a random game given by its graph: node i is decided by
// movers[i] (or over, with results[i]) and leads to next[i]. It has cycles,
// finished draws, and players who decide twice in a row: what a solver
// must get right.
type graphGame struct {
	movers  []games.Player
	results []games.Player
	next    [][]int
}

func randomGame(rng *pcg.Rand, n int) *graphGame {
	g := &graphGame{movers: make([]games.Player, n), results: make([]games.Player, n), next: make([][]int, n)}
	for i := range n {
		if i > 0 && rng.IntN(5) == 0 {
			g.movers[i] = games.Terminal
			g.results[i] = []games.Player{games.Seat0, games.Seat1, games.NoPlayer}[rng.IntN(3)]
			continue
		}
		g.movers[i] = games.Player(rng.IntN(2))
		for range 1 + rng.IntN(3) {
			g.next[i] = append(g.next[i], rng.IntN(n))
		}
	}
	return g
}

func (g *graphGame) Name() string                 { return "graph" }
func (g *graphGame) NewState() games.State        { return &graphState{g: g} }
func (g *graphGame) MaxLegalMoves() int           { return 3 }
func (g *graphGame) Validate() error              { return nil }
func (g *graphGame) NewGame() (games.Game, error) { return g, nil }
func (g *graphGame) ForSolver() games.Rules       { return g }
func (g *graphGame) MoveCap() int                 { return 0 }

type graphState struct {
	g     *graphGame
	node  int
	plies int
}

func (s *graphState) CurrentPlayer() games.Player { return s.g.movers[s.node] }
func (s *graphState) LegalMoves(buf []games.Move) []games.Move {
	for k := range s.g.next[s.node] {
		buf = append(buf, games.Move(k))
	}
	return buf
}
func (s *graphState) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome { return buf }
func (s *graphState) Apply(m games.Move)                                             { s.node = s.g.next[s.node][m]; s.plies++ }
func (s *graphState) Clone() games.State                                             { c := *s; return &c }
func (s *graphState) CopyFrom(src games.State)                                       { *s = *src.(*graphState) }
func (s *graphState) IsTerminal() bool                                               { return s.g.movers[s.node] == games.Terminal }
func (s *graphState) Result() games.Result {
	return games.Result{Winner: s.g.results[s.node], Reason: "end"}
}
func (s *graphState) Plies() int                           { return s.plies }
func (s *graphState) MoveString(m games.Move) string       { return fmt.Sprintf("to%d", s.g.next[s.node][m]) }
func (s *graphState) ParseMove(string) (games.Move, error) { return 0, fmt.Errorf("no") }
func (s *graphState) String() string                       { return fmt.Sprint(s.node) }
func (s *graphState) AppendKey(dst []byte) []byte {
	return binary.LittleEndian.AppendUint32(dst, uint32(s.node))
}
func (s *graphState) SetKey(key []byte) { s.node, s.plies = int(binary.LittleEndian.Uint32(key)), 0 }

// naive solves the game graph by value iteration in rounds: in round k a
// node is won if a move reaches a node settled in an earlier round that
// is lost for whoever decides there (a win for the same player), taking
// the nearest; lost if every move reaches one settled earlier as won for
// the opponent, taking the farthest. Whatever never settles is a draw.
// It returns each node's value for its mover ('W', 'L', 'D') and distance.
func naive(g *graphGame) ([]byte, []int) {
	n := len(g.movers)
	val, dist := make([]byte, n), make([]int, n)
	forMover := func(who games.Player, c int) byte {
		if g.movers[c] == games.Terminal {
			switch g.results[c] {
			case who:
				return 'W'
			case games.NoPlayer:
				return 'D'
			}
			return 'L'
		}
		switch v := val[c]; {
		case v == 0 || v == 'D':
			return v
		case g.movers[c] == who:
			return v
		case v == 'W':
			return 'L'
		default:
			return 'W'
		}
	}
	for changed := true; changed; {
		changed = false
		newVal, newDist := append([]byte(nil), val...), append([]int(nil), dist...)
		for i := range n {
			if g.movers[i] == games.Terminal || val[i] != 0 {
				continue
			}
			best, worst, lost := -1, -1, true
			for _, c := range g.next[i] {
				switch forMover(g.movers[i], c) {
				case 'W':
					if best < 0 || dist[c] < best {
						best = dist[c]
					}
				case 'L':
					worst = max(worst, dist[c])
				default:
					lost = false
				}
			}
			switch {
			case best >= 0:
				newVal[i], newDist[i], changed = 'W', best+1, true
			case lost:
				newVal[i], newDist[i], changed = 'L', worst+1, true
			}
		}
		val, dist = newVal, newDist
	}
	for i := range n {
		if g.movers[i] != games.Terminal && val[i] == 0 {
			val[i] = 'D'
		}
	}
	return val, dist
}

// TestRetrogradeAgreesWithValueIteration solves random game graphs both
// ways: values and distances must agree on every reachable position.
func TestRetrogradeAgreesWithValueIteration(t *testing.T) {
	rng := pcg.New(3, 4)
	draws, wins := 0, 0
	for trial := range 300 {
		g := randomGame(rng, 2+rng.IntN(40))
		gr, err := enumerate(context.Background(), g, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		sol, _ := retrograde(context.Background(), gr)
		val, dist := naive(g)
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
	g := randomGame(rng, 500)
	for i := range g.movers {
		if g.movers[i] == games.Terminal {
			g.movers[i] = games.Seat0
		}
		g.next[i] = []int{(i + 1) % 500, (i + 7) % 500}
	}
	_, err := enumerate(context.Background(), g, 100, nil)
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
		g := randomGame(rng, 2+rng.IntN(30))
		gr, err := enumerate(context.Background(), g, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		sol, _ := retrograde(context.Background(), gr)
		for depth := 1; depth <= 6; depth++ {
			pr := &prover{ctx: context.Background(), table: map[string]proof{}, max: 1 << 20}
			for range depth + 3 {
				pr.buffers = append(pr.buffers, nil)
				pr.states = append(pr.states, g.NewState())
				pr.keys = append(pr.keys, nil)
			}
			for i := range gr.mover {
				if gr.mover[i] == terminalMover {
					continue
				}
				s := g.NewState()
				s.(games.Keyer).SetKey(gr.key(i))
				pf := pr.search(s, depth, 0)
				// Every proof must be the solve's result; every result the
				// solve finds within the horizon must be proven. (Proofs
				// kept from deeper searches may reach past the horizon.)
				want, wantDist := sol.value[i], int(sol.dist[i])
				withinHorizon := want != valDraw && wantDist <= depth
				if pf.outcome != valUnknown && (pf.outcome != want || int(pf.dist) != wantDist) ||
					pf.outcome == valUnknown && withinHorizon {
					t.Fatalf("trial %d, depth %d, position %d: proof %d in %d, solve %d in %d", trial, depth, i, pf.outcome, pf.dist, sol.value[i], sol.dist[i])
				}
				if pf.outcome != valUnknown {
					proven++
				}
			}
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
	follow := func(t *testing.T, g *graphGame, node int, line []string, value int8, dist int) {
		t.Helper()
		s := g.NewState().(*graphState)
		s.node = node
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
		g := randomGame(rng, 2+rng.IntN(30))
		gr, err := enumerate(context.Background(), g, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		sol, _ := retrograde(context.Background(), gr)
		pr := &prover{ctx: context.Background(), table: map[string]proof{}, max: 1 << 20}
		for range 12 {
			pr.buffers = append(pr.buffers, nil)
			pr.states = append(pr.states, g.NewState())
			pr.keys = append(pr.keys, nil)
		}
		for i := range gr.mover {
			if gr.mover[i] == terminalMover {
				continue
			}
			node := int(binary.LittleEndian.Uint32(gr.key(i)))
			s := g.NewState().(*graphState)
			s.node = node
			follow(t, g, node, sol.line(gr, i, s), sol.value[i], int(sol.dist[i]))
			s = g.NewState().(*graphState)
			s.node = node
			pf := pr.search(s.Clone(), 8, 0)
			follow(t, g, node, pr.line(s, 8), pf.outcome, int(pf.dist))
		}
	}
	if checked < 100 {
		t.Errorf("only %d lines checked", checked)
	}
}
