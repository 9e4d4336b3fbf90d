package script

import (
	"testing"

	"playtest/games/gamestest"
	"playtest/games/stacktics"
)

// Random playouts of the scripted Stacktics and of the Go engine on the
// same rules (size 2 on 4 × 4, the pie rule): their plies per second side
// by side, the ratio docs/scripted-rules.md reports.
func BenchmarkPlayoutStackticsScript(b *testing.B) {
	gamestest.BenchPlayouts(b, load(b, "../../configs/scripts/stacktics.star", nil))
}

func BenchmarkPlayoutStackticsEngine(b *testing.B) {
	r := stacktics.DefaultRules()
	r.Size = 2
	if err := r.Validate(); err != nil {
		b.Fatal(err)
	}
	g, err := r.NewGame()
	if err != nil {
		b.Fatal(err)
	}
	gamestest.BenchPlayouts(b, g)
}

func BenchmarkPlayoutTicTacToeScript(b *testing.B) {
	gamestest.BenchPlayouts(b, load(b, "../../configs/scripts/tictactoe.star", nil))
}
