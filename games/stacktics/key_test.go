package stacktics

import (
	"bytes"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

// TestKeyRoundTrip plays random games of every preset and, after every
// move, rebuilds the position from its key: the rebuilt state must have
// the same key, hash, legal moves and captured pips, and pass its
// invariants.
func TestKeyRoundTrip(t *testing.T) {
	for _, p := range presets {
		g := newGame(t, p.rules)
		rng := pcg.New(5, 9)
		rebuilt := g.Start()
		for range testenv.Scale(30) {
			s := g.Start()
			for !s.IsTerminal() {
				key := s.AppendKey(nil)
				rebuilt.SetKey(key)
				if got := rebuilt.AppendKey(nil); !bytes.Equal(got, key) {
					t.Fatalf("%s: key does not round-trip at ply %d", p.name, s.Plies())
				}
				if rebuilt.Hash() != s.Hash() || rebuilt.captured != s.captured || rebuilt.lost != s.lost || rebuilt.CurrentPlayer() != s.CurrentPlayer() {
					t.Fatalf("%s ply %d: rebuilt state differs:\n%v\n%v", p.name, s.Plies(), s, rebuilt)
				}
				if !slices.Equal(rebuilt.LegalMoves(nil), s.LegalMoves(nil)) {
					t.Fatalf("%s ply %d: legal moves differ", p.name, s.Plies())
				}
				if err := rebuilt.CheckInvariants(); err != nil {
					t.Fatalf("%s ply %d: %v", p.name, s.Plies(), err)
				}
				moves := s.LegalMoves(nil)
				s.Apply(moves[rng.IntN(len(moves))])
			}
		}
	}
}

// TestKeyMarksThePendingPie checks that the start position's key says the
// pie decision is still to come, and the same board later in a game does
// not: the two have different futures.
func TestKeyMarksThePendingPie(t *testing.T) {
	g := newGame(t, presets[0].rules)
	s := g.Start()
	start := s.AppendKey(nil)
	// A's b1 Small out and back, with B's Small out and back between.
	for _, m := range []string{"b1S-a2", "keep", "b4S-a3", "a2S-b1", "a3S-b4"} {
		mv, err := s.ParseMove(m)
		if err != nil {
			t.Fatalf("%s: %v\n%v", m, err, s)
		}
		s.Apply(mv)
	}
	later := s.AppendKey(nil)
	if bytes.Equal(start, later) || !bytes.Equal(start[:len(start)-1], later[:len(later)-1]) {
		t.Fatalf("start %v, later %v: the boards should match and the keys differ", start, later)
	}
	var rebuilt State = *g.Start()
	rebuilt.SetKey(later)
	m := rebuilt.LegalMoves(nil)[0]
	rebuilt.Apply(m)
	if rebuilt.CurrentPlayer() != games.Player(1) || rebuilt.phase == phasePie {
		t.Errorf("a rebuilt later position offers the pie decision again")
	}
}
