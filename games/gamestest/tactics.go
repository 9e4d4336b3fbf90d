package gamestest

import (
	"fmt"
	"slices"
	"testing"

	"playtest/games"
)

// TacticsChecker checks a game's tactics hooks (games.WinFinder,
// SafeMover, ThreatOrderer, PackedKeyer) against a brute force, position
// by position: the prover trusts them, so a hook that lies must be caught
// here. It remembers the packed keys it has seen, so that two positions
// sharing one are caught too.
type TacticsChecker struct {
	packed, packedOf map[string]string
}

// NewTacticsChecker returns a checker that has seen no position.
func NewTacticsChecker() *TacticsChecker {
	return &TacticsChecker{packed: map[string]string{}, packedOf: map[string]string{}}
}

// Check checks s's hooks (s unchanged); nil for a state without any.
func (c *TacticsChecker) Check(s games.State) error {
	if s.IsTerminal() || s.CurrentPlayer() == games.Chance {
		return nil
	}
	mover := s.CurrentPlayer()
	legal := s.LegalMoves(nil)
	wins := map[games.Move]bool{}
	for _, m := range legal {
		child := s.Clone()
		child.Apply(m)
		if child.IsTerminal() && child.Result().Winner == mover {
			wins[m] = true
		}
	}
	before := s.String()
	if wf, ok := s.(games.WinFinder); ok {
		m, found := wf.WinningMove()
		switch {
		case found && !wins[m]:
			return fmt.Errorf("WinningMove says %s wins at once; it does not", s.MoveString(m))
		case !found && len(wins) > 0:
			return fmt.Errorf("WinningMove finds no move winning at once; %d do", len(wins))
		}
		if n := testing.AllocsPerRun(3, func() { wf.WinningMove() }); n > 0 {
			return fmt.Errorf("WinningMove allocates %v times", n)
		}
	}
	if sm, ok := s.(games.SafeMover); ok && len(wins) == 0 {
		var want []games.Move
		for _, m := range legal {
			if safe(s, m) {
				want = append(want, m)
			}
		}
		got := sm.SafeMoves(nil)
		if !slices.Equal(got, want) {
			return fmt.Errorf("SafeMoves gives %s; the moves that do not lose at once are %s", moveList(s, got), moveList(s, want))
		}
		buf := make([]games.Move, 0, len(legal)+2)
		if n := testing.AllocsPerRun(3, func() { sm.SafeMoves(buf[:0]) }); n > 0 {
			return fmt.Errorf("SafeMoves allocates %v times", n)
		}
	}
	if to, ok := s.(games.ThreatOrderer); ok {
		got := slices.Clone(legal)
		to.OrderMoves(got)
		a, b := slices.Clone(got), slices.Clone(legal)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return fmt.Errorf("OrderMoves turns %s into %s: not the same moves", moveList(s, legal), moveList(s, got))
		}
		if n := testing.AllocsPerRun(3, func() { to.OrderMoves(got) }); n > 0 {
			return fmt.Errorf("OrderMoves allocates %v times", n)
		}
	}
	if pk, ok := s.(games.PackedKeyer); ok {
		if k, ok := pk.PackedKey(); ok {
			if err := c.same("PackedKey", k, s.(games.Keyer).AppendKey(nil)); err != nil {
				return err
			}
		}
		if k, ok := pk.PackedCanonicalKey(); ok {
			sym, isSym := s.(games.Symmetric)
			if !isSym {
				return fmt.Errorf("PackedCanonicalKey answers for a game without symmetries (games.Symmetric)")
			}
			if err := c.same("PackedCanonicalKey", k, sym.AppendCanonicalKey(nil)); err != nil {
				return err
			}
		}
		if n := testing.AllocsPerRun(3, func() { pk.PackedKey(); pk.PackedCanonicalKey() }); n > 0 {
			return fmt.Errorf("the packed keys allocate %v times", n)
		}
	}
	if s.String() != before {
		return fmt.Errorf("a hook changed the position")
	}
	return nil
}

// same checks that a packed key and a key go together: one packed key for
// one key, both ways.
func (c *TacticsChecker) same(what string, packed uint64, key []byte) error {
	p, k := what+fmt.Sprint(packed), what+string(key)
	if was, ok := c.packed[p]; ok && was != k {
		return fmt.Errorf("%s %#x is the key of two positions", what, packed)
	}
	if was, ok := c.packedOf[k]; ok && was != p {
		return fmt.Errorf("%s gives one position two numbers", what)
	}
	c.packed[p], c.packedOf[k] = k, p
	return nil
}

// safe reports whether m does not lose at once: after it the game is over,
// or the mover decides again, or the next seat has no move winning at once.
func safe(s games.State, m games.Move) bool {
	child := s.Clone()
	child.Apply(m)
	next := child.CurrentPlayer()
	if child.IsTerminal() || next == s.CurrentPlayer() || next == games.Chance {
		return true
	}
	for _, r := range child.LegalMoves(nil) {
		grand := child.Clone()
		grand.Apply(r)
		if grand.IsTerminal() && grand.Result().Winner == next {
			return false
		}
	}
	return true
}

func moveList(s games.State, moves []games.Move) string {
	out := "["
	for i, m := range moves {
		if i > 0 {
			out += " "
		}
		out += s.MoveString(m)
	}
	return out + "]"
}
