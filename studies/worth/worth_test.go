package worth

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"playtest/games"
	"playtest/reports"
	"playtest/variants"
)

// Every embedded study parses, loads its base, and names restrictions its
// game has: each game ships one.
func TestEmbeddedStudies(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range Names() {
		s, ok, err := Find(name)
		if err != nil || !ok {
			t.Fatalf("%s: %v (found %v)", name, err, ok)
		}
		cfg, err := s.Config(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, err := cfg.NewGame()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Mechanics {
			spec, err := cfg.Players[0].WithRestriction(m.Restrict)
			if err == nil {
				err = spec.CheckRestriction(g)
			}
			if err != nil {
				t.Errorf("%s: %s: %v", name, m.Label, err)
			}
		}
		if len(s.Mechanics) < 2 {
			t.Errorf("%s measures %d mechanics, want at least 2", name, len(s.Mechanics))
		}
		seen[cfg.Definition.Name] = true
	}
	for _, game := range []string{"stacktics", "capstone", "stacks", "capturecard"} {
		if !seen[game] {
			t.Errorf("no worth study of %s", game)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"base: stacktics/size2\nmechanics:\n  - {nme: no-swap}\n", `w.yaml:3: mechanics[0].nme: unknown key (did you mean "name"?)`},
		{"base: stacktics/size2\nmechanics:\n  - {label: x}\n", "w.yaml:3: mechanics[0]: want name: (a restriction the game names) or forbid:"},
		{"base: stacktics/size2\nmechanics:\n  - {name: a, forbid: b}\n", "w.yaml:3: mechanics[0]: want name:"},
		{"base: stacktics/size2\ngames: 3\nmechanics: [{name: no-swap}]\n", "w.yaml:2: games: want an even number"},
		{"mechanics: [{name: no-swap}]\n", "w.yaml:1: base: is required"},
		{"base: stacktics/size2\nmechanic: []\n", `w.yaml:2: mechanic: unknown key (did you mean "mechanics"?)`},
	} {
		_, err := Parse("w.yaml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// Stacktics is won by capturing: a player held to never capturing wins
// almost nothing, in either seat; a restriction on nothing costs nothing.
func TestWorthOfCapturing(t *testing.T) {
	cfg, err := variants.Load("stacktics/size2", []variants.Override{
		{Path: "players.0", Value: "{bot: alphabeta, nodes: 300, noise: 0.5, noise_moves: 14}"},
		{Path: "players.1", Value: "{bot: alphabeta, nodes: 300, noise: 0.5, noise_moves: 14}"},
		{Path: "games", Value: "20"},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, []Mechanic{{Label: "no-capture", Restrict: Named(mustGame(t, cfg))[1].Restrict}, Forbid("zzz")}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	capture, nothing := res.Rows[0], res.Rows[1]
	if capture.Worth.Low <= 0.2 || capture.BySeat[0].Rate > 0.2 || capture.BySeat[1].Rate > 0.2 || capture.Restricted.Pairs != 10 {
		t.Errorf("never capturing: worth %+v, by seat %+v", capture.Worth, capture.BySeat)
	}
	if nothing.Worth.Low > 0 || nothing.Worth.High < 0 || nothing.Lifted != 0 {
		t.Errorf("a restriction that forbids nothing: worth %+v, lifted %d", nothing.Worth, nothing.Lifted)
	}
	var md bytes.Buffer
	if err := res.WriteMarkdown(&md, true); err != nil || !strings.Contains(md.String(), "| no-capture | +") {
		t.Errorf("markdown %v:\n%s", err, md.String())
	}
	if _, err := res.Figure(); err != nil {
		t.Error(err)
	}
	if _, err := Run(context.Background(), cfg, nil, Options{}); err == nil {
		t.Error("a study of no mechanic ran")
	}
}

func mustGame(t *testing.T, cfg *variants.Config) games.Game {
	t.Helper()
	g, err := cfg.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The verdict's words agree with the interval beside them, at the
// thresholds: shown only when the interval leaves 0 out, "within ±5
// points" when it lies inside them, ends included.
func TestVerdictAtTheThresholds(t *testing.T) {
	for _, c := range []struct {
		low, high float64
		want      string
	}{
		{0.0001, 0.2, "worth having"},
		{0, 0.2, "not shown either way"},
		{0, 0.03, "worth little"},
		{-0.05, 0.05, "worth little"},
		{-0.0501, 0.05, "not shown either way"},
		{-0.2, -0.0001, "a handicap"},
		{-0.2, 0, "not shown either way"},
	} {
		r := Row{Games: 100, Worth: Estimate{Value: (c.low + c.high) / 2, Low: c.low, High: c.high}}
		if got := r.Verdict(); !strings.HasPrefix(got, c.want) {
			t.Errorf("worth [%g, %g]: %q, want %q", c.low, c.high, got, c.want)
		}
	}
	r := Row{Games: 100, Worth: Estimate{Low: 0.1, High: 0.2}, Repetition: &reports.Repetition{Distinct: 3, MostPlayed: 80}}
	if got := r.Verdict(); !strings.HasPrefix(got, "the games repeat") {
		t.Errorf("repeated games: %q", got)
	}
}
