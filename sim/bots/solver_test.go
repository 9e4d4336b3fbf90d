package bots

import (
	"fmt"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/internal/testenv"
)

// graphGame is a random game graph, cycles included: each position has a
// player to move and one to three moves, or is finished with a winner or a
// draw. Play that never ends is a draw.
type graphGame struct {
	movers  []games.Player
	winners []games.Player
	next    [][]int
}

func randomGraph(rng *pcg.Rand, n int) *graphGame {
	g := &graphGame{movers: make([]games.Player, n), winners: make([]games.Player, n), next: make([][]int, n)}
	for i := range n {
		if i > 0 && rng.IntN(4) == 0 {
			g.movers[i] = games.Terminal
			g.winners[i] = []games.Player{games.Seat0, games.Seat1, games.NoPlayer}[rng.IntN(3)]
			continue
		}
		g.movers[i] = games.Player(rng.IntN(2))
		for range 1 + rng.IntN(3) {
			g.next[i] = append(g.next[i], rng.IntN(n))
		}
	}
	return g
}

// exact returns each position's value for its mover by retrograde
// analysis: +1 won, -1 lost, 0 drawn (or endless).
func (g *graphGame) exact() []int {
	n := len(g.movers)
	val := make([]int, n)
	known := make([]bool, n)
	for i := range n {
		if g.movers[i] == games.Terminal {
			known[i] = true
		}
	}
	// forMover is what reaching j means for player p.
	forMover := func(j int, p games.Player) (int, bool) {
		if !known[j] {
			return 0, false
		}
		if g.movers[j] == games.Terminal {
			switch g.winners[j] {
			case p:
				return 1, true
			case games.NoPlayer:
				return 0, true
			}
			return -1, true
		}
		if g.movers[j] == p {
			return val[j], true
		}
		return -val[j], true
	}
	for changed := true; changed; {
		changed = false
		for i := range n {
			if known[i] {
				continue
			}
			p := g.movers[i]
			allLost := true
			for _, j := range g.next[i] {
				v, ok := forMover(j, p)
				if ok && v == 1 {
					val[i], known[i], changed = 1, true, true
					break
				}
				if !ok || v != -1 {
					allLost = false
				}
			}
			if !known[i] && allLost {
				val[i], known[i], changed = -1, true, true
			}
		}
	}
	return val // unknown positions keep 0: drawn or endless
}

type graphState struct {
	g    *graphGame
	node int
}

func (s *graphState) CurrentPlayer() games.Player { return s.g.movers[s.node] }
func (s *graphState) LegalMoves(buf []games.Move) []games.Move {
	for i := range s.g.next[s.node] {
		buf = append(buf, games.Move(i))
	}
	return buf
}
func (s *graphState) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome { return buf }
func (s *graphState) Apply(m games.Move)                                             { s.node = s.g.next[s.node][m] }
func (s *graphState) Clone() games.State                                             { c := *s; return &c }
func (s *graphState) CopyFrom(src games.State)                                       { *s = *src.(*graphState) }
func (s *graphState) IsTerminal() bool                                               { return s.g.movers[s.node] == games.Terminal }
func (s *graphState) Result() games.Result {
	return games.Result{Winner: s.g.winners[s.node], Reason: "graph"}
}
func (s *graphState) Plies() int                           { return 0 }
func (s *graphState) MoveString(m games.Move) string       { return fmt.Sprint(m) }
func (s *graphState) ParseMove(string) (games.Move, error) { return 0, fmt.Errorf("no") }
func (s *graphState) String() string                       { return fmt.Sprint(s.node) }
func (s *graphState) ChanceFree() bool                     { return true }

// TestSolverProofsAreExact grows mcts trees with the solver on random game
// graphs (rollouts capped at 30 decisions: endless play judges even) and
// checks every proof in the tree against the exact value of its node's
// position; with a won position at the root, the bot plays a winning move.
func TestSolverProofsAreExact(t *testing.T) {
	rng := pcg.New(2008, 1)
	proofs, rootWins := 0, 0
	trials := testenv.Scale(300) // one goroutine's search: a smoke test under -race
	for trial := range trials {
		g := randomGraph(rng, 3+rng.IntN(25))
		val := g.exact()
		if g.movers[0] == games.Terminal || len(g.next[0]) < 2 {
			continue // no search: no tree
		}
		p := DefaultMCTSParams()
		p.Iterations, p.RolloutCap = 3000, 30
		b := NewMCTS(*p, false)
		s := &graphState{g: g}
		b.Reset(s.CurrentPlayer(), pcg.New(uint64(trial), 7))
		move := b.Choose(s, s.LegalMoves(nil))
		if val[0] == 1 {
			c := s.Clone()
			c.Apply(move)
			if v := g.movers[c.(*graphState).node]; !(v == games.Terminal && g.winners[c.(*graphState).node] == g.movers[0] ||
				v != games.Terminal && (v == g.movers[0]) == (val[c.(*graphState).node] == 1) && val[c.(*graphState).node] != 0) {
				t.Fatalf("trial %d: the root is won for %v but the bot played %d", trial, g.movers[0], move)
			}
			rootWins++
		}
		// Walk the tree along the moves, keeping each node's position.
		type item struct {
			node int32
			pos  int
		}
		for queue := []item{{0, 0}}; len(queue) > 0; {
			it := queue[0]
			queue = queue[1:]
			nd := b.nodes.at(it.node)
			if it.node != 0 && nd.proof != 0 {
				// The position's value for the node's mover.
				want := 0
				switch {
				case g.movers[it.pos] == games.Terminal && g.winners[it.pos] == nd.mover:
					want = proofWin
				case g.movers[it.pos] == games.Terminal && g.winners[it.pos] != games.NoPlayer:
					want = proofLoss
				case g.movers[it.pos] != games.Terminal && (g.movers[it.pos] == nd.mover) == (val[it.pos] == 1):
					want = proofWin
				default:
					want = proofLoss
				}
				if g.movers[it.pos] != games.Terminal && val[it.pos] == 0 || int(nd.proof) != want {
					t.Fatalf("trial %d: a node at position %d proven %d for %v, exact value %d for its mover %v", trial, it.pos, nd.proof, nd.mover, val[it.pos], g.movers[it.pos])
				}
				proofs++
			}
			for bl := nd.blocks; bl >= 0; bl = b.blocks.at(bl).next {
				k := b.blocks.at(bl)
				for c := k.first; c < k.first+k.n; c++ {
					queue = append(queue, item{c, g.next[it.pos][b.nodes.at(c).move]})
				}
			}
		}
	}
	if proofs < trials*10/3 || rootWins < trials/15 {
		t.Errorf("%d proofs checked, %d won roots: the test checks too little", proofs, rootWins)
	}
}

// checkTree walks the tree from node, whose position is s, down to depth
// levels: every expanded node's children are its position's legal moves,
// in order (the fixed case).
func checkTree(t *testing.T, b *MCTS, node int32, s games.State, depth int) int {
	t.Helper()
	nd := b.nodes.at(node)
	if nd.blocks < 0 || depth == 0 || s.IsTerminal() {
		return 0
	}
	k := b.blocks.at(nd.blocks)
	legal := s.LegalMoves(nil)
	if k.next >= 0 || int(k.n) != len(legal) {
		t.Fatalf("a node with %d children in %v blocks, %d legal moves", k.n, k.next >= 0, len(legal))
	}
	checked := 1
	for i, c := range b.nodes.run(k.first, int(k.n)) {
		if c.move != legal[i] || c.mover != s.CurrentPlayer() {
			t.Fatalf("child %d: move %v of %v, legal %v of %v", i, c.move, c.mover, legal[i], s.CurrentPlayer())
		}
		child := s.Clone()
		child.Apply(c.move)
		checked += checkTree(t, b, k.first+int32(i), child, depth-1)
	}
	return checked
}

// TestReuseKeepsTheRightSubtree plays Stacktics games between two mcts
// bots that keep their subtrees: at every decision the tree's nodes stand
// for the positions their moves reach (checked three levels down), the
// kept root brings its visits.
func TestReuseKeepsTheRightSubtree(t *testing.T) {
	g, err := stacktics.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultMCTSParams()
	p.Iterations, p.RolloutCap, p.EvalScale = 3000, 6, 6
	reused, checked := 0, 0
	for game := range 3 {
		var bots [games.NumSeats]*MCTS
		for seat := range bots {
			bots[seat] = NewMCTS(*p, false)
			bots[seat].Reset(games.Player(seat), pcg.New(uint64(game), uint64(seat)))
		}
		s := g.NewState()
		for k := 0; !s.IsTerminal() && k < 20; k++ {
			b := bots[s.CurrentPlayer()]
			legal := s.LegalMoves(nil)
			m := b.Choose(s, legal)
			if !contains(legal, m) {
				t.Fatalf("an illegal move %v", m)
			}
			if len(legal) > 1 {
				if root := b.nodes.at(0); root.visits > int32(p.Iterations) {
					reused++ // the root came with the visits of the last decision
				}
				checked += checkTree(t, b, 0, s, 3)
			}
			s.Apply(m)
		}
	}
	if reused < 10 || checked < 1000 {
		t.Errorf("%d decisions reused a subtree, %d nodes checked: the test checks too little", reused, checked)
	}
}

// TestImplicitMinimaxValues plays Stacktics games between mcts bots with
// implicit minimax backups (the solver and tree reuse on too), and after
// every decision checks each node of the tree: a node none of whose
// children has been visited holds the heuristic's judgement of its
// position for its mover (the result, for a finished game); any other
// holds the best of its visited children's values for the player who
// chose them, a proven child counting as won or lost.
func TestImplicitMinimaxValues(t *testing.T) {
	g, err := stacktics.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultMCTSParams()
	p.Iterations, p.RolloutCap, p.EvalScale, p.Implicit = 2000, 6, 3, 0.4
	proven := 0
	var check func(b *MCTS, node int32, s games.State) int
	check = func(b *MCTS, node int32, s games.State) int {
		nd := b.nodes.at(node)
		best := float32(-1)
		checked := 0
		if nd.blocks >= 0 {
			k := b.blocks.at(nd.blocks)
			for i, c := range b.nodes.run(k.first, int(k.n)) {
				if c.visits == 0 && c.proof == 0 {
					continue
				}
				child := s.Clone()
				child.Apply(c.move)
				checked += check(b, k.first+int32(i), child)
				best = max(best, c.judged())
				if c.proof != 0 {
					proven++
				}
			}
		}
		if node == 0 {
			return checked
		}
		want := best
		switch {
		case best < 0 && s.IsTerminal():
			want = float32(s.Result().ScoreFor(nd.mover))
		case best < 0:
			want = float32(b.judge(s)[nd.mover])
		case nd.mover != s.CurrentPlayer():
			want = 1 - best
		}
		if nd.minimax != want {
			t.Fatalf("a node of %v (mover %v, %d visits, %v children visited): minimax %v, want %v", s, nd.mover, nd.visits, best >= 0, nd.minimax, want)
		}
		return checked + 1
	}
	checked := 0
	for game := range 4 {
		var bots [games.NumSeats]*MCTS
		for seat := range bots {
			bots[seat] = NewMCTS(*p, false)
			bots[seat].Reset(games.Player(seat), pcg.New(uint64(game), uint64(seat)))
		}
		s := g.NewState()
		for !s.IsTerminal() {
			b := bots[s.CurrentPlayer()]
			legal := s.LegalMoves(nil)
			m := b.Choose(s, legal)
			if len(legal) > 1 {
				if b.alpha != p.Implicit {
					t.Fatalf("implicit minimax is off: alpha %v", b.alpha)
				}
				checked += check(b, 0, s)
			}
			s.Apply(m)
		}
	}
	if checked < 10000 || proven < 100 {
		t.Errorf("%d nodes checked, %d proven children: the test checks too little", checked, proven)
	}
}
