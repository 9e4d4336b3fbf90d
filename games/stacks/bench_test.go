package stacks

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
)

// BenchmarkPlayout plays uniformly random games, draws included, and
// reports turns (plies) and decisions (draws included) per second on one
// core.
func BenchmarkPlayout(b *testing.B) {
	for _, name := range []string{"base", "fourcards", "match"} {
		b.Run(name, func(b *testing.B) {
			r := DefaultRules()
			variants()[name](r)
			gamestest.BenchPlayouts(b, newGame(b, r))
		})
	}
}

// BenchmarkLegalMoves generates the moves of the start position (a 1-card
// and a 3-card in hand).
func BenchmarkLegalMoves(b *testing.B) {
	g := newGame(b, DefaultRules())
	s, _ := g.PerftStart(1)
	moves := make([]games.Move, 0, g.MaxLegalMoves())
	b.ReportAllocs()
	for b.Loop() {
		moves = s.LegalMoves(moves[:0])
	}
	b.ReportMetric(float64(len(moves)), "moves")
}

// BenchmarkDeterminize re-deals the other hand of a mid-game position.
func BenchmarkDeterminize(b *testing.B) {
	g := newGame(b, DefaultRules())
	st, _ := g.PerftStart(3)
	base := st.(*State)
	rng := pcg.New(2, 2)
	for range 6 {
		moves := base.LegalMoves(nil)
		base.Apply(moves[rng.IntN(len(moves))])
	}
	var c State
	b.ReportAllocs()
	for b.Loop() {
		c = *base
		c.Determinize(games.Seat0, rng)
	}
}

// BenchmarkFeatures computes both seats' features at every position of
// random games (gamestest.BenchFeatures; the play included).
func BenchmarkFeatures(b *testing.B) {
	gamestest.BenchFeatures(b, newGame(b, DefaultRules()))
}
