package bots

import (
	"math"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/games/stacktics"
	"playtest/sim/model"
)

// TestMCTSJudgesWithTheModel: mcts's judgement of a position with a model
// is the model's chance σ((logit₀ − logit₁)/2) for seat 0, eval_scale
// aside; alphabeta's lead is the logits' difference in hand units.
func TestMCTSJudgesWithTheModel(t *testing.T) {
	g, err := stacktics.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	f := g.(games.Featurer)
	var names []string
	for _, x := range f.Features() {
		names = append(names, x.Name)
	}
	w := make([]float64, len(names))
	for i := range w {
		w[i] = 0.1 * float64(i+1)
	}
	m := &model.Model{Schema: model.Schema, Game: g.Name(), Features: names, Weights: w, Bias: 0.3, HandScale: 0.5}
	s := g.NewState()
	// A few moves in, so the features are not all zero.
	var buf []games.Move
	for range 4 {
		buf = s.LegalMoves(buf[:0])
		s.Apply(buf[len(buf)/2])
	}
	fs := s.(games.FeatureState)
	l0 := m.Logit(fs.AppendFeatures(nil, games.Seat0))
	l1 := m.Logit(fs.AppendFeatures(nil, games.Seat1))
	p := DefaultMCTSParams()
	p.Eval, p.Model = "learned", "m.json"
	p.UseModel(m, "sha")
	b := NewMCTS(*p, false)
	if got, want := b.judge(s)[games.Seat0], model.Sigmoid((l0-l1)/2); math.Abs(got-want) > 1e-12 {
		t.Errorf("mcts judges %v, want %v", got, want)
	}
	a := NewAlphaBeta(AlphaBetaParams{Nodes: 100, Learning: Learning{Eval: "learned", Model: "m.json"}})
	a.params.UseModel(m, "sha")
	a.seat = games.Seat1
	a.params.Tempo = 0
	if got, want := a.evaluate(s), (l1-l0)/0.5; math.Abs(got-want) > 1e-12 {
		t.Errorf("alphabeta evaluates %v, want %v", got, want)
	}
}

// TestEvalHandSetsTheModelAside: eval: hand said outright plays the hand
// heuristic whatever model: the bot names (a preset's bots played with
// --set players.0.eval=hand), where a model: without eval: learned is
// refused, and eval: learned needs a model.
func TestEvalHandSetsTheModelAside(t *testing.T) {
	for _, c := range []struct {
		eval, model string
		wantErr     string
	}{
		{"hand", "preset", ""},
		{"", "preset", "is read only with eval: learned"},
		{"learned", "", "is required with eval: learned"},
		{"learned", "preset", ""},
	} {
		l := Learning{Eval: c.eval, Model: c.model}
		err := l.validate()
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("eval %q model %q: %v", c.eval, c.model, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("eval %q model %q: %v, want %q", c.eval, c.model, err, c.wantErr)
		}
		if c.eval == "hand" && (l.Eval != "" || l.ModelFile() != "") {
			t.Errorf("eval: hand kept eval %q and model %q", l.Eval, l.ModelFile())
		}
	}
}

// TestLazyEvaluation: with lazy:, alphabeta reads a network on a logistic
// base whole where the base lies within lazy of the window (bit for bit
// the value without lazy:, tempo included, so a margin nothing passes
// plays the same moves), and the base alone where it lies further out; a
// negative lazy: is refused.
func TestLazyEvaluation(t *testing.T) {
	g, err := stacktics.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	base := &model.Model{Schema: model.Schema, Game: g.Name(), Bias: 0.2, HandScale: 0.5}
	for i, x := range g.(games.Featurer).Features() {
		base.Features = append(base.Features, x.Name)
		base.Weights = append(base.Weights, 0.15*float64(i%5)-0.3)
	}
	board := g.(games.Boarder).CellBoard()
	rng := pcg.New(61, 62)
	n, err := model.NewNTuple(board, model.SnakeTuples(board, 10, 3, rng))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range n.Weights {
		for i := range w {
			w[i] = float32(rng.Float64()-0.5) / 5
		}
	}
	m := model.NewNTupleModel(g.Name(), n, 0.2, 1).WithBase(base)
	bot := func(lazy float64) *AlphaBeta {
		p := *DefaultAlphaBetaParams()
		p.Nodes, p.Lazy, p.Eval, p.Model = 3000, lazy, "learned", "m.json"
		p.UseModel(m, "sha")
		return NewAlphaBeta(p)
	}
	whole, never, lazy := bot(0), bot(1e9), bot(0.5)
	s := g.NewState()
	var buf []games.Move
	for ply := 0; ply < 30 && !s.IsTerminal(); ply++ {
		buf = s.LegalMoves(buf[:0])
		mover := s.CurrentPlayer()
		for _, b := range []*AlphaBeta{whole, never, lazy} {
			b.Reset(mover, pcg.New(1, 1))
		}
		want := whole.evaluate(s)
		if got := never.evaluateIn(s, want-1, want+1); got != want {
			t.Fatalf("ply %d: read whole with lazy: %v, want %v", ply, got, want)
		}
		view, negate := model.MoverView(s, mover)
		lead := 2 * base.Logit(s.(games.FeatureState).AppendFeatures(nil, view))
		if negate {
			lead = -lead
		}
		tempo := -lazy.params.Tempo
		if mover == lazy.seat {
			tempo = lazy.params.Tempo
		}
		alone := lead/0.5 + tempo // the base's value
		if got := lazy.evaluateIn(s, alone-0.1, alone+0.1); got != want {
			t.Fatalf("ply %d: the base within the window: %v, want %v", ply, got, want)
		}
		if got := lazy.evaluateIn(s, alone+0.6, alone+2); got != alone {
			t.Fatalf("ply %d: the base below the window by more than the margin: %v, want the base's %v", ply, got, alone)
		}
		if got := lazy.evaluateIn(s, alone-2, alone-0.4); got != want {
			t.Fatalf("ply %d: the base above the window within the margin: %v, want %v", ply, got, want)
		}
		a, b := whole.Choose(s, buf), never.Choose(s, buf)
		if a != b {
			t.Fatalf("ply %d: lazy: %v with nothing past its margin plays %v, without it %v", ply, never.params.Lazy, b, a)
		}
		s.Apply(a)
	}
	p := DefaultAlphaBetaParams()
	p.Lazy = -1
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "lazy") {
		t.Errorf("lazy: -1: %v", err)
	}
}
