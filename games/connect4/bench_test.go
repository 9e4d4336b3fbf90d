package connect4

import (
	"testing"

	"playtest/games/gamestest"
)

// BenchmarkPlayout plays uniformly random games and reports plies per
// second on one core, with allocations (make bench): 7 × 6 and 8 × 8
// (5 in a row).
func BenchmarkPlayout(b *testing.B) {
	for name, r := range map[string]Rules{"7x6": standard, "8x8": {Cols: 8, Rows: 8, K: 5}} {
		b.Run(name, func(b *testing.B) { gamestest.BenchPlayouts(b, newGame(b, r)) })
	}
}

// BenchmarkFeatures computes both seats' features at every position of
// random games (the play included).
func BenchmarkFeatures(b *testing.B) {
	gamestest.BenchFeatures(b, newGame(b, standard))
}
