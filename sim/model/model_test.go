package model

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/mnk"
	"playtest/games/pcg"
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
	var sc Scratch
	v := back.Evaluate(s, games.Seat0, &sc)
	hand := s.(games.Heuristic).Evaluate(games.Seat0)
	if want := (hand + 0.25) / 0.5; math.Abs(v-want) > 1e-12 || len(sc.Features) != len(names) {
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
	allocs := testing.AllocsPerRun(100, func() { v = m.Evaluate(s, games.Seat1, &sc) })
	if allocs != 0 {
		t.Errorf("Evaluate allocates %.1f times", allocs)
	}
}

// okModel is a valid model.json with fields replaced (key: JSON value).
func okModel(replace map[string]string) string {
	fields := map[string]string{
		"schema":     `"playtest/model/v1"`,
		"game":       `"stacktics"`,
		"rules_hash": `"sha256:` + strings.Repeat("ab", 32) + `"`,
		"features":   `["a", "b"]`,
		"weights":    `[1, -0.5]`,
		"bias":       `0.25`,
		"hand_scale": `0.5`,
	}
	for k, v := range replace {
		fields[k] = v
	}
	var parts []string
	for _, k := range []string{"schema", "game", "rules_hash", "features", "weights", "bias", "hand_scale"} {
		if v := fields[k]; v != "" {
			parts = append(parts, `"`+k+`": `+v)
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// TestReadRefuses (issue 53): a damaged or hand-made model.json is refused
// with the field that is wrong: overflowing numbers, a scale of nothing,
// duplicate keys, trailing data, odd names.
func TestReadRefuses(t *testing.T) {
	if _, err := Read(strings.NewReader(okModel(nil))); err != nil {
		t.Fatalf("a valid model: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{`{"schema": "x"}`, "schema"},
		{okModel(map[string]string{"weights": `[1]`}), "weights: 1 for 2 features"},
		{okModel(map[string]string{"hand_scale": `0`}), "hand_scale 0"},
		{okModel(map[string]string{"hand_scale": `5e-324`}), "hand_scale 5e-324"},
		{okModel(map[string]string{"hand_scale": `1e308`}), "hand_scale 1e+308"},
		{okModel(map[string]string{"hand_scale": `-3`}), "hand_scale -3"},
		{okModel(map[string]string{"weights": `[1e308, 1]`}), "weights[0] (a) 1e+308"},
		{okModel(map[string]string{"bias": `1e308`}), "bias 1e+308"},
		{okModel(map[string]string{"weights": `[1e999, 1]`}), "not a model"},
		{okModel(map[string]string{"features": `["a", "a"]`}), `features[1] "a"`},
		{okModel(map[string]string{"features": `["a", ""]`}), `features[1] ""`},
		{okModel(map[string]string{"game": `"x\ry"`}), "game"},
		{okModel(map[string]string{"game": `""`}), "game"},
		{okModel(map[string]string{"rules_hash": `"sha256:other"`}), "rules_hash"},
		{okModel(nil) + " {}", "data after the JSON value"},
		{strings.Replace(okModel(nil), `"bias": 0.25`, `"bias": 0.25, "bias": 0.3`, 1), `the key "bias" is given twice`},
		{`not json`, "not a model"},
		// More features than any game names: refused in a line (two
		// million made a 16.9 MB message).
		{okModel(map[string]string{"features": `[` + strings.Repeat(`"f",`, 5000) + `"g"]`, "weights": `[` + strings.Repeat(`0,`, 5000) + `0]`}), "features: 5001 of them, want 1 to 4096"},
	} {
		if _, err := Read(strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 1000 {
			t.Errorf("%.300s: %.300v, want %q", c.text, err, c.want)
		}
	}
}

// FuzzRead: whatever a model file holds, Read returns a model that
// Validate accepts (and whose logit is finite for features of at most a
// thousand in size) or an error, never a panic.
func FuzzRead(f *testing.F) {
	f.Add([]byte(okModel(nil)))
	f.Add([]byte(okModel(map[string]string{"weights": `[1e308, 1]`})))
	f.Add([]byte(`{"schema": "playtest/model/v1", "bias": 1, "bias": 2}`))
	// A dense network's model (kind dense) of a 1 × 2 board.
	d, err := NewDense(games.CellBoard{Rows: 1, Cols: 2, States: 3, Symmetries: [][]int{{0, 1}}}, 2, pcg.New(1, 1))
	if err != nil {
		f.Fatal(err)
	}
	dm := NewDenseModel("mnk", d, 0.5, 1)
	dm.RulesHash = RulesHash("mnk", "rules")
	var b bytes.Buffer
	if err := dm.Write(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Read gave a model Validate refuses: %v", err)
		}
		f := make([]float64, len(m.Features))
		for i := range f {
			f[i] = 1000
		}
		if v := m.Logit(f) / m.HandScale; math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("an evaluation of %v", v)
		}
	})
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
