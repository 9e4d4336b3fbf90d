package bots

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/internal/testenv"
)

// TestSolverProofsAreExact grows mcts trees with the solver on random game
// graphs (rollouts capped at 30 decisions: endless play judges even) and
// checks every proof in the tree against the exact value of its node's
// position; with a won position at the root, the bot plays a winning move.
func TestSolverProofsAreExact(t *testing.T) {
	rng := pcg.New(2008, 1)
	proofs, rootWins := 0, 0
	trials := testenv.Scale(300) // one goroutine's search: a smoke test under -race
	for trial := range trials {
		g := gamestest.RandomGraph(rng, 3+rng.IntN(25), 4)
		val, _ := g.Values()
		if g.Movers[0] == games.Terminal || len(g.Next[0]) < 2 {
			continue // no search: no tree
		}
		p := DefaultMCTSParams()
		p.Iterations, p.RolloutCap = 3000, 30
		b := NewMCTS(*p, false)
		s := &gamestest.GraphState{G: g}
		b.Reset(s.CurrentPlayer(), pcg.New(uint64(trial), 7))
		move := b.Choose(s, s.LegalMoves(nil))
		if val[0] == 'W' {
			c := s.Clone()
			c.Apply(move)
			if v := g.Movers[c.(*gamestest.GraphState).Node]; !(v == games.Terminal && g.Results[c.(*gamestest.GraphState).Node] == g.Movers[0] ||
				v != games.Terminal && (v == g.Movers[0]) == (val[c.(*gamestest.GraphState).Node] == 'W') && val[c.(*gamestest.GraphState).Node] != 'D') {
				t.Fatalf("trial %d: the root is won for %v but the bot played %d", trial, g.Movers[0], move)
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
				case g.Movers[it.pos] == games.Terminal && g.Results[it.pos] == nd.mover:
					want = proofWin
				case g.Movers[it.pos] == games.Terminal && g.Results[it.pos] != games.NoPlayer:
					want = proofLoss
				case g.Movers[it.pos] != games.Terminal && (g.Movers[it.pos] == nd.mover) == (val[it.pos] == 'W'):
					want = proofWin
				default:
					want = proofLoss
				}
				if g.Movers[it.pos] != games.Terminal && val[it.pos] == 'D' || int(nd.proof) != want {
					t.Fatalf("trial %d: a node at position %d proven %d for %v, exact value %c for its mover %v", trial, it.pos, nd.proof, nd.mover, val[it.pos], g.Movers[it.pos])
				}
				proofs++
			}
			for bl := nd.blocks; bl >= 0; bl = b.blocks.at(bl).next {
				k := b.blocks.at(bl)
				for c := k.first; c < k.first+k.n; c++ {
					queue = append(queue, item{c, g.Next[it.pos][b.nodes.at(c).move]})
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
		bots := seatBots(p, game)
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

// seatBots makes an mcts bot with p for each seat of game number game.
func seatBots(p *MCTSParams, game int) [games.NumSeats]*MCTS {
	var bots [games.NumSeats]*MCTS
	for seat := range bots {
		bots[seat] = NewMCTS(*p, false)
		bots[seat].Reset(games.Player(seat), pcg.New(uint64(game), uint64(seat)))
	}
	return bots
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
		bots := seatBots(p, game)
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
