package solve

import (
	"context"
	"strings"
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

// A proof by search gives the value and each opening's value the full
// solve gives, on every board both finish (the pie rule's keep and swap
// included), and proves the published values of boards the full solve
// cannot hold in CI: 5,5,4 a draw (Run passes 50,000,000 positions 10
// plies in; the search needs about 2 million bounds), Connect Four 6 × 4
// a second-player win, 5 × 5 and 5 × 6 draws (Tromp's table; the full
// solve of the first two takes 73 s and 5 GB, 65 s and 4 GB; the search
// under a second each).
func TestSearchMatchesSolve(t *testing.T) {
	for _, c := range []struct {
		preset string
		sets   []variants.Override
	}{
		{"mnk/tictactoe", nil},
		{"mnk/tictactoe-pie", nil},
		{"mnk/tictactoe", set("rules.cols", "4")},
		{"mnk/tictactoe-pie", set("rules.cols", "4")},
		{"connect4/4x4", nil},
		{"connect4/4x4", set("rules.k", "3")},
		{"connect4/4x4", set("rules.k", "3", "rules.pie_rule", "true")},
		{"connect4/4x4", set("rules.pie_rule", "true")},
		{"connect4/4x4", set("rules.cols", "5", "rules.k", "3", "rules.pie_rule", "true")},
		{"mnk/4x4x4", nil},
		{"mnk/4x4x4", set("rules.pie_rule", "true")},
	} {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		full, err := Run(context.Background(), cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		searched, err := Search(context.Background(), cfg, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if searched.Value != full.Value || len(searched.Openings) != len(full.Openings) || !searched.Searched {
			t.Fatalf("%s %v: search %s (%d openings), solve %s (%d)", c.preset, c.sets, searched.Value, len(searched.Openings), full.Value, len(full.Openings))
		}
		for i, o := range searched.Openings {
			f := full.Openings[i]
			if o.Move != f.Move || o.Value != f.Value {
				t.Errorf("%s %v: opening %s: search %s, solve %s", c.preset, c.sets, o.Move, o.Value, f.Value)
			}
			for j, r := range o.Replies {
				if r.Move != f.Replies[j].Move || r.Value != f.Replies[j].Value {
					t.Errorf("%s %v: %s then %s: search %s, solve %s", c.preset, c.sets, o.Move, r.Move, r.Value, f.Replies[j].Value)
				}
			}
		}
	}
	for _, c := range []struct {
		preset string
		sets   []variants.Override
		value  string
	}{
		{"mnk/5x5x4", nil, "draw"},
		{"connect4/4x4", set("rules.cols", "6"), "seat 1 wins"},
		{"connect4/4x4", set("rules.cols", "5", "rules.rows", "5"), "draw"},
		{"connect4/4x4", set("rules.cols", "5", "rules.rows", "6"), "draw"},
	} {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Search(context.Background(), cfg, SearchOptions{NoOpenings: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != c.value {
			t.Errorf("%s %v: %s, want %s (published)", c.preset, c.sets, res.Value, c.value)
		}
	}
}

// A proof by search refuses a game whose positions repeat (the value
// would depend on the path) rather than answer wrongly.
func TestSearchRefusesRepetition(t *testing.T) {
	cfg, err := variants.Load("stacktics/size2", set("rules.board", "{rows: 3, cols: 2}", "rules.start_columns", "[0, 1]"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Search(context.Background(), cfg, SearchOptions{MaxEntries: 2_000_000})
	if err == nil || !strings.Contains(err.Error(), "repeats") {
		t.Errorf("Stacktics 3 × 2 by search: %v", err)
	}
}
