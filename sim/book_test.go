package sim

import (
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/pcg"
	"playtest/sim/bots"
)

// firstMoves is a book that plays the k-th legal move (k drawn from the
// stream) for plies decisions, or an illegal move when bad.
type firstMoves struct {
	plies int
	bad   bool
}

func (b firstMoves) BookMove(s games.State, decision int, rng *pcg.Rand) (games.Move, bool) {
	if decision >= b.plies {
		return 0, false
	}
	legal := s.LegalMoves(nil)
	if b.bad {
		return games.Move(1<<31 - 1), true
	}
	return legal[rng.IntN(len(legal))], true
}

// A book opens each game (both games of a pair alike, the same on any
// number of workers); the bots decide from there. A book move that is not
// legal fails its game, saying so.
func TestBookOpensTheGames(t *testing.T) {
	j := job(t, 40, "greedy", "greedy")
	j.Moves, j.Book = true, firstMoves{plies: 3}
	one, two := collect(t, j, 1), collect(t, j, 2)
	for i := range one {
		if !slices.Equal(one[i].Moves, two[i].Moves) {
			t.Fatalf("game %d differs between 1 and 2 workers", i)
		}
	}
	openings := map[string]bool{}
	for i := 0; i+1 < len(one); i += 2 {
		a, b := one[i], one[i+1]
		if a.Booked != 3 || b.Booked != 3 || !slices.Equal(a.Moves[:3], b.Moves[:3]) {
			t.Errorf("pair %d: booked %d, %d; openings %v, %v", i/2, a.Booked, b.Booked, a.Moves[:3], b.Moves[:3])
		}
		openings[strings.Join(a.Moves[:3], " ")] = true
	}
	if len(openings) < 10 {
		t.Errorf("%d different openings over 20 pairs", len(openings))
	}
	j.Book = firstMoves{plies: 1, bad: true}
	for _, r := range collect(t, j, 2) {
		if r.Err == nil || !strings.Contains(r.Err.Message, "the opening book's move") {
			t.Fatalf("game %d with an illegal book move: %+v", r.Index, r.Err)
		}
	}
}

// An opening is played before the book and the bots: every game's record
// starts with it, its entries are no seat's decisions, and the book's
// decisions count from its end. An illegal opening fails the game.
func TestOpeningComesFirst(t *testing.T) {
	j := job(t, 8, "greedy", "greedy")
	s := j.Game.NewState()
	var opening []string
	for range 3 {
		m := s.LegalMoves(nil)[0]
		opening = append(opening, s.MoveString(m))
		j.Opening = append(j.Opening, m)
		s.Apply(m)
	}
	j.Moves = true
	plain := collect(t, j, 1)
	j.Book = firstMoves{plies: 2}
	booked := collect(t, j, 2)
	for i := range plain {
		for _, r := range []Record{plain[i], booked[i]} {
			if r.Err != nil || !slices.Equal(r.Moves[:3], opening) {
				t.Fatalf("game %d: %v, moves %v, want them to start %v", i, r.Err, r.Moves, opening)
			}
			if r.PlayerDecisions != r.Decisions-3 || r.Opening != r.Moves[3] {
				t.Errorf("game %d: %d decisions, %d a seat's; first free move %q of %v", i, r.Decisions, r.PlayerDecisions, r.Opening, r.Moves)
			}
		}
		if booked[i].Booked != 2 {
			t.Errorf("game %d: the book made %d decisions after the opening, want 2", i, booked[i].Booked)
		}
	}
	j.Book, j.Opening = nil, []games.Move{1<<31 - 1}
	for _, r := range collect(t, j, 1) {
		if r.Err == nil || !strings.Contains(r.Err.Message, "the opening's entry 1") {
			t.Fatalf("game %d with an illegal opening: %+v", r.Index, r.Err)
		}
	}
}

// A bot book plays, for each deal, the line its bot chooses from the
// deal's book stream: the same in both games of a pair and at any number
// of workers, different between deals where the bot's noise varies it,
// and each book move the one a fresh bot chooses there with that stream.
// A game with hidden information is refused.
func TestBotBook(t *testing.T) {
	j := job(t, 40, "greedy", "greedy")
	d, err := bots.Lookup("alphabeta")
	if err != nil {
		t.Fatal(err)
	}
	p := d.NewParams().(*bots.AlphaBetaParams)
	p.Nodes, p.Noise, p.Temperature = 300, 0.5, 0.25
	spec := bots.Spec{Bot: "alphabeta", Params: p}
	book, err := NewBotBook(j.Game, spec, 4)
	if err != nil {
		t.Fatal(err)
	}
	j.Moves, j.Book = true, book
	one, two := collect(t, j, 1), collect(t, j, 2)
	openings := map[string]bool{}
	for i := range one {
		if !slices.Equal(one[i].Moves, two[i].Moves) {
			t.Fatalf("game %d differs between 1 and 2 workers", i)
		}
		if one[i].Booked != 4 || !slices.Equal(one[i].Moves[:4], one[i^1].Moves[:4]) {
			t.Fatalf("game %d: booked %d, opening %v, its pair's %v", i, one[i].Booked, one[i].Moves[:4], one[i^1].Moves[:4])
		}
		openings[strings.Join(one[i].Moves[:4], " ")] = true
	}
	if len(openings) < 10 {
		t.Errorf("%d different openings over 20 pairs", len(openings))
	}
	// Deal 3's line, replayed by a fresh bot on the deal's stream.
	fresh, err := spec.New(j.Game)
	if err != nil {
		t.Fatal(err)
	}
	s, rng := j.Game.NewState(), BookStream(j.Seed, 3)
	for k := range 4 {
		fresh.Reset(s.CurrentPlayer(), rng)
		m := fresh.Choose(s, s.LegalMoves(nil))
		if got := s.MoveString(m); got != one[6].Moves[k] {
			t.Fatalf("deal 3's book move %d: %s, a fresh bot chooses %s", k, one[6].Moves[k], got)
		}
		s.Apply(m)
	}
	if _, ok := book.BookMove(s, 4, rng); ok {
		t.Error("the book plays past its decisions")
	}
	hidden, err := capstone.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewBotBook(hidden, spec, 4); err == nil || !strings.Contains(err.Error(), "hide") {
		t.Errorf("a book bot on hidden goals: %v", err)
	}
}
