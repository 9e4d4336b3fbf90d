package stacks

import (
	"testing"

	"playtest/games/gamestest"
)

// FuzzPlayout plays games whose moves, draws and rule knobs come from the
// fuzzer's bytes, checking the invariants after every decision.
func FuzzPlayout(f *testing.F) {
	f.Add(uint8(0), []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add(uint8(5), []byte{200, 13, 77, 5, 0, 0, 9})
	f.Add(uint8(255), []byte("stacks"))
	f.Fuzz(func(t *testing.T, knobs uint8, choices []byte) {
		if len(choices) == 0 {
			return
		}
		r := DefaultRules()
		if knobs&1 != 0 {
			fourCards(r)
		}
		if knobs&2 != 0 {
			r.Diagonal = DiagonalZigzag
		}
		if knobs&4 != 0 {
			r.Blocking = true
		}
		if knobs&8 != 0 {
			r.MustStackScope = ScopeHand
		}
		if knobs&16 != 0 {
			r.HandSize = 3
		}
		if knobs&32 != 0 {
			r.MaxHeight = 3
		}
		if knobs&64 != 0 {
			r.Match = &Match{Target: new(40), MaxGames: new(4)}
			if knobs&128 != 0 {
				r.Match.End = MatchEndImmediately
			}
		}
		gamestest.PlayBytes(t, newGame(t, r).NewState(), choices, 100000)
	})
}

// FuzzParseMove checks that any text ParseMove accepts round-trips through
// MoveString.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"1:d3-f3", "4:pass", "draw:3", "3:a2-g2", "2:b1-"} {
		f.Add(s)
	}
	g := newGame(f, DefaultRules())
	start, _ := g.PerftStart(1)
	f.Fuzz(func(t *testing.T, text string) {
		if m, err := start.ParseMove(text); err == nil {
			if back, err := start.ParseMove(start.MoveString(m)); err != nil || back != m {
				t.Fatalf("%q parsed but its notation %q does not", text, start.MoveString(m))
			}
		}
	})
}
