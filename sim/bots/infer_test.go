package bots

import (
	"math"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// TestInferWeighsTheWorlds checks infer: on Capstone, alphabeta's worlds
// are drawn from the game's belief at the decision's position (the
// values it leaves are each move's mean over worlds drawn so, from the
// bot's stream), ismcts draws its worlds from a belief too, and some
// decisions differ from those of worlds drawn from the prior.
func TestInferWeighsTheWorlds(t *testing.T) {
	const worlds, depth, infer = 4, 2, 2.0
	differ := 0
	for i, s := range capstonePositions(t, 12) {
		seat := s.CurrentPlayer()
		legal := s.LegalMoves(nil)
		params := AlphaBetaParams{Nodes: 400000, Depth: depth, Quiescence: true, Tactics: true, Worlds: worlds, Inference: Inference{Infer: infer}}
		b := NewAlphaBeta(params)
		b.Reset(seat, pcg.New(uint64(i), 7))
		played := b.Choose(s, legal)
		rng := pcg.New(uint64(i), 7)
		belief := s.(games.Inferrer).Belief(seat, infer, nil)
		sum := make([]float64, len(legal))
		for range worlds {
			w := s.Clone()
			belief.Determinize(w, rng)
			ref := NewAlphaBeta(AlphaBetaParams{Nodes: 400000, Depth: depth, Quiescence: true, Tactics: true, Noise: math.Inf(1)})
			ref.Reset(seat, pcg.New(1, 1))
			ref.prepare(w)
			ref.deepen(w, legal, 400000, math.Inf(1))
			for k, m := range ref.lastOrder {
				sum[slices.Index(legal, m)] += min(max(ref.lastValues[k], -maxLead), maxLead)
			}
		}
		for j, m := range legal {
			want := sum[j] / worlds
			if got := b.lastValues[slices.Index(b.lastOrder, m)]; math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
				t.Errorf("position %d, move %v: mean %v, want %v over the belief's worlds", i, m, got, want)
			}
		}
		params.Infer = 0
		prior := NewAlphaBeta(params)
		prior.Reset(seat, pcg.New(uint64(i), 7))
		if prior.Choose(s, legal) != played || !slices.Equal(prior.lastValues, b.lastValues) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("infer: changed no decision's values")
	}
	s := capstonePositions(t, 1)[0]
	m := NewMCTS(MCTSParams{Iterations: 300, Exploration: 1, Rollout: RolloutRandom, EvalScale: 10, TreeMB: 16, Inference: Inference{Infer: infer}}, true)
	m.Reset(s.CurrentPlayer(), pcg.New(1, 1))
	if mv := m.Choose(s, s.LegalMoves(nil)); !slices.Contains(s.LegalMoves(nil), mv) || m.belief == nil {
		t.Errorf("ismcts with infer: played %v, belief %v", mv, m.belief)
	}
}

// TestInferValidated checks that infer: is bounded, on both families.
func TestInferValidated(t *testing.T) {
	for _, c := range []struct {
		infer float64
		ok    bool
	}{{0, true}, {1.7, true}, {20, true}, {20.5, false}, {-0.1, false}, {math.NaN(), false}} {
		ab := DefaultAlphaBetaParams()
		ab.Infer = c.infer
		mc := DefaultMCTSParams()
		mc.Infer = c.infer
		for _, err := range []error{ab.Validate(), mc.Validate()} {
			if (err == nil) != c.ok {
				t.Errorf("infer %v: %v", c.infer, err)
			}
			if ke, isKnob := err.(*games.KnobError); err != nil && (!isKnob || ke.Knob != "infer") {
				t.Errorf("infer %v: %v does not name infer", c.infer, err)
			}
		}
	}
}
