package bots_test

import (
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/sim/bots"
)

func game(t *testing.T) *stacktics.Game {
	r := stacktics.DefaultRules()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return stacktics.New(*r)
}

func TestGreedyTakesTheWin(t *testing.T) {
	g := game(t)
	// A's Smalls on a1 and e1 can capture c3 and reach the threshold.
	s, err := g.Position("a1=ALS b1=AM c1=ALMS e1=ALMS c3=BLMS d5=BLMS turn=A")
	if err != nil {
		t.Fatal(err)
	}
	b := bots.NewGreedy(g, bots.GreedyParams{})
	for seed := range uint64(5) {
		b.Reset(games.Seat0, pcg.New(seed, 0))
		m := b.Choose(s, s.LegalMoves(nil))
		c := s.Clone()
		c.Apply(m)
		if c.Result().Winner != games.Seat0 {
			t.Fatalf("greedy played %s, not a winning capture", s.MoveString(m))
		}
	}
}

func TestBotsPlayLegalMoves(t *testing.T) {
	g := game(t)
	for _, d := range bots.All {
		if d.Name == "perfect" {
			continue // refused on Stacktics (its repetition rule): perfect_test.go
		}
		for _, eps := range []float64{0, 1} {
			p := d.NewParams()
			switch x := p.(type) {
			case *bots.GreedyParams:
				x.Epsilon = eps
			case *bots.MCTSParams: // small budgets: this checks legality
				x.Iterations = 50
			case *bots.AlphaBetaParams:
				x.Nodes = 500
			}
			b := d.New(g, p)
			b.Reset(games.Seat0, pcg.New(1, 2))
			s := g.NewState()
			for !s.IsTerminal() {
				legal := s.LegalMoves(nil)
				before := s.String()
				m := b.Choose(s, legal)
				if !slices.Contains(legal, m) {
					t.Fatalf("%s chose an illegal move", d.Name)
				}
				if s.String() != before {
					t.Fatalf("%s modified the state", d.Name)
				}
				s.Apply(m)
				b.Reset(games.Player(1-int(s.CurrentPlayer())), pcg.New(3, 4))
			}
		}
	}
}

func TestParams(t *testing.T) {
	if err := (&bots.GreedyParams{Epsilon: 1.5}).Validate(); err == nil {
		t.Error("epsilon 1.5 accepted")
	}
	bad := []bots.Params{
		&bots.MCTSParams{Iterations: 0, Rollout: bots.RolloutRandom, EvalScale: 1},
		&bots.MCTSParams{Iterations: 10, Rollout: "smart", EvalScale: 1},
		&bots.MCTSParams{Iterations: 10, Rollout: bots.RolloutRandom, EvalScale: 0},
		&bots.AlphaBetaParams{Nodes: 10},
		&bots.AlphaBetaParams{Nodes: 1000, Depth: 99},
	}
	for _, p := range bad {
		if err := p.Validate(); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
	if err := bots.DefaultMCTSParams().Validate(); err != nil {
		t.Error(err)
	}
	if _, err := bots.Lookup("minimax"); err == nil {
		t.Error("unknown bot accepted")
	}
}

func TestDescribeAndBudget(t *testing.T) {
	m := bots.Spec{Bot: "mcts", Params: bots.DefaultMCTSParams()}
	if got := m.Describe(); got != "mcts, 1,000 iterations" {
		t.Errorf("Describe = %q", got)
	}
	strong := m.WithBudget(12345)
	if name, v, ok := strong.Budget(); !ok || name != "iterations" || v != 12345 || m.Params.(*bots.MCTSParams).Iterations != 1000 {
		t.Errorf("WithBudget: %s %d %v (the original must keep 1000)", name, v, ok)
	}
	if m.Same(strong) || !m.Same(bots.Spec{Bot: "mcts", Params: bots.DefaultMCTSParams()}) {
		t.Error("Same")
	}
	ab := bots.Spec{Bot: "alphabeta", Params: bots.DefaultAlphaBetaParams()}
	if ab.Describe() != "alphabeta, 20,000 nodes" || ab.Weak() {
		t.Errorf("alphabeta: %q", ab.Describe())
	}
	// Settings that differ from the defaults are named (issue 32): two
	// mcts of 1,000 iterations that play differently read differently.
	tuned := bots.DefaultMCTSParams()
	tuned.RolloutCap, tuned.EvalScale, tuned.Implicit = 6, 6, 0
	if got := (bots.Spec{Bot: "mcts", Params: tuned}).Describe(); got != "mcts, 1,000 iterations (rollout_cap 6, eval_scale 6, implicit 0)" {
		t.Errorf("Describe with settings = %q", got)
	}
	noisy := bots.DefaultAlphaBetaParams()
	noisy.Noise, noisy.NoiseMoves = 0.1, 4
	if got := (bots.Spec{Bot: "alphabeta", Params: noisy}).Settings(); strings.Join(got, ", ") != "noise 0.1, noise_moves 4" {
		t.Errorf("Settings = %q", got)
	}
	// Best turns the variety off (a hint is the bot's best move) and keeps
	// the rest; the original keeps its noise.
	noisy.Temperature, noisy.Nodes = 0.1, 3000
	if best := (bots.Spec{Bot: "alphabeta", Params: noisy}).Best(); best.Describe() != "alphabeta, 3,000 nodes" || noisy.Noise != 0.1 {
		t.Errorf("Best = %q (noise left %g)", best.Describe(), noisy.Noise)
	}
	if best := m.Best(); !best.Same(m) {
		t.Errorf("Best changed mcts: %q", best.Describe())
	}
	r := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	if !r.Weak() || r.Describe() != "random" || r.WithBudget(5).Params != r.Params {
		t.Error("random has no budget")
	}
	if got := bots.DescribePlayers([2]bots.Spec{m, r}); got != "mcts, 1,000 iterations vs random" {
		t.Errorf("DescribePlayers = %q", got)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := bots.Thousands(n); got != want {
			t.Errorf("bots.Thousands(%d) = %q", n, got)
		}
	}
}
