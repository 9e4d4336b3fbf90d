package capturecard

import (
	"testing"

	"playtest/games/gamestest"
)

// FuzzPlayout plays games whose decisions, chance outcomes and knobs come
// from the fuzzer's bytes, checking the invariants after every decision.
func FuzzPlayout(f *testing.F) {
	f.Add(uint8(0), []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add(uint8(7), []byte{200, 13, 77, 5, 0, 0, 9})
	f.Add(uint8(255), []byte("capture the card"))
	f.Fuzz(func(t *testing.T, knobs uint8, choices []byte) {
		if len(choices) == 0 {
			return
		}
		r := DefaultRules()
		if knobs&1 != 0 {
			r.Through = ThroughReplace
		}
		if knobs&2 != 0 {
			r.AllCornersLoses = false
		}
		if knobs&4 != 0 {
			r.Jokers, r.JokerTurns = 6, 3
		}
		if knobs&8 != 0 {
			r.Pieces, r.MaxOnBoard = Pieces{Small: 1, Medium: 3, Large: 2}, 5
		}
		if knobs&16 != 0 {
			r.Elimination = EliminationPassThrough
		}
		r.MaxTurns = 50 + int(knobs>>5)*20
		gamestest.PlayBytes(t, newGame(t, r).NewState(), choices, 100000)
	})
}
