package bots

import (
	"fmt"
	"regexp"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// luckTree is a small game tree for the proof tests: each node has a mover
// (a seat, games.Chance or games.Terminal), children (chance outcomes
// weighted by weights), a winner at the leaves and a heuristic lead for
// seat 0 elsewhere.
type luckTree struct {
	movers   []games.Player
	next     [][]int
	weights  [][]int
	winners  []games.Player
	heuristc []float64
}

type luckState struct {
	t     *luckTree
	node  int
	plies int
}

func (s *luckState) CurrentPlayer() games.Player { return s.t.movers[s.node] }
func (s *luckState) LegalMoves(buf []games.Move) []games.Move {
	if s.CurrentPlayer() < 0 {
		return buf
	}
	for k := range s.t.next[s.node] {
		buf = append(buf, games.Move(k))
	}
	return buf
}
func (s *luckState) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome {
	if s.CurrentPlayer() != games.Chance {
		return buf
	}
	for k, w := range s.t.weights[s.node] {
		buf = append(buf, games.ChanceOutcome{Move: games.Move(k), Weight: w})
	}
	return buf
}
func (s *luckState) Apply(m games.Move)       { s.node = s.t.next[s.node][m]; s.plies++ }
func (s *luckState) Clone() games.State       { c := *s; return &c }
func (s *luckState) CopyFrom(src games.State) { *s = *src.(*luckState) }
func (s *luckState) IsTerminal() bool         { return s.CurrentPlayer() == games.Terminal }
func (s *luckState) Result() games.Result {
	return games.Result{Winner: s.t.winners[s.node], Reason: "end"}
}
func (s *luckState) Plies() int                     { return s.plies }
func (s *luckState) MoveString(m games.Move) string { return fmt.Sprintf("m%d", m) }
func (s *luckState) ParseMove(string) (games.Move, error) {
	return 0, fmt.Errorf("no notation")
}
func (s *luckState) String() string { return fmt.Sprint(s.node) }
func (s *luckState) Evaluate(seat games.Player) float64 {
	if seat == games.Seat0 {
		return s.t.heuristc[s.node]
	}
	return -s.t.heuristc[s.node]
}

const (
	none = games.NoPlayer
	s0   = games.Seat0
	s1   = games.Seat1
)

// rootValue searches the tree's root for seat 0 and returns its root
// value and chosen move.
func rootValue(t *testing.T, tree *luckTree, p AlphaBetaParams, filter *Filter) (float64, games.Move) {
	t.Helper()
	b := NewAlphaBeta(p)
	b.filter = filter
	b.Reset(games.Seat0, pcg.New(1, 1))
	s := &luckState{t: tree}
	legal := s.LegalMoves(nil)
	if filter != nil {
		legal, _ = filter.Apply(s, legal)
	}
	m := b.Choose(s, legal)
	v, ok := b.RootValue()
	if !ok {
		t.Fatal("no root value")
	}
	return v, m
}

// TestChanceMeanIsNoProof: a move that wins nine times in ten is worth
// more than a sure draw, but it is no forced win: the root value stays
// below a proof's, while a move that wins whatever chance decides is one.
func TestChanceMeanIsNoProof(t *testing.T) {
	// 0: seat 0 to move: m0 → 1 (chance), m1 → 2 (a draw).
	// 1: chance: 9 → 3 (seat 0 wins), 1 → 4 (seat 1 wins).
	luck := &luckTree{
		movers:   []games.Player{s0, games.Chance, games.Terminal, games.Terminal, games.Terminal},
		next:     [][]int{{1, 2}, {3, 4}, nil, nil, nil},
		weights:  [][]int{nil, {9, 1}, nil, nil, nil},
		winners:  []games.Player{none, none, none, s0, s1},
		heuristc: make([]float64, 5),
	}
	v, m := rootValue(t, luck, AlphaBetaParams{Nodes: 1000}, nil)
	if m != 0 {
		t.Errorf("played m%d, want m0 (nine wins in ten against a draw)", m)
	}
	if v >= JudgeWin || v <= 0 {
		t.Errorf("root value %g: want a lead below a proof's %g (a one-in-ten loss is not a forced win)", v, JudgeWin)
	}
	// Both outcomes win: a forced win whatever chance decides.
	sure := *luck
	sure.winners = []games.Player{none, none, none, s0, s0}
	if v, _ := rootValue(t, &sure, AlphaBetaParams{Nodes: 1000}, nil); v < JudgeWin {
		t.Errorf("root value %g where every outcome wins: want a proof (≥ %g)", v, JudgeWin)
	}
}

// TestHugeHeuristicIsNoProof: a heuristic (a script's may return anything)
// beyond a proof's value is held below it, at the horizon and in a Judge.
func TestHugeHeuristicIsNoProof(t *testing.T) {
	// 0: seat 0 to move: m0 → 1, m1 → 2, each seat 1's, leading to a draw.
	tree := &luckTree{
		movers:   []games.Player{s0, s1, s1, games.Terminal},
		next:     [][]int{{1, 2}, {3}, {3}, nil},
		winners:  []games.Player{none, none, none, none},
		heuristc: []float64{1e9, 1e9, -1e9, 0},
	}
	v, m := rootValue(t, tree, AlphaBetaParams{Nodes: 1000, Depth: 1}, nil)
	if m != 0 || v >= JudgeWin || v <= 0 {
		t.Errorf("depth 1: played m%d with root value %g: want m0 with a lead below a proof's %g", m, v, JudgeWin)
	}
	j := NewJudge(nil)
	for _, static := range []bool{false, true} {
		j.Static = static
		if lead := j.Lead(&luckState{t: tree}); lead >= JudgeWin {
			t.Errorf("Judge (static %v): lead %g, a proof's, from a heuristic", static, lead)
		}
	}
}

// TestRestrictedLossIsNoProof: a bot restricted from its only saving move
// finds every allowed move lost; that loss is the restriction's, not the
// position's, and its root value is no proof, while a restricted bot's
// forced win still is.
func TestRestrictedLossIsNoProof(t *testing.T) {
	// 0: seat 0 to move: m0 and m2 → 1 (seat 1 wins), m1 → 2 (seat 0
	// wins).
	tree := &luckTree{
		movers:   []games.Player{s0, games.Terminal, games.Terminal},
		next:     [][]int{{1, 2, 1}, nil, nil},
		winners:  []games.Player{none, s1, s0},
		heuristc: make([]float64, 3),
	}
	forbidWin := &Filter{re: regexp.MustCompile("m1"), buf: make([]byte, 0, 8)}
	if v, _ := rootValue(t, tree, AlphaBetaParams{Nodes: 1000}, forbidWin); v <= -JudgeWin {
		t.Errorf("restricted from its winning move: root value %g, a proven loss: want a lead above %g", v, -JudgeWin)
	}
	if v, _ := rootValue(t, tree, AlphaBetaParams{Nodes: 1000}, nil); v < JudgeWin {
		t.Errorf("unrestricted: root value %g: want the proven win", v)
	}
	forbidLoss := &Filter{re: regexp.MustCompile("m0"), buf: make([]byte, 0, 8)}
	if v, _ := rootValue(t, tree, AlphaBetaParams{Nodes: 1000}, forbidLoss); v < JudgeWin {
		t.Errorf("restricted from a losing move: root value %g: want the proven win", v)
	}
}
