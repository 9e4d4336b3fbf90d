package gamestest

import (
	"encoding/binary"
	"fmt"

	"playtest/games"
	"playtest/games/pcg"
)

// Graph is a random two-player game given by its graph, for the tests of
// searchers and solvers: node i is decided by Movers[i], or is finished
// (games.Terminal) with the winner Results[i] (NoPlayer: a draw), and its
// moves lead to the nodes Next[i]. It has cycles, finished draws and
// players who decide twice in a row; endless play is a draw. It is its own
// games.Game and games.Rules, and its states have keys for a solver.
type Graph struct {
	Movers  []games.Player
	Results []games.Player
	Next    [][]int
}

// RandomGraph draws a graph of n nodes: each node but the first is
// finished with chance 1/finished (with a random result), and the others
// have one to three moves to random nodes.
func RandomGraph(rng *pcg.Rand, n, finished int) *Graph {
	g := &Graph{Movers: make([]games.Player, n), Results: make([]games.Player, n), Next: make([][]int, n)}
	for i := range n {
		if i > 0 && rng.IntN(finished) == 0 {
			g.Movers[i] = games.Terminal
			g.Results[i] = []games.Player{games.Seat0, games.Seat1, games.NoPlayer}[rng.IntN(3)]
			continue
		}
		g.Movers[i] = games.Player(rng.IntN(2))
		for range 1 + rng.IntN(3) {
			g.Next[i] = append(g.Next[i], rng.IntN(n))
		}
	}
	return g
}

func (g *Graph) Name() string                 { return "graph" }
func (g *Graph) NewState() games.State        { return &GraphState{G: g} }
func (g *Graph) MaxLegalMoves() int           { return 3 }
func (g *Graph) Validate() error              { return nil }
func (g *Graph) NewGame() (games.Game, error) { return g, nil }
func (g *Graph) ForSolver() games.Rules       { return g }
func (g *Graph) MoveCap() int                 { return 0 }

// Values solves the graph by value iteration in rounds, the plainest way:
// in round k a node is won if a move reaches a node settled in an earlier
// round that is lost for whoever decides there (won for the same player),
// taking the nearest; lost if every move reaches one settled earlier as
// won for the opponent, taking the farthest. Whatever never settles is a
// draw. It returns each unfinished node's value for its mover ('W', 'L',
// 'D'; 0 for finished nodes) and its distance in decisions.
func (g *Graph) Values() ([]byte, []int) {
	n := len(g.Movers)
	val, dist := make([]byte, n), make([]int, n)
	forMover := func(who games.Player, c int) byte {
		if g.Movers[c] == games.Terminal {
			switch g.Results[c] {
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
		case g.Movers[c] == who:
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
			if g.Movers[i] == games.Terminal || val[i] != 0 {
				continue
			}
			best, worst, lost := -1, -1, true
			for _, c := range g.Next[i] {
				switch forMover(g.Movers[i], c) {
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
		if g.Movers[i] != games.Terminal && val[i] == 0 {
			val[i] = 'D'
		}
	}
	return val, dist
}

// GraphState is a position of a Graph: its node.
type GraphState struct {
	G     *Graph
	Node  int
	plies int
}

func (s *GraphState) CurrentPlayer() games.Player { return s.G.Movers[s.Node] }
func (s *GraphState) LegalMoves(buf []games.Move) []games.Move {
	for k := range s.G.Next[s.Node] {
		buf = append(buf, games.Move(k))
	}
	return buf
}
func (s *GraphState) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome { return buf }
func (s *GraphState) Apply(m games.Move)                                             { s.Node = s.G.Next[s.Node][m]; s.plies++ }
func (s *GraphState) Clone() games.State                                             { c := *s; return &c }
func (s *GraphState) CopyFrom(src games.State)                                       { *s = *src.(*GraphState) }
func (s *GraphState) IsTerminal() bool                                               { return s.G.Movers[s.Node] == games.Terminal }
func (s *GraphState) Result() games.Result {
	return games.Result{Winner: s.G.Results[s.Node], Reason: "end"}
}
func (s *GraphState) Plies() int                           { return s.plies }
func (s *GraphState) MoveString(m games.Move) string       { return fmt.Sprintf("to%d", s.G.Next[s.Node][m]) }
func (s *GraphState) ParseMove(string) (games.Move, error) { return 0, fmt.Errorf("no") }
func (s *GraphState) String() string                       { return fmt.Sprint(s.Node) }
func (s *GraphState) ChanceFree() bool                     { return true }
func (s *GraphState) AppendKey(dst []byte) []byte {
	return binary.LittleEndian.AppendUint32(dst, uint32(s.Node))
}
func (s *GraphState) SetKey(key []byte) { s.Node, s.plies = int(binary.LittleEndian.Uint32(key)), 0 }
