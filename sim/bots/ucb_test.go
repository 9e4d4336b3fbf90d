package bots

import (
	"math"
	"math/rand/v2"
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/stacks"
	"playtest/games/stacktics"
)

// selectChildExact is selectChild's definition on a node with one block
// of children: one pass, the exact UCB score of every visited child.
func selectChildExact(b *MCTS, parent int32, k int) int32 {
	c := b.params.Exploration
	best, bestScore := int32(-1), math.Inf(-1)
	unvisited := int32(-1)
	pn := b.nodes.at(parent)
	first := b.blocks.at(pn.blocks).first
	// The children of a node that is not mixed share one availability
	// count, kept by the first; those of a mixed node keep their own.
	if !pn.mixed {
		b.nodes.at(first).avail++
	}
	common := math.Log(float64(b.nodes.at(first).avail))
	start := b.rng.IntN(k)
	for i := range k {
		child := first + int32((start+i)%k)
		n := b.nodes.at(child)
		if pn.mixed {
			n.avail++
		}
		if n.visits == 0 {
			if unvisited < 0 {
				unvisited = child
			}
			continue
		}
		lnAvail := common
		if pn.mixed {
			lnAvail = math.Log(float64(n.avail))
		}
		if score := n.value/float64(n.visits) + c*math.Sqrt(lnAvail/float64(n.visits)); score > bestScore {
			best, bestScore = child, score
		}
	}
	if unvisited >= 0 {
		return unvisited
	}
	return best
}

// TestSelectChildIsExact grows real search trees (mcts on Stacktics, with
// visit counts beyond the tables at the root; ismcts on Capstone, and on
// STACKS, whose nodes see different moves) and checks, at every node with
// one block of children, that selectChild picks the child the exact
// scores pick and counts the same availabilities.
func TestSelectChildIsExact(t *testing.T) {
	for _, c := range []struct {
		name        string
		rules       games.Rules
		determinize bool
		iterations  int
		// The case must reach mixed nodes, and children past the tables.
		mixed, big bool
	}{
		{"mcts/stacktics", stacktics.DefaultRules(), false, 100000, false, true},
		{"ismcts/capstone", capstone.DefaultRules(), true, 5000, false, false},
		{"ismcts/stacks", stacks.DefaultRules(), true, 5000, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := c.rules.NewGame()
			if err != nil {
				t.Fatal(err)
			}
			p := DefaultMCTSParams()
			p.Iterations, p.RolloutCap, p.EvalScale = c.iterations, 4, 3
			b := NewMCTS(*p, c.determinize)
			rng := rand.New(rand.NewPCG(5, 6))
			s := g.NewState()
			for s.CurrentPlayer() == games.Chance {
				s.Apply(games.SampleChance(s.ChanceOutcomes(nil), rng))
			}
			b.Reset(s.CurrentPlayer(), rng)
			b.Choose(s, s.LegalMoves(nil))
			checked, mixed, big := 0, 0, 0
			// Walk the whole tree from the root; check the nodes with one
			// block of children.
			for queue := []int32{0}; len(queue) > 0; {
				parent := queue[0]
				queue = queue[1:]
				pn := b.nodes.at(parent)
				if pn.blocks < 0 {
					continue // not expanded
				}
				if b.blocks.at(pn.blocks).next >= 0 { // several blocks: not aligned
					for bl := pn.blocks; bl >= 0; bl = b.blocks.at(bl).next {
						for c := range b.blocks.at(bl).n {
							queue = append(queue, b.blocks.at(bl).first+c)
						}
					}
					continue
				}
				blk := *b.blocks.at(pn.blocks)
				avail := make([]int32, blk.n)
				for i := range avail {
					n := b.nodes.at(blk.first + int32(i))
					avail[i] = n.avail
					if n.visits >= countTables {
						big++
					}
					queue = append(queue, blk.first+int32(i))
				}
				b.rng = rand.New(rand.NewPCG(9, uint64(parent)))
				want := selectChildExact(b, parent, int(blk.n))
				wantAvail := make([]int32, blk.n)
				for i := range avail {
					n := b.nodes.at(blk.first + int32(i))
					wantAvail[i], n.avail = n.avail, avail[i]
				}
				b.rng = rand.New(rand.NewPCG(9, uint64(parent)))
				if got := b.selectChild(parent, int(blk.n), true); got != want {
					t.Fatalf("node %d: selectChild chose %d, the exact scores %d", parent, got, want)
				}
				for i, a := range wantAvail {
					if n := b.nodes.at(blk.first + int32(i)); n.avail != a {
						t.Fatalf("node %d child %d: availability %d, want %d", parent, i, n.avail, a)
					}
				}
				checked++
				if pn.mixed {
					mixed++
				}
			}
			t.Logf("%d nodes checked, %d mixed, %d children past the tables", checked, mixed, big)
			if checked < 100 || (c.mixed && mixed == 0) || (c.big && big == 0) {
				t.Fatalf("the test checks too little")
			}
		})
	}
}
