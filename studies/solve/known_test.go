package solve

import (
	"context"
	"testing"

	"playtest/variants"
)

// Known answers (docs/known-answers.md): solve finds the published values
// of the m,n,k-games it can finish. Tic-tac-toe is a draw over its 5,478
// reachable positions; with the pie rule still a draw (every opening is
// a draw, so neither keeping nor swapping wins); 4,4,4 (a draw, 9,722,011
// positions) is left to playtest solve mnk/4x4x4: it takes 1.5 GB.
// Connect Four on 4 columns of 4 is a draw over 161,029 positions, and on
// 5 × 4 and 4 × 5 too, as John Tromp's table says.
func TestKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		preset    string
		sets      []variants.Override
		value     string
		positions int
	}{
		{"mnk/tictactoe", nil, "draw", 5478},
		{"mnk/tictactoe-pie", nil, "draw", 0},
		// John Tromp's table (all boards of width + height ≤ 15): 4 × 4,
		// 5 × 4 and 4 × 5 (columns × rows) are draws.
		{"connect4/4x4", nil, "draw", 161029},
		{"connect4/5x4", nil, "draw", 3945711},
		{"connect4/4x4", set("rules.rows", "5"), "draw", 1706255},
		// The pie rule turns a first-player win into a second-player one
		// (docs/known-answers.md, "The pie rule on small boards").
		{"connect4/4x4", set("rules.k", "3"), "seat 0 wins", 41750},
		{"connect4/4x4", set("rules.k", "3", "rules.pie_rule", "true"), "seat 1 wins", 0},
		{"mnk/tictactoe", set("rules.cols", "4"), "seat 0 wins", 111973},
		{"mnk/tictactoe-pie", set("rules.cols", "4"), "seat 1 wins", 223957},
	} {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != c.value || c.positions > 0 && res.Positions != c.positions {
			t.Errorf("%s: %s over %d positions, want %s over %d", c.preset, res.Value, res.Positions, c.value, c.positions)
		}
	}
}

// set makes overrides of key, value pairs.
func set(kv ...string) []variants.Override {
	var out []variants.Override
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, variants.Override{Path: kv[i], Value: kv[i+1], Origin: "test"})
	}
	return out
}
