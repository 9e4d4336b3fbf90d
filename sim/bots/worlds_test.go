package bots

import (
	"math"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/pcg"
	"playtest/games/stacktics"
)

// capstonePositions plays random games of Capstone and returns copies of
// positions in which the player to move has a choice.
func capstonePositions(t *testing.T, n int) []games.State {
	t.Helper()
	g, err := capstone.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	rng := pcg.New(21, 22)
	var out []games.State
	for len(out) < n {
		s := g.NewState()
		for !s.IsTerminal() && len(out) < n {
			if s.CurrentPlayer() == games.Chance {
				m, _ := games.DrawChance(s, rng, nil)
				s.Apply(m)
				continue
			}
			legal := s.LegalMoves(nil)
			if p := s.CurrentPlayer(); (p == games.Seat0 || p == games.Seat1) && len(legal) > 1 && rng.IntN(4) == 0 {
				out = append(out, s.Clone())
			}
			s.Apply(legal[rng.IntN(len(legal))])
		}
	}
	return out
}

// TestWorldsMeanOverDeterminizations checks worlds: the values a decision
// leaves are each legal move's mean over the worlds, re-sampled from the
// bot's stream, of its exact value in that world (a forced result counted
// as the largest lead), and the move played is the best mean; the trace
// is given no root value from it (it is no position's value). The reference searches each world alone, with a
// fresh bot and a full window for every root move.
func TestWorldsMeanOverDeterminizations(t *testing.T) {
	const worlds, depth = 4, 2
	positions := capstonePositions(t, 12)
	for i, s := range positions {
		seat := s.CurrentPlayer()
		legal := s.LegalMoves(nil)
		b := NewAlphaBeta(AlphaBetaParams{Nodes: 400000, Depth: depth, Quiescence: true, Tactics: true, Worlds: worlds})
		b.Reset(seat, pcg.New(uint64(i), 7))
		played := b.Choose(s, legal)

		rng := pcg.New(uint64(i), 7)
		sum := make([]float64, len(legal))
		for range worlds {
			w := s.Clone()
			w.(games.Determinizer).Determinize(seat, rng)
			ref := NewAlphaBeta(AlphaBetaParams{Nodes: 400000, Depth: depth, Quiescence: true, Tactics: true, Noise: math.Inf(1)})
			ref.Reset(seat, pcg.New(1, 1))
			ref.prepare(w)
			ref.deepen(w, legal, 400000, math.Inf(1))
			if ref.searched != len(legal) {
				t.Fatalf("position %d: the reference searched %d of %d moves", i, ref.searched, len(legal))
			}
			for k, m := range ref.lastOrder {
				sum[slices.Index(legal, m)] += min(max(ref.lastValues[k], -maxLead), maxLead)
			}
		}
		if b.searched != len(legal) {
			t.Fatalf("position %d: %d of %d moves valued", i, b.searched, len(legal))
		}
		best, bestValue := legal[0], math.Inf(-1)
		for j, m := range legal {
			want := sum[j] / worlds
			k := slices.Index(b.lastOrder, m)
			if got := b.lastValues[k]; math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
				t.Errorf("position %d, move %v: mean %v, want %v", i, m, got, want)
			}
			if want > bestValue {
				best, bestValue = m, want
			}
		}
		if played != best {
			t.Errorf("position %d: played %v, the best mean is %v's", i, played, best)
		}
		if v, ok := b.RootValue(); ok {
			t.Errorf("position %d: a mean over worlds gives the trace a root value, %v", i, v)
		}
	}
}

// TestWorldsChangeOnlyHiddenInformation checks that worlds: re-samples:
// on Capstone some decisions differ from the one world's, and on
// Stacktics, which hides nothing, every decision and value is the same.
func TestWorldsChangeOnlyHiddenInformation(t *testing.T) {
	decide := func(s games.State, worlds int) (games.Move, []float64) {
		b := NewAlphaBeta(AlphaBetaParams{Nodes: 4000, Quiescence: true, Tactics: true, Worlds: worlds})
		b.Reset(s.CurrentPlayer(), pcg.New(3, 4))
		m := b.Choose(s, s.LegalMoves(nil))
		return m, slices.Clone(b.lastValues)
	}
	differ := 0
	for _, s := range capstonePositions(t, 20) {
		m1, v1 := decide(s, 1)
		m8, v8 := decide(s, 8)
		if m1 != m8 || !slices.Equal(v1, v8) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("on Capstone 8 worlds valued every position as the one world did")
	}
	g, err := stacktics.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	s, rng := g.NewState(), pcg.New(5, 6)
	for n := 0; n < 12 && !s.IsTerminal(); n++ {
		legal := s.LegalMoves(nil)
		if len(legal) > 1 {
			m1, v1 := decide(s, 1)
			m8, v8 := decide(s, 8)
			if m1 != m8 || !slices.Equal(v1, v8) {
				t.Fatalf("Stacktics decision %d: 8 worlds played %v %v, one world %v %v", n, m8, v8, m1, v1)
			}
		}
		s.Apply(legal[rng.IntN(len(legal))])
	}
}

// TestWorldsAllocateNothing checks that a decision over worlds allocates
// nothing once the bot's buffers are made, its worlds drawn from the prior
// or weighed by infer: (the belief's memory reused).
func TestWorldsAllocateNothing(t *testing.T) {
	positions := capstonePositions(t, 8)
	for _, infer := range []float64{0, 2} {
		b := NewAlphaBeta(AlphaBetaParams{Nodes: 2000, Quiescence: true, Tactics: true, Worlds: 8, Inference: Inference{Infer: infer}})
		b.Reset(positions[0].CurrentPlayer(), pcg.New(1, 2))
		legal := make([][]games.Move, len(positions))
		for i, s := range positions {
			legal[i] = s.LegalMoves(nil)
			b.seat = s.CurrentPlayer()
			b.Choose(s, legal[i])
		}
		i := 0
		if a := testing.AllocsPerRun(20, func() {
			s := positions[i%len(positions)]
			b.seat = s.CurrentPlayer()
			b.Choose(s, legal[i%len(positions)])
			i++
		}); a != 0 {
			t.Errorf("infer %v: %v allocations a decision over 8 worlds", infer, a)
		}
	}
}

// TestWorldsOnASmallBudget checks that a budget too small for its worlds
// (a ladder's low rung, set past Validate) searches fewer worlds of
// minWorldNodes each, and still values every move.
func TestWorldsOnASmallBudget(t *testing.T) {
	for _, s := range capstonePositions(t, 6) {
		legal := s.LegalMoves(nil)
		b := NewAlphaBeta(AlphaBetaParams{Nodes: 125, Quiescence: true, Tactics: true, Worlds: 8})
		b.Reset(s.CurrentPlayer(), pcg.New(8, 9))
		if m := b.Choose(s, legal); !slices.Contains(legal, m) {
			t.Fatalf("played %v, not a legal move", m)
		}
		if b.searched != len(legal) {
			t.Errorf("%d of %d moves valued", b.searched, len(legal))
		}
		for j := range legal {
			if n := b.worldN[j]; n > 125/minWorldNodes {
				t.Errorf("move %v valued in %d worlds, want at most %d", legal[j], n, 125/minWorldNodes)
			}
		}
	}
}

// TestWorldsValidated checks that worlds: is bounded and leaves each world
// a budget.
func TestWorldsValidated(t *testing.T) {
	for _, c := range []struct {
		nodes, worlds int
		ok            bool
	}{{2000, 0, true}, {2000, 1, true}, {2000, 40, true}, {2000, 41, false}, {2000, -1, false}, {100000, 1001, false}} {
		p := DefaultAlphaBetaParams()
		p.Nodes, p.Worlds = c.nodes, c.worlds
		err := p.Validate()
		if (err == nil) != c.ok {
			t.Errorf("nodes %d, worlds %d: %v", c.nodes, c.worlds, err)
		}
		if ke, isKnob := err.(*games.KnobError); err != nil && (!isKnob || ke.Knob != "worlds") {
			t.Errorf("nodes %d, worlds %d: %v does not name worlds", c.nodes, c.worlds, err)
		}
	}
}
