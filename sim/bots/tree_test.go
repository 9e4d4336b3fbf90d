package bots

import (
	"math"
	"slices"
	"testing"
	"unsafe"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/stacks"
	"playtest/games/stacktics"
)

func TestTreeSizes(t *testing.T) {
	if unsafe.Sizeof(node{}) != nodeBytes || unsafe.Sizeof(block{}) != blockBytes {
		t.Fatalf("node %d bytes, block %d: the constants say %d and %d",
			unsafe.Sizeof(node{}), unsafe.Sizeof(block{}), nodeBytes, blockBytes)
	}
}

// treeBytes is the memory the bot's tree holds.
func (b *MCTS) treeBytes() int64 {
	return int64(len(b.nodes.chunks))*chunkLen*nodeBytes + int64(len(b.blocks.chunks))*chunkLen*blockBytes
}

// TestTreeStaysWithinTreeMB searches far more iterations than a 1 MiB tree
// holds: the tree fills, stays within the limit, and the bot still plays
// legal moves, for mcts and ismcts.
func TestTreeStaysWithinTreeMB(t *testing.T) {
	for _, c := range []struct {
		name        string
		rules       games.Rules
		determinize bool
	}{{"mcts/stacktics", stacktics.DefaultRules(), false}, {"ismcts/stacks", stacks.DefaultRules(), true}} {
		t.Run(c.name, func(t *testing.T) {
			g, err := c.rules.NewGame()
			if err != nil {
				t.Fatal(err)
			}
			p := DefaultMCTSParams()
			p.Iterations, p.RolloutCap, p.TreeMB = 3000, 2, 1
			b := NewMCTS(*p, c.determinize)
			rng := pcg.New(1, 2)
			s := g.NewState()
			full := false
			for decisions := 0; !s.IsTerminal() && decisions < 6; {
				if s.CurrentPlayer() == games.Chance {
					s.Apply(games.SampleChance(s.ChanceOutcomes(nil), rng))
					continue
				}
				legal := s.LegalMoves(nil)
				b.Reset(s.CurrentPlayer(), rng)
				m := b.Choose(s, legal)
				if !slices.Contains(legal, m) {
					t.Fatalf("illegal move %d", m)
				}
				if got := b.treeBytes(); got > 1<<20 {
					t.Fatalf("the tree holds %d bytes, more than tree_mb 1", got)
				}
				full = full || b.free < chunkLen*nodeBytes
				s.Apply(m)
				decisions++
			}
			if !full {
				t.Fatal("the tree never filled: the test does not reach the limit")
			}
		})
	}
}

func TestTreeBytes(t *testing.T) {
	p := DefaultMCTSParams()
	small := p.TreeBytes(100)
	if small <= 0 || small >= int64(p.TreeMB)<<20 {
		t.Errorf("1,000 iterations, 100 moves: %d bytes", small)
	}
	if small < 1001*100*nodeBytes {
		t.Errorf("%d bytes cannot hold 1,001 blocks of 100 nodes", small)
	}
	p.Iterations = 10000000
	if got := p.TreeBytes(100); got != int64(p.TreeMB)<<20 {
		t.Errorf("10M iterations: %d bytes, want tree_mb", got)
	}
}

// TestLnCount checks the table of logarithms against math.Log on both
// sides of its end.
func TestLnCount(t *testing.T) {
	for _, n := range []int32{1, 2, 3, 100, int32(len(lnTable)) - 1, int32(len(lnTable)), 1 << 20} {
		if got, want := lnCount(n), math.Log(float64(n)); got != want {
			t.Errorf("lnCount(%d) = %v, want %v", n, got, want)
		}
	}
}
