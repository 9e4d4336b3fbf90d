package solve

import (
	"context"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/variants"
)

// TestSearchBookKeepsTheValue (issue 55): on boards the full solve
// enumerates, every move the book drawn from search plays is one the full
// solve's book counts as keeping the value, every keeping move is played
// somewhere, and a move depends only on the stream, not on what the book
// proved before (a fresh book and a warm one agree).
func TestSearchBookKeepsTheValue(t *testing.T) {
	for _, c := range []struct {
		preset string
		sets   []variants.Override
	}{
		{"mnk/tictactoe", nil},
		{"connect4/4x4", nil},
		{"connect4/5x4", nil},
	} {
		cfg, err := variants.Load(c.preset, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		_, full, err := NewBook(context.Background(), cfg, Options{}, 3)
		if err != nil {
			t.Fatal(err)
		}
		warm, err := NewSearchBook(context.Background(), cfg, 3)
		if err != nil {
			t.Fatal(err)
		}
		g, err := cfg.NewGame()
		if err != nil {
			t.Fatal(err)
		}
		played := map[string]bool{}
		for deal := range 40 {
			s := g.NewState()
			rng := pcg.New(7, uint64(deal))
			var line []games.Move
			for d := 0; d < 3 && !s.IsTerminal(); d++ {
				m, ok := warm.BookMove(s, d, rng)
				if !ok {
					t.Fatalf("%s deal %d: the book ended at decision %d", c.preset, deal, d)
				}
				keep, _ := full.keeping(s, nil)
				if !slices.Contains(keep, m) {
					t.Fatalf("%s deal %d: %s at decision %d does not keep the value (keeping: %v)", c.preset, deal, s.MoveString(m), d, keep)
				}
				if d == 0 {
					played[s.MoveString(m)] = true
				}
				line = append(line, m)
				s.Apply(m)
			}
			if deal%10 == 0 {
				// A fresh book on the same stream plays the same line.
				cold, err := NewSearchBook(context.Background(), cfg, 3)
				if err != nil {
					t.Fatal(err)
				}
				s, rng := g.NewState(), pcg.New(7, uint64(deal))
				for d, want := range line {
					if m, _ := cold.BookMove(s, d, rng); m != want {
						t.Fatalf("%s deal %d: a fresh book plays %s at decision %d, the warm one %s", c.preset, deal, s.MoveString(m), d, s.MoveString(want))
					}
					s.Apply(want)
				}
			}
			if _, ok := warm.BookMove(s, 3, rng); ok {
				t.Fatal("the book played past its decisions")
			}
		}
		keep, _ := full.keeping(g.NewState(), nil)
		if len(played) != len(keep) {
			t.Errorf("%s: the book opened with %d of the %d keeping moves in 40 deals", c.preset, len(played), len(keep))
		}
	}
}

// TestOpeningBookFallsBackToSearch (issue 55): a variant too large for
// the full solve (5,5,4) gets a book whose moves are proven by search.
func TestOpeningBookFallsBackToSearch(t *testing.T) {
	cfg, err := variants.Load("mnk/5x5x4", set("book", "2", "opening", "c3 b2 d4 b4 b3"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := cfg.OpeningBook()
	if err != nil {
		t.Fatal(err)
	}
	sb, ok := b.(*SearchBook)
	if !ok {
		t.Fatalf("a %T, not a book drawn from search", b)
	}
	if sb.Value != -1 && sb.Value != 0 && sb.Value != 1 {
		t.Errorf("value %d", sb.Value)
	}
}
