package solve

import (
	"context"
	"errors"
	"testing"

	"playtest/games"
	"playtest/variants"
)

// TestSolveFrom (issue 55): the full solve, the proof by search and the
// analysis board agree on the position after a line of play, move by
// move, and a bad line is a *games.LineError before anything is solved.
func TestSolveFrom(t *testing.T) {
	for _, c := range []struct {
		preset string
		sets   []variants.Override
		from   string
	}{
		{"mnk/tictactoe", nil, "a1 b2 c3"},
		{"mnk/tictactoe-pie", nil, "b2"},
		{"mnk/tictactoe-pie", nil, "b2 swap"},
		{"connect4/4x4", set("rules.k", "3"), "b"},
	} {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		from := games.SplitLine(c.from)
		full, err := Run(context.Background(), cfg, Options{From: from})
		if err != nil {
			t.Fatal(err)
		}
		searched, err := Search(context.Background(), cfg, SearchOptions{From: from, MaxEntries: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Analyse(context.Background(), cfg, AnalyseOptions{From: from, MaxEntries: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		if full.Value != searched.Value || len(full.Openings) != len(a.Moves) || full.Mover != a.Mover {
			t.Fatalf("%s after %q: solve %s, search %s; %d moves, %d analysed", c.preset, c.from, full.Value, searched.Value, len(full.Openings), len(a.Moves))
		}
		for i, o := range full.Openings {
			forMover := outcomeFor(map[string]int{Win: 1, Draw: 0, Loss: -1}[o.Value], games.Seat0)
			if a.Mover == games.Seat1.String() {
				forMover = outcomeFor(map[string]int{Win: 1, Draw: 0, Loss: -1}[o.Value], games.Seat1)
			}
			if searched.Openings[i].Value != o.Value || a.Moves[i].Value != forMover || a.Moves[i].Move != o.Move {
				t.Errorf("%s after %q, %s: solve %s, search %s (for seat 0), analyse %s (for %s)", c.preset, c.from, o.Move, o.Value, searched.Openings[i].Value, a.Moves[i].Value, a.Mover)
			}
			// The solve counts the decisions after an opening, the analysis
			// the move too.
			if o.Plies != nil && (a.Moves[i].Plies == nil || *a.Moves[i].Plies != *o.Plies+1) {
				t.Errorf("%s after %q, %s: solve in %d, analyse %v", c.preset, c.from, o.Move, *o.Plies, plies(a.Moves[i].Plies, "%d"))
			}
		}
	}
	cfg, err := variants.Load("mnk/tictactoe", nil)
	if err != nil {
		t.Fatal(err)
	}
	var line *games.LineError
	if _, err := Run(context.Background(), cfg, Options{From: []string{"b2", "b2"}}); !errors.As(err, &line) || line.Index != 2 {
		t.Errorf("an illegal second move: %v", err)
	}
	if _, err := Prove(context.Background(), cfg, ProveOptions{Depth: 3, From: []string{"a1", "b1", "a2", "b2", "a3"}}); err == nil {
		t.Error("a finished game proven")
	}
}

// TestSolveAfterOpening (issue 55): a variant's opening: is where solve,
// its search and the analysis board start, --from continuing from it, and
// its opening book counts its decisions from there.
func TestSolveAfterOpening(t *testing.T) {
	plain, err := variants.Load("mnk/tictactoe", nil)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := variants.Load("mnk/tictactoe", []variants.Override{{Path: "opening", Value: "a1 b2"}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Run(context.Background(), plain, Options{From: []string{"a1", "b2", "c3"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Run(context.Background(), opened, Options{From: []string{"c3"}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyse(context.Background(), opened, AnalyseOptions{From: []string{"c3"}, MaxEntries: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	if got.Value != want.Value || got.Positions != want.Positions || len(got.From) != 3 || len(a.Moves) != 6 || len(a.From) != 3 {
		t.Errorf("after the opening and c3: %s in %d positions from %q, want %s in %d; analysed %d moves after %q",
			got.Value, got.Positions, got.From, want.Value, want.Positions, len(a.Moves), a.From)
	}
	booked, err := opened.With(variants.Override{Path: "book", Value: "2"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpeningBook(booked)
	if err != nil {
		t.Fatal(err)
	}
	if bk := b.(*Book); bk.Openings != 7 {
		t.Errorf("the book's position has %d moves, want the 7 after the opening", bk.Openings)
	}
}
