package solve

import (
	"context"
	"testing"

	"playtest/variants"
)

// Known answers (docs/known-answers.md): solve finds the published values
// of the m,n,k-games and Connect Four boards it can finish, and the
// published counts. Tic-tac-toe is a draw over its 5,478 reachable
// positions, 765 of them essentially different (up to the board's eight
// symmetries) with 138 of those finished; with the pie rule still a draw
// (every opening is a draw, so neither keeping nor swapping wins); 4,4,4
// is a draw (1,217,977 positions up to symmetry, 9,722,011 without: left
// to playtest solve --no-symmetry, 1.5 GB). Connect Four on 4 columns of 4
// is a draw, and on 5 × 4 and 4 × 5 too, as John Tromp's table says.
func TestKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		preset              string
		sets                []variants.Override
		noSymmetry          bool
		value               string
		positions, finished int
	}{
		{"mnk/tictactoe", nil, true, "draw", 5478, 0},
		{"mnk/tictactoe", nil, false, "draw", 765, 138},
		{"mnk/tictactoe-pie", nil, false, "draw", 0, 0},
		{"mnk/4x4x4", nil, false, "draw", 1217977, 0},
		// John Tromp's table (all boards of width + height ≤ 15): 4 × 4,
		// 5 × 4 and 4 × 5 (columns × rows) are draws.
		{"connect4/4x4", nil, true, "draw", 161029, 0},
		{"connect4/4x4", nil, false, "draw", 80541, 0},
		{"connect4/5x4", nil, false, "draw", 1974174, 0},
		{"connect4/4x4", set("rules.rows", "5"), false, "draw", 853185, 0},
		// The pie rule turns a first-player win into a second-player one
		// (docs/known-answers.md, "The pie rule on small boards").
		{"connect4/4x4", set("rules.k", "3"), false, "seat 0 wins", 20890, 0},
		{"connect4/4x4", set("rules.k", "3", "rules.pie_rule", "true"), false, "seat 1 wins", 0, 0},
		{"mnk/tictactoe", set("rules.cols", "4"), true, "seat 0 wins", 111973, 0},
		{"mnk/tictactoe-pie", set("rules.cols", "4"), false, "seat 1 wins", 56553, 0},
	} {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), cfg, Options{NoSymmetry: c.noSymmetry})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != c.value || c.positions > 0 && res.Positions != c.positions || c.finished > 0 && res.Finished != c.finished || res.UpToSymmetry == c.noSymmetry {
			t.Errorf("%s %v (no symmetry %v): %s over %d positions (%d finished, up to symmetry %v), want %s over %d (%d finished)",
				c.preset, c.sets, c.noSymmetry, res.Value, res.Positions, res.Finished, res.UpToSymmetry, c.value, c.positions, c.finished)
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
