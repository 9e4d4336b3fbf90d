package bots

import (
	"math"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/pcg"
	"playtest/games/stacks"
	"playtest/games/stacktics"
)

// selectChildExact is selectChild's definition on a node with one block
// of children: one pass, the exact UCB score of every visited child. The
// children of a node that is not mixed share one availability count, kept
// by the first (selectExactReference); those of a mixed node keep their
// own.
func selectChildExact(b *MCTS, parent int32, k int) int32 {
	pn := b.nodes.at(parent)
	first := b.blocks.at(pn.blocks).first
	if !pn.mixed {
		return first + selectExactReference(b, b.nodes.run(first, k))
	}
	c := b.params.Exploration
	best, bestScore := int32(-1), math.Inf(-1)
	unvisited := int32(-1)
	start := b.rng.IntN(k)
	for i := range k {
		child := first + int32((start+i)%k)
		n := b.nodes.at(child)
		n.avail++
		if n.visits == 0 {
			if unvisited < 0 {
				unvisited = child
			}
			continue
		}
		lnAvail := math.Log(float64(n.avail))
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
		implicit   float64
	}{
		{"mcts/stacktics", stacktics.DefaultRules(), false, 100000, false, true, 0.5},
		{"mcts/stacktics without implicit minimax", stacktics.DefaultRules(), false, 100000, false, true, 0},
		{"ismcts/capstone", capstone.DefaultRules(), true, 5000, false, false, 0.5},
		{"ismcts/stacks", stacks.DefaultRules(), true, 5000, true, false, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := c.rules.NewGame()
			if err != nil {
				t.Fatal(err)
			}
			p := DefaultMCTSParams()
			p.Iterations, p.RolloutCap, p.EvalScale, p.Implicit = c.iterations, 4, 3, c.implicit
			b := NewMCTS(*p, c.determinize)
			rng := pcg.New(5, 6)
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
				b.rng = pcg.New(9, uint64(parent))
				want := selectChildExact(b, parent, int(blk.n))
				wantAvail := make([]int32, blk.n)
				for i := range avail {
					n := b.nodes.at(blk.first + int32(i))
					wantAvail[i], n.avail = n.avail, avail[i]
				}
				b.rng = pcg.New(9, uint64(parent))
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

// TestSelectAmongTies checks selectAmong against the exact scores on
// children built to tie: identical statistics (more than it keeps near the
// best, which sends it to the exact scores), scores a rounding apart,
// unvisited children among visited ones, and counts past the tables.
func TestSelectAmongTies(t *testing.T) {
	p := DefaultMCTSParams()
	b := NewMCTS(*p, false)
	gen := pcg.New(7, 8)
	exact, crowds := 0, 0
	for trial := range 20000 {
		k := 1 + gen.IntN(60)
		kinds := 1 + gen.IntN(4) // few distinct statistics: many ties
		stats := make([]node, kinds)
		for i := range stats {
			v := int32(1 + gen.IntN(40))
			if gen.IntN(8) == 0 {
				v = countTables + int32(gen.IntN(3000))
			}
			if gen.IntN(20) == 0 {
				v = 0
			}
			stats[i] = node{visits: v, value: float64(gen.IntN(int(v)+1)) / 2}
		}
		children := make([]node, k)
		for i := range children {
			children[i] = stats[gen.IntN(kinds)]
			if gen.IntN(3) == 0 && children[i].visits > 0 {
				// A score a rounding or two away from its twins'.
				children[i].value = math.Nextafter(children[i].value, math.Inf(gen.IntN(2)*2-1))
			}
		}
		children[0].avail = int32(gen.IntN(5000))
		want := slices.Clone(children)
		b.rng = pcg.New(uint64(trial), 1)
		wantIndex := selectExactReference(b, want)
		b.rng = pcg.New(uint64(trial), 1)
		if got := b.selectAmong(children); got != wantIndex {
			t.Fatalf("trial %d: selectAmong chose %d, the exact scores %d (children %+v)", trial, got, wantIndex, want)
		}
		if children[0].avail != want[0].avail {
			t.Fatalf("trial %d: shared availability %d, want %d", trial, children[0].avail, want[0].avail)
		}
		if wantIndex >= 0 && children[wantIndex].visits > 0 {
			exact++
		}
		if k > maxNear && kinds == 1 {
			crowds++
		}
	}
	if exact < 1000 || crowds < 100 {
		t.Fatalf("the test checks too little: %d choices by score, %d crowds of ties", exact, crowds)
	}
}

// selectExactReference is selectAmong's definition: the shared count goes
// up by one; the first unvisited child after the random start, else the
// first with the best exact score.
func selectExactReference(b *MCTS, children []node) int32 {
	children[0].avail++
	logAvail := math.Log(float64(children[0].avail))
	k := len(children)
	start := b.rng.IntN(k)
	best, bestScore := int32(start), math.Inf(-1) // every move proven lost: the start
	for i := range k {
		j := (start + i) % k
		n := children[j]
		if n.proof == proofLoss {
			continue // the solver never picks a move proven lost
		}
		if n.visits == 0 {
			return int32(j)
		}
		mean := n.value / float64(n.visits)
		if b.alpha > 0 { // implicit minimax: the mean blended with the node's value
			mean = (1-b.alpha)*mean + b.alpha*float64(n.judged())
		}
		score := mean + b.params.Exploration*math.Sqrt(logAvail/float64(n.visits))
		if score > bestScore {
			best, bestScore = int32(j), score
		}
	}
	return best
}

// TestJudgeLead checks judge's remembered logistic against the formula,
// on leads that repeat (whole numbers, and sums of twentieths as the
// Stacktics heuristic makes), that collide in the table, and that do not
// repeat.
func TestJudgeLead(t *testing.T) {
	p := DefaultMCTSParams()
	p.EvalScale = 3
	b := NewMCTS(*p, false)
	gen := pcg.New(1, 2)
	var leads []float64
	for i := -200; i <= 200; i++ {
		leads = append(leads, float64(i), float64(i)+0.5, 2*(float64(i/10)+0.05*float64(i)))
	}
	hits := 0
	for range 200000 {
		d := leads[gen.IntN(len(leads))]
		if gen.IntN(4) == 0 {
			d = 100*gen.Float64() - 50 // a lead seen once
		}
		want := 1 / (1 + math.Exp(-d/3))
		if b.leads.lead[leadSlot(d)] == d {
			hits++
		}
		if got := b.judgeLead(d); got != want {
			t.Fatalf("lead %v: %v, want %v", d, got, want)
		}
	}
	if hits < 10000 || hits > 190000 {
		t.Fatalf("%d of 200000 leads found in the table: the test checks too little of one path", hits)
	}
}
