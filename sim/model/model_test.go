package model

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/mnk"
	"playtest/games/stacktics"
)

func stackticsGame(t *testing.T) games.Game {
	t.Helper()
	r := stacktics.DefaultRules()
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestModelRoundTrip: a model written and read back evaluates alike; its
// Evaluate is the logit in hand units; Check refuses another game, other
// features and, strictly, other rules.
func TestModelRoundTrip(t *testing.T) {
	g := stackticsGame(t)
	f := g.(games.Featurer)
	var names []string
	for _, x := range f.Features() {
		names = append(names, x.Name)
	}
	hash := RulesHash(g.Name(), stacktics.DefaultRules())
	m := &Model{Schema: Schema, Game: g.Name(), RulesHash: hash, Features: names, Weights: f.HandWeights(), Bias: 0.25, HandScale: 0.5}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	v, buf := back.Evaluate(s.(games.FeatureState), games.Seat0, nil)
	hand := s.(games.Heuristic).Evaluate(games.Seat0)
	if want := (hand + 0.25) / 0.5; math.Abs(v-want) > 1e-12 || len(buf) != len(names) {
		t.Errorf("Evaluate %v, want %v", v, want)
	}
	if err := back.Check(g, hash, true); err != nil {
		t.Errorf("its own rules: %v", err)
	}
	var other *OtherRulesError
	if err := back.Check(g, "sha256:other", true); !errors.As(err, &other) {
		t.Errorf("strict, other rules: %v", err)
	}
	if err := back.Check(g, "sha256:other", false); err != nil {
		t.Errorf("not strict, other rules: %v", err)
	}
	back.Features[0] = "renamed"
	if err := back.Check(g, hash, false); err == nil || !strings.Contains(err.Error(), "features") {
		t.Errorf("other features: %v", err)
	}
	back.Game = "capstone"
	if err := back.Check(g, hash, false); err == nil {
		t.Error("another game's model was accepted")
	}
	allocs := testing.AllocsPerRun(100, func() { v, buf = m.Evaluate(s.(games.FeatureState), games.Seat1, buf) })
	if allocs != 0 {
		t.Errorf("Evaluate allocates %.1f times", allocs)
	}
}

// TestReadRefuses: a damaged model.json is refused with what is wrong.
func TestReadRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"schema": "x"}`, "schema"},
		{`{"schema": "playtest/model/v1", "features": ["a"], "weights": [], "hand_scale": 1}`, "1 features"},
		{`{"schema": "playtest/model/v1", "features": ["a"], "weights": [1], "hand_scale": 0}`, "hand_scale"},
		{`{"schema": "playtest/model/v1", "features": ["a"], "weights": [1e999], "hand_scale": 1}`, "not a model"},
		{`not json`, "not a model"},
	} {
		if _, err := Read(strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.text, err, c.want)
		}
	}
}

// A model of a rule set whose positions have other features (k in a row
// changes them) is refused as learned under other rules.
func TestOtherRulesOtherFeatures(t *testing.T) {
	g3, g4 := mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 3}), mnk.New(mnk.Rules{Rows: 4, Cols: 4, K: 4})
	var names []string
	for _, f := range g3.Features() {
		names = append(names, f.Name)
	}
	m := &Model{Schema: Schema, Game: "mnk", RulesHash: "sha256:three", Features: names, Weights: make([]float64, len(names)), HandScale: 1}
	if err := m.Check(g3, "sha256:three", true); err != nil {
		t.Fatal(err)
	}
	if err := m.Check(g4, "sha256:four", false); err == nil || !strings.Contains(err.Error(), "learned under other rules") {
		t.Errorf("k 4's game took k 3's model: %v", err)
	}
}
