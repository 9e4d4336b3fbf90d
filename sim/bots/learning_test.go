package bots

import (
	"math"
	"strings"
	"testing"

	"playtest/games"
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
