package capturecard

import (
	"math/rand/v2"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
)

// BenchmarkPlayout plays uniformly random games, layout and draws
// included, and reports turns (plies) and decisions per second on one core.
func BenchmarkPlayout(b *testing.B) {
	for _, through := range []string{ThroughJump, ThroughReplace} {
		b.Run(through, func(b *testing.B) {
			r := DefaultRules()
			r.Through = through
			g := newGame(b, r)
			start := g.NewState()
			s := g.NewState()
			moves := make([]games.Move, 0, g.MaxLegalMoves())
			outcomes := make([]games.ChanceOutcome, 0, g.MaxLegalMoves())
			rng := rand.New(rand.NewPCG(1, 1))
			decisions, plies := 0, 0
			b.ReportAllocs()
			for b.Loop() {
				s.CopyFrom(start)
				decisions += gamestest.Playout(s, rng, moves, outcomes)
				plies += s.Plies()
			}
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
			b.ReportMetric(float64(decisions)/b.Elapsed().Seconds(), "decisions/s")
		})
	}
}
