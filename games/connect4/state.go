package connect4

import (
	"fmt"
	"math/bits"

	"playtest/games"
)

// State is one game of a Connect Four game in progress: each seat's stones as a bitboard.
// It holds no pointer but its game's, so a copy is a struct copy and a
// random playout allocates nothing.
type State struct {
	g      *Game
	stones [2]uint64
	toMove games.Player
	plies  int
	winner games.Player
	over   bool
	hash   uint64
	// height is each column's number of stones.
	height [MaxSide]uint8
	// pie is the pie rule's state: pieOff (no pie rule, or not decided
	// yet), pieNow (seat 1 decides), pieKept or pieSwapped.
	pie int8
}

// The pie rule's states, and its two decisions.
const (
	pieOff int8 = iota
	pieNow
	pieKept
	pieSwapped
)

// The pie decisions' moves (cells are 0 to 63).
const (
	moveKeep games.Move = 64
	moveSwap games.Move = 65
)

// PieDecision reports whether seat 1 decides keep or swap now
// (implements games.PieDecider).
func (s *State) PieDecision() bool { return s.pie == pieNow && !s.over }

// CurrentPlayer is the seat to move, or games.Terminal once it is over.
func (s *State) CurrentPlayer() games.Player {
	if s.over {
		return games.Terminal
	}
	return s.toMove
}

// LegalMoves appends every column with room, from the left: a move is the
// column's index, the stone landing on the lowest empty cell.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	if s.over {
		return buf
	}
	if s.pie == pieNow {
		return append(buf, moveKeep, moveSwap)
	}
	for col := range s.g.rules.Cols {
		if int(s.height[col]) < s.g.rules.Rows {
			buf = append(buf, games.Move(col))
		}
	}
	return buf
}

// ChanceOutcomes appends nothing: Connect Four has no chance.
func (s *State) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome { return buf }

// Apply drops the mover's stone into column m and ends the game on a line
// or a full board.
func (s *State) Apply(m games.Move) {
	switch m {
	case moveKeep:
		s.pie = pieKept
		s.hash ^= s.g.zobristPie
		return
	case moveSwap:
		// Seat 1 takes the first stone; seat 0 moves again.
		first := s.stones[0]
		s.stones[0], s.stones[1] = 0, first
		s.pie, s.toMove = pieSwapped, games.Seat0
		s.hash ^= s.g.zobristPie ^ s.g.zobristTwo
		for c := first; c != 0; c &= c - 1 {
			cell := bits.TrailingZeros64(c)
			s.hash ^= s.g.zobrist[0][cell] ^ s.g.zobrist[1][cell]
		}
		return
	}
	p := s.toMove
	cell := s.g.cell(int(s.height[m]), int(m))
	s.height[m]++
	s.stones[p] |= 1 << uint(cell)
	s.hash ^= s.g.zobrist[p][cell]
	s.plies++
	for _, l := range s.g.linesAt[cell] {
		if line := s.g.lines[l]; s.stones[p]&line == line {
			s.winner, s.over = p, true
			return
		}
	}
	if s.stones[0]|s.stones[1] == s.g.all {
		s.over = true
		return
	}
	s.toMove = p.Opponent()
	s.hash ^= s.g.zobristTwo
	if s.plies == 1 && s.g.rules.PieRule {
		s.pie = pieNow
		s.hash ^= s.g.zobristPie
	}
}

// Clone returns an independent copy.
func (s *State) Clone() games.State {
	c := *s
	return &c
}

// CopyFrom makes s a copy of src (a state of the same game).
func (s *State) CopyFrom(src games.State) { *s = *src.(*State) }

// IsTerminal reports whether the game is over.
func (s *State) IsTerminal() bool { return s.over }

// Result is the winner and why, once the game is over.
func (s *State) Result() games.Result {
	switch {
	case !s.over:
		return games.Result{Winner: games.NoPlayer}
	case s.winner == games.NoPlayer:
		return games.Result{Winner: games.NoPlayer, Reason: ReasonFull}
	}
	return games.Result{Winner: s.winner, Reason: ReasonLine}
}

// Plies is the number of stones placed.
func (s *State) Plies() int { return s.plies }

// Hash is the position's Zobrist key (implements games.Hasher).
func (s *State) Hash() uint64 { return s.hash }

// Occupied and Cells give the board to board coverage (games.Coverer).
func (s *State) Occupied() uint64 { return s.stones[0] | s.stones[1] }

// Cells is the board's number of cells.
func (s *State) Cells() int { return s.g.cells }

// AppendMetrics reports whether the game filled the board
// (implements games.Metrics).
func (s *State) AppendMetrics(dst []games.Metric) []games.Metric {
	dst = append(dst, games.Rate("full_board", s.stones[0]|s.stones[1] == s.g.all))
	if s.pie == pieKept || s.pie == pieSwapped {
		swapped := s.pie == pieSwapped
		dst = append(dst, games.Rate(games.MetricPieSwap, swapped))
		name := games.MetricPieKeepSeat1Wins
		if swapped {
			name = games.MetricPieSwapSeat1Wins
		}
		dst = append(dst, games.Rate(name, s.winner == games.Seat1))
	}
	return dst
}

// AppendKey appends the exact key of the position (implements games.Keyer):
// both bitboards and the seat to move; the result follows from them.
func (s *State) AppendKey(dst []byte) []byte {
	for _, b := range s.stones {
		for i := range 8 {
			dst = append(dst, byte(b>>(8*i)))
		}
	}
	return append(dst, byte(s.toMove), byte(s.pie))
}

// SetKey makes s the position a key describes.
func (s *State) SetKey(key []byte) {
	*s = State{g: s.g, winner: games.NoPlayer}
	for p := range s.stones {
		for i := range 8 {
			s.stones[p] |= uint64(key[8*p+i]) << (8 * i)
		}
	}
	s.toMove, s.pie = games.Player(key[16]), int8(key[17])
	s.plies = bits.OnesCount64(s.stones[0] | s.stones[1])
	for col := range s.g.rules.Cols {
		for s.height[col] < uint8(s.g.rules.Rows) && (s.stones[0]|s.stones[1])&(1<<uint(s.g.cell(int(s.height[col]), col))) != 0 {
			s.height[col]++
		}
	}
	if s.pie == pieNow {
		s.hash ^= s.g.zobristPie
	}
	for p := range s.stones {
		for c := s.stones[p]; c != 0; c &= c - 1 {
			s.hash ^= s.g.zobrist[p][bits.TrailingZeros64(c)]
		}
	}
	if s.toMove == games.Seat1 {
		s.hash ^= s.g.zobristTwo
	}
	for p := range s.stones {
		for _, line := range s.g.lines {
			if s.stones[p]&line == line {
				s.winner, s.over = games.Player(p), true
			}
		}
	}
	if s.stones[0]|s.stones[1] == s.g.all {
		s.over = true
	}
}

// CheckInvariants checks what every position must satisfy (implements
// games.InvariantChecker; the conformance suite checks it after every
// decision): stones on the board and never two on a cell, the counts the
// turn order gives, the hash, and a finished game's result.
func (s *State) CheckInvariants() error {
	n0, n1 := bits.OnesCount64(s.stones[0]), bits.OnesCount64(s.stones[1])
	if s.pie == pieSwapped { // seat 1 owns the first stone: it is "first"
		n0, n1 = n1, n0
	}
	first := games.Seat0
	if s.pie == pieSwapped {
		first = games.Seat1
	}
	switch {
	case s.pie == pieNow && (n0 != 1 || n1 != 0 || s.toMove != games.Seat1):
		return fmt.Errorf("the pie decision with %d and %d stones, %v to move", n0, n1, s.toMove)
	case s.pie != pieOff && !s.g.rules.PieRule:
		return fmt.Errorf("a pie state %d without the pie rule", s.pie)
	case s.stones[0]&s.stones[1] != 0:
		return fmt.Errorf("two stones on one cell: %#x", s.stones[0]&s.stones[1])
	case (s.stones[0]|s.stones[1])&^s.g.all != 0:
		return fmt.Errorf("a stone off the board")
	case n0+n1 != s.plies:
		return fmt.Errorf("%d stones after %d plies", n0+n1, s.plies)
	case n0 != n1 && n0 != n1+1:
		return fmt.Errorf("seat 0 has %d stones and seat 1 %d", n0, n1)
	case !s.over && s.pie != pieNow && (s.toMove == first) != (n0 == n1):
		return fmt.Errorf("%v to move with %d and %d stones", s.toMove, n0, n1)
	}
	for col := range s.g.rules.Cols {
		for row := range s.g.rules.Rows {
			filled := (s.stones[0]|s.stones[1])&(1<<uint(s.g.cell(row, col))) != 0
			if filled != (row < int(s.height[col])) {
				return fmt.Errorf("column %c: height %d, but row %d is filled %v (stones float)", 'a'+col, s.height[col], row+1, filled)
			}
		}
	}
	var want State
	want.g = s.g
	want.SetKey(s.AppendKey(nil))
	if want.hash != s.hash {
		return fmt.Errorf("hash %#x, want %#x", s.hash, want.hash)
	}
	if s.over != want.over || s.over && s.winner != want.winner {
		return fmt.Errorf("over %v (winner %v), but the board says over %v (winner %v)", s.over, s.winner, want.over, want.winner)
	}
	return nil
}
