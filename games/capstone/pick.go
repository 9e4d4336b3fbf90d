package capstone

import (
	"math/bits"

	"playtest/games"
)

// PickMove counts the legal decisions, asks picker for one by its index in
// LegalMoves order and returns it, without listing the moves (implements
// games.MovePicker). The stacks are bit sets here: the moves of a stack
// are counted by popcounts.
func (s *State) PickMove(picker games.IndexPicker) (games.Move, int) {
	g := s.g
	switch s.phase {
	case phaseOrder:
		colors := s.drawnColors()
		n := bits.OnesCount16(colors)
		if n == 0 {
			return 0, 0
		}
		return encode(kindOrder, games.NthBit(uint64(colors), picker.PickIndex(n)), 0), n
	case phasePlace:
		// Each open stack takes a piece of every colour its size has in
		// the stash.
		open := s.openStacks()
		n := 0
		for st := open; st != 0; st &= st - 1 {
			n += bits.OnesCount16(s.stashColors[g.sizeOf(bits.TrailingZeros16(st))])
		}
		if n == 0 {
			return 0, 0
		}
		k := picker.PickIndex(n)
		for st := open; ; st &= st - 1 {
			dst := bits.TrailingZeros16(st)
			cs := s.stashColors[g.sizeOf(dst)]
			if c := bits.OnesCount16(cs); k >= c {
				k -= c
				continue
			}
			return encode(kindPlace, games.NthBit(uint64(cs), k), dst), n
		}
	case phaseMove:
		// Stop, then each source's top piece to the other open stacks of
		// its size.
		sources, open := s.moveSources(), s.openStacks()
		n := 1
		for src := sources; src != 0; src &= src - 1 {
			n += bits.OnesCount16(s.moveTargets(bits.TrailingZeros16(src), open))
		}
		k := picker.PickIndex(n)
		if k == 0 {
			return encode(kindStop, 0, 0), n
		}
		k--
		for src := sources; ; src &= src - 1 {
			from := bits.TrailingZeros16(src)
			dsts := s.moveTargets(from, open)
			if c := bits.OnesCount16(dsts); k >= c {
				k -= c
				continue
			}
			return encode(kindMove, from, games.NthBit(uint64(dsts), k)), n
		}
	case phaseCap:
		// Each capstone that may move, to every uncapped stack.
		uncapped := g.allStacks &^ s.capped
		per := bits.OnesCount16(uncapped)
		caps := s.movableCaps()
		n := per * bits.OnesCount32(caps)
		if n == 0 {
			return 0, 0
		}
		k := picker.PickIndex(n)
		return encode(kindCap, games.NthBit(uint64(caps), k/per), games.NthBit(uint64(uncapped), k%per)), n
	}
	return 0, 0
}
