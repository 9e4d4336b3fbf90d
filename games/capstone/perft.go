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
		return s.countTurns()
	}
	var n uint64
	s.eachTurn(func(child *State) { n += child.Perft(depth - 1) })
	return n
}

// eachTurn calls f with the position after every complete turn from s, a
// state waiting for a placement.
func (s *State) eachTurn(f func(*State)) {
	var places, moves, caps [2 * MaxColors * MaxStacks]games.Move
	for _, p := range s.LegalMoves(places[:0]) {
		placed := *s
		placed.Apply(p)
		if placed.phase != phaseMove {
			f(&placed)
			continue
		}
		for _, m := range placed.LegalMoves(moves[:0]) {
			moved := placed
			moved.Apply(m)
			if moved.phase != phaseCap { // stop
				f(&moved)
				continue
			}
			for _, c := range moved.LegalMoves(caps[:0]) {
				done := moved
				done.Apply(c)
				f(&done)
			}
		}
	}
}

// countTurns counts the complete turns from s without playing the capstone
// steps: each move is followed by as many turns as it has capstone moves.
func (s *State) countTurns() uint64 {
	var places, moves, caps [2 * MaxColors * MaxStacks]games.Move
	var n uint64
	for _, p := range s.LegalMoves(places[:0]) {
		placed := *s
		placed.Apply(p)
		if placed.phase != phaseMove {
			n++
			continue
		}
		for _, m := range placed.LegalMoves(moves[:0]) {
			moved := placed
			moved.Apply(m)
			if moved.phase != phaseCap {
				n++
				continue
			}
			n += uint64(len(moved.LegalMoves(caps[:0])))
		}
	}
	return n
}
