package capstone

import "playtest/games"

// Perft counts whole turns, as the spec defines Capstone's perft: a turn is
// its placement, its move or none, and its capstone step or none. The last
// turn is counted without playing its capstone steps. During the setup it
// counts turns of the generic kind (each seat's draws and ordering).
func (s *State) Perft(depth int) uint64 {
	switch {
	case depth <= 0:
		return 1
	case s.phase == phaseOver:
		return 0
	case s.phase != phasePlace:
		return games.PerftTurns(s, depth)
	case depth == 1:
		return s.walkTurns(nil)
	}
	var n uint64
	s.walkTurns(func(child *State) { n += child.Perft(depth - 1) })
	return n
}

// walkTurns returns the number of complete turns from s, a state waiting
// for a placement, and calls f with the position after each of them. With f
// nil it only counts, without playing the capstone steps: a move is
// followed by as many turns as it has capstone moves.
func (s *State) walkTurns(f func(*State)) uint64 {
	var places, moves, caps [2 * MaxColors * MaxStacks]games.Move
	var n uint64
	done := func(c *State) {
		n++
		if f != nil {
			f(c)
		}
	}
	for _, p := range s.LegalMoves(places[:0]) {
		placed := *s
		placed.Apply(p)
		if placed.phase != phaseMove {
			done(&placed)
			continue
		}
		for _, m := range placed.LegalMoves(moves[:0]) {
			moved := placed
			moved.Apply(m)
			if moved.phase != phaseCap { // stop
				done(&moved)
				continue
			}
			capMoves := moved.LegalMoves(caps[:0])
			if f == nil {
				n += uint64(len(capMoves))
				continue
			}
			for _, c := range capMoves {
				finished := moved
				finished.Apply(c)
				done(&finished)
			}
		}
	}
	return n
}
