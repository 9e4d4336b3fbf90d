package capturecard

import (
	"testing"

	"playtest/games/gamestest"
)

// BenchmarkPlayout plays uniformly random games, layout and draws
// included, and reports turns (plies) and decisions per second on one core.
func BenchmarkPlayout(b *testing.B) {
	for _, through := range []string{ThroughJump, ThroughReplace} {
		b.Run(through, func(b *testing.B) {
			r := DefaultRules()
			r.Through = through
			gamestest.BenchPlayouts(b, newGame(b, r))
		})
	}
}

// BenchmarkFeatures computes both seats' features at every position of
// random games (gamestest.BenchFeatures; the play included).
func BenchmarkFeatures(b *testing.B) {
	gamestest.BenchFeatures(b, newGame(b, DefaultRules()))
}
