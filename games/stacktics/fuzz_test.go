package stacktics

import (
	"testing"

	"playtest/games"
)

// FuzzPlayout plays games whose moves are chosen by the fuzzer's bytes,
// under varying knobs, and checks the invariants after every move.
func FuzzPlayout(f *testing.F) {
	f.Add(uint8(1), []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add(uint8(0), []byte{200, 13, 77, 5, 0, 0, 9})
	f.Add(uint8(6), []byte("stacktics"))
	f.Fuzz(func(t *testing.T, variant uint8, choices []byte) {
		p := presets[int(variant)%len(presets)]
		r := p.rules
		if variant&8 != 0 {
			r.NoMoves = NoMovesDraw
		}
		if variant&16 != 0 {
			r.WinThreshold = ThresholdMoreThanHalf
		}
		if variant&32 != 0 {
			r.Repetition = 2
		}
		g := newGame(t, r)
		s := g.Start()
		var buf []games.Move
		for i := 0; !s.IsTerminal() && i < 4*len(choices); i++ {
			buf = s.LegalMoves(buf[:0])
			if len(buf) == 0 {
				t.Fatalf("not over but no moves:\n%s", s)
			}
			s.Apply(buf[int(choices[i%len(choices)]^byte(i/len(choices)))%len(buf)])
			if err := s.CheckInvariants(); err != nil {
				t.Fatalf("%v\n%s", err, s)
			}
		}
	})
}

// FuzzParse feeds arbitrary text to the move and position parsers: they
// must return errors, never panic, and accept only what they can write.
func FuzzParse(f *testing.F) {
	f.Add("b1LMS-b2")
	f.Add("d1Sxb3")
	f.Add("a1=ALMS e5=BLMS turn=B")
	f.Add("keep")
	g := newGame(f, Rules{Size: 3})
	f.Fuzz(func(t *testing.T, text string) {
		s := g.Start()
		if m, err := s.ParseMove(text); err == nil {
			if back, err := s.ParseMove(s.MoveString(m)); err != nil || back != m {
				t.Fatalf("%q parsed but its notation %q does not", text, s.MoveString(m))
			}
		}
		if p, err := g.Position(text); err == nil {
			if err := p.CheckInvariants(); err != nil {
				t.Fatalf("Position(%q) accepted a broken position: %v", text, err)
			}
			if q, err := g.Position(p.PositionString()); err != nil || q.PositionString() != p.PositionString() {
				t.Fatalf("Position(%q) does not round-trip: %v", text, err)
			}
		}
	})
}
