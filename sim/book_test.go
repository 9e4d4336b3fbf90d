package sim

import (
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
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
