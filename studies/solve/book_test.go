package solve

import (
	"context"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/sim"
	"playtest/variants"
)

// negamax is a plain search, independent of the solve: the value of s
// for the player to move, 1 a win, 0 a draw, −1 a loss.
func negamax(s games.State) int {
	if s.IsTerminal() {
		switch w := s.Result().Winner; w {
		case games.NoPlayer:
			return 0
		case s.CurrentPlayer():
			return 1
		}
		return -1
	}
	best := -2
	mover := s.CurrentPlayer()
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		c.Apply(m)
		v := negamax(c)
		if c.CurrentPlayer() != mover {
			v = -v
		}
		best = max(best, v)
		if best == 1 {
			break
		}
	}
	return best
}

// valueForSeat0 is negamax's value of s for seat 0.
func valueForSeat0(s games.State) int {
	v := negamax(s)
	if s.CurrentPlayer() == games.Seat1 {
		return -v
	}
	return v
}

// Every opening the book plays keeps the start's value, as a search that
// knows nothing of the solve finds it: tic-tac-toe's draws stay draws,
// and on 4 columns × 3 rows (3 in a row, a first-player win) the winner's
// book moves all win while the loser's may be any. The book varies: many
// different openings over the deals.
func TestBookKeepsTheProvenValue(t *testing.T) {
	for _, c := range []struct {
		name     string
		sets     []variants.Override
		value    int
		keep, of int
	}{
		{"tic-tac-toe", nil, 0, 9, 9},
		{"3 in a row on 4 × 3", set("rules.cols", "4"), 1, 0, 12},
	} {
		cfg, err := variants.Load("mnk/tictactoe", c.sets)
		if err != nil {
			t.Fatal(err)
		}
		_, book, err := NewBook(context.Background(), cfg, Options{}, 4)
		if err != nil {
			t.Fatal(err)
		}
		g, err := cfg.NewGame()
		if err != nil {
			t.Fatal(err)
		}
		if start := g.NewState(); valueForSeat0(start) != c.value || book.Openings != c.of || c.keep > 0 && book.Keep != c.keep {
			t.Errorf("%s: start %d (want %d), %d of %d openings keep it", c.name, valueForSeat0(start), c.value, book.Keep, book.Openings)
		}
		seen := map[string]bool{}
		for deal := range 40 {
			s := g.NewState()
			rng := sim.BookStream(1, deal)
			var line []string
			for d := 0; ; d++ {
				m, ok := book.BookMove(s, d, rng)
				if !ok {
					break
				}
				line = append(line, s.MoveString(m))
				s.Apply(m)
				if v := valueForSeat0(s); v != c.value {
					t.Fatalf("%s: after %s the value for seat 0 is %d, want %d", c.name, strings.Join(line, " "), v, c.value)
				}
			}
			if len(line) != 4 {
				t.Errorf("%s: the book played %v, want 4 decisions", c.name, line)
			}
			seen[strings.Join(line, " ")] = true
		}
		if len(seen) < 20 {
			t.Errorf("%s: %d different openings over 40 deals", c.name, len(seen))
		}
	}
}

// The book ends past its decisions and off its solve's positions, and
// draws the same opening from the same stream.
func TestBookEnds(t *testing.T) {
	cfg, err := variants.Load("mnk/tictactoe", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, book, err := NewBook(context.Background(), cfg, Options{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := cfg.NewGame()
	if _, ok := book.BookMove(g.NewState(), 2, pcg.New(1, 2)); ok {
		t.Error("a move past the book's 2 decisions")
	}
	a, _ := book.BookMove(g.NewState(), 0, sim.BookStream(7, 3))
	b, _ := book.BookMove(g.NewState(), 0, sim.BookStream(7, 3))
	if a != b {
		t.Errorf("one stream, two openings: %d and %d", a, b)
	}
	big, err := variants.Load("mnk/tictactoe", set("rules.rows", "4", "rules.cols", "4"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := NewBook(context.Background(), big, Options{MaxStates: 1000}, 4); err == nil {
		t.Error("a book of a solve past its bound")
	}
	if _, _, err := NewBook(context.Background(), cfg, Options{}, 0); err == nil {
		t.Error("a book of 0 decisions")
	}
}

// A variant's book: key opens its games from the book, both games of a
// pair alike, with the bots deciding from there; a book too large to
// solve is one error naming the key.
func TestVariantBook(t *testing.T) {
	cfg, err := variants.Load("mnk/tictactoe", set("book", "3", "games", "20", "players", "[random, random]"))
	if err != nil {
		t.Fatal(err)
	}
	book, err := cfg.OpeningBook()
	if err != nil || book == nil {
		t.Fatalf("book %v, %v", book, err)
	}
	g, _ := cfg.NewGame()
	job := &sim.Job{Game: g, Players: cfg.Players, Games: cfg.Games, Seed: cfg.Seed, Pairs: true, Moves: true, Book: book}
	var recs []*sim.Record
	if err := sim.Run(context.Background(), job, sim.Options{Workers: 2}, func(r *sim.Record) { recs = append(recs, r) }); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(recs); i += 2 {
		a, b := recs[i], recs[i+1]
		if a.Booked != 3 || b.Booked != 3 || strings.Join(a.Moves[:3], " ") != strings.Join(b.Moves[:3], " ") {
			t.Errorf("pair %d: booked %d and %d, openings %v and %v", i/2, a.Booked, b.Booked, a.Moves, b.Moves)
		}
	}
	if h := cfg.Hash(); h == mustLoad(t, "mnk/tictactoe", set("games", "20", "players", "[random, random]")).Hash() {
		t.Error("the book is not in the config hash")
	}
	// Too large for the full solve, and a search does not see its
	// repetition rule: refused, saying both.
	_, err = variants.Load("stacktics/size3", set("book", "4"))
	if err == nil || !strings.Contains(err.Error(), "book") || !strings.Contains(err.Error(), "more than 2,000,000 positions") || !strings.Contains(err.Error(), "repetition rule") {
		t.Errorf("a book of Stacktics size 3: %v", err)
	}
}

func mustLoad(t *testing.T, preset string, sets []variants.Override) *variants.Config {
	t.Helper()
	cfg, err := variants.Load(preset, sets)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
