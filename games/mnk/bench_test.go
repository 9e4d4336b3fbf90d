package mnk

import (
	"testing"

	"playtest/games/gamestest"
)

// BenchmarkPlayout plays uniformly random games and reports plies per
// second on one core, with allocations (make bench): tic-tac-toe, 5,5,4
// and 8,8,5.
func BenchmarkPlayout(b *testing.B) {
	for name, r := range map[string]Rules{"tictactoe": {Rows: 3, Cols: 3, K: 3}, "5x5x4": {Rows: 5, Cols: 5, K: 4}, "8x8x5": {Rows: 8, Cols: 8, K: 5}} {
		b.Run(name, func(b *testing.B) { gamestest.BenchPlayouts(b, newGame(b, r)) })
	}
}

// BenchmarkFeatures computes both seats' features at every position of
// random games (the play included).
func BenchmarkFeatures(b *testing.B) {
	gamestest.BenchFeatures(b, newGame(b, Rules{Rows: 5, Cols: 5, K: 4}))
}
