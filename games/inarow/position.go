package inarow

import (
	"fmt"
	"math/bits"

	"playtest/games"
)

// Position is a game in progress, embedded by value in each game's state:
// each seat's stones as a bitboard, the seat to move, the result and the
// Zobrist hash. It holds no pointer but its board's, so a state's copy is a
// struct copy and a random playout allocates nothing.
type Position struct {
	B      *Board
	Stones [2]uint64
	ToMove games.Player
	plies  int
	winner games.Player
	over   bool
	hash   uint64
	// score is Evaluate(seat 0) when scored (KeepScore): Place keeps it
	// as the stones fall, so that a search's evaluation costs nothing.
	score  int32
	scored bool
	// Pie is the pie rule's state: PieOff (no pie rule, or not decided
	// yet), PieNow (seat 1 decides), PieKept or PieSwapped.
	Pie int8
}

// The pie rule's states.
const (
	PieOff int8 = iota
	PieNow
	PieKept
	PieSwapped
)

// The pie decisions' moves (cells and columns are below 64).
const (
	MoveKeep games.Move = 64
	MoveSwap games.Move = 65
)

// Start is the empty board of b, seat 0 to move.
func Start(b *Board) Position { return Position{B: b, winner: games.NoPlayer} }

// PieDecision reports whether seat 1 decides keep or swap now
// (implements games.PieDecider).
func (p *Position) PieDecision() bool { return p.Pie == PieNow && !p.over }

// AppendPieMoves appends keep and swap when the pie decision is due, and
// reports whether it was.
func (p *Position) AppendPieMoves(buf []games.Move) ([]games.Move, bool) {
	if p.PieDecision() {
		return append(buf, MoveKeep, MoveSwap), true
	}
	return buf, false
}

// CurrentPlayer is the seat to move, or games.Terminal once it is over.
func (p *Position) CurrentPlayer() games.Player {
	if p.over {
		return games.Terminal
	}
	return p.ToMove
}

// ChanceOutcomes appends nothing: no chance.
func (p *Position) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome { return buf }

// ApplyPie plays a pie decision and reports whether m was one: keep, or
// swap (seat 1 takes the first stone; seat 0 moves again).
func (p *Position) ApplyPie(m games.Move) bool {
	switch m {
	case MoveKeep:
		p.Pie = PieKept
		p.hash ^= p.B.pie
	case MoveSwap:
		first := p.Stones[0]
		p.Stones[0], p.Stones[1] = 0, first
		p.score = -p.score // zero when not scored
		p.Pie, p.ToMove = PieSwapped, games.Seat0
		p.hash ^= p.B.pie ^ p.B.two
		for c := first; c != 0; c &= c - 1 {
			cell := bits.TrailingZeros64(c)
			p.hash ^= p.B.zobrist[0][cell] ^ p.B.zobrist[1][cell]
		}
	default:
		return false
	}
	return true
}

// Place puts the mover's stone on cell and ends the game on a line or a
// full board; otherwise the turn passes (to the pie decision after the
// first stone, with the pie rule).
func (p *Position) Place(cell int) {
	who := p.ToMove
	bit := uint64(1) << uint(cell)
	p.Stones[who] |= bit
	p.hash ^= p.B.zobrist[who][cell]
	p.plies++
	won := false
	if p.scored {
		won = p.placeScored(who, bit, p.B.linesAt[cell])
	} else {
		for _, l := range p.B.linesAt[cell] {
			if line := p.B.lines[l]; p.Stones[who]&line == line {
				won = true
				break
			}
		}
	}
	if won {
		p.winner, p.over = who, true
		return
	}
	if p.Stones[0]|p.Stones[1] == p.B.all {
		p.over = true
		return
	}
	p.ToMove = who.Opponent()
	p.hash ^= p.B.two
	if p.plies == 1 && p.B.PieRule {
		p.Pie = PieNow
		p.hash ^= p.B.pie
	}
}

// placeScored moves the score for who's stone just placed at bit, whose
// lines are lines, and reports whether one of them is now who's. Only the
// lines through the cell change: each still open to who, now holding j
// of its stones, goes from (j−1)² to j² of who's score, and each the
// other held alone, j of its stones, from −j² to nothing.
func (p *Position) placeScored(who games.Player, bit uint64, lines []int32) (won bool) {
	mine, theirs := p.Stones[who], p.Stones[who.Opponent()]
	d := int32(0)
	for _, l := range lines {
		line := p.B.lines[l]
		switch {
		case theirs&line == 0:
			j := int32(bits.OnesCount64(mine & line))
			d += 2*j - 1
			won = won || mine&line == line
		case mine&line == bit:
			j := int32(bits.OnesCount64(theirs & line))
			d += j * j
		}
	}
	if who == games.Seat1 {
		d = -d
	}
	p.score += d
	return won
}

// KeepScore makes Place keep the heuristic's score from here on, in p and
// every position copied from it (implements games.ScoreKeeper).
func (p *Position) KeepScore() {
	if !p.scored {
		p.score, p.scored = p.B.scoreOf(p.Stones[0], p.Stones[1]), true
	}
}

// IsTerminal reports whether the game is over.
func (p *Position) IsTerminal() bool { return p.over }

// Result is the winner and why, once the game is over.
func (p *Position) Result() games.Result {
	switch {
	case !p.over:
		return games.Result{Winner: games.NoPlayer}
	case p.winner == games.NoPlayer:
		return games.Result{Winner: games.NoPlayer, Reason: ReasonFull}
	}
	return games.Result{Winner: p.winner, Reason: ReasonLine}
}

// Plies is the number of stones placed.
func (p *Position) Plies() int { return p.plies }

// Hash is the position's Zobrist key (implements games.Hasher).
func (p *Position) Hash() uint64 { return p.hash }

// Occupied is the cells holding a stone (implements games.Coverer).
func (p *Position) Occupied() uint64 { return p.Stones[0] | p.Stones[1] }

// Cells is the board's number of cells.
func (p *Position) Cells() int { return p.B.cells }

// AppendMetrics reports whether the game filled the board and, with the
// pie rule, the pie choice and how seat 1 fared after it (implements
// games.Metrics).
func (p *Position) AppendMetrics(dst []games.Metric) []games.Metric {
	dst = append(dst, games.Rate("full_board", p.Occupied() == p.B.all))
	if p.Pie == PieKept || p.Pie == PieSwapped {
		swapped := p.Pie == PieSwapped
		dst = append(dst, games.Rate(games.MetricPieSwap, swapped))
		name := games.MetricPieKeepSeat1Wins
		if swapped {
			name = games.MetricPieSwapSeat1Wins
		}
		dst = append(dst, games.Rate(name, p.winner == games.Seat1))
	}
	return dst
}

// AppendKey appends the exact key of the position (implements games.Keyer):
// both bitboards, the seat to move and the pie state; the result follows
// from them.
func (p *Position) AppendKey(dst []byte) []byte {
	for _, b := range p.Stones {
		for i := range 8 {
			dst = append(dst, byte(b>>(8*i)))
		}
	}
	return append(dst, byte(p.ToMove), byte(p.Pie))
}

// AppendCanonicalKey appends the key of the position's canonical image
// under the board's symmetries (implements games.Symmetric): of the
// position and its images, the one whose stones, seat 0's then seat 1's,
// are the least as numbers.
func (p *Position) AppendCanonicalKey(dst []byte) []byte {
	q := Position{Stones: p.CanonicalStones(), ToMove: p.ToMove, Pie: p.Pie}
	return q.AppendKey(dst)
}

// SetKey makes p the position a key describes, its history starting
// there.
func (p *Position) SetKey(key []byte) {
	*p = Start(p.B)
	for who := range p.Stones {
		for i := range 8 {
			p.Stones[who] |= uint64(key[8*who+i]) << (8 * i)
		}
	}
	p.ToMove, p.Pie = games.Player(key[16]), int8(key[17])
	p.plies = bits.OnesCount64(p.Occupied())
	if p.Pie == PieNow {
		p.hash ^= p.B.pie
	}
	for who := range p.Stones {
		for c := p.Stones[who]; c != 0; c &= c - 1 {
			p.hash ^= p.B.zobrist[who][bits.TrailingZeros64(c)]
		}
	}
	if p.ToMove == games.Seat1 {
		p.hash ^= p.B.two
	}
	for who := range p.Stones {
		for _, line := range p.B.lines {
			if p.Stones[who]&line == line {
				p.winner, p.over = games.Player(who), true
			}
		}
	}
	if p.Occupied() == p.B.all {
		p.over = true
	}
}

// Check checks what every position must satisfy (the games'
// CheckInvariants start with it): stones on the board and never two on a
// cell, the counts the turn order gives (the pie decision and a swap
// included), the hash, the score Evaluate reads, and a finished game's
// result.
func (p *Position) Check() error {
	n0, n1 := bits.OnesCount64(p.Stones[0]), bits.OnesCount64(p.Stones[1])
	first := games.Seat0
	if p.Pie == PieSwapped { // seat 1 owns the first stone
		n0, n1, first = n1, n0, games.Seat1
	}
	switch {
	case p.Pie == PieNow && (n0 != 1 || n1 != 0 || p.ToMove != games.Seat1):
		return fmt.Errorf("the pie decision with %d and %d stones, %v to move", n0, n1, p.ToMove)
	case p.Pie != PieOff && !p.B.PieRule:
		return fmt.Errorf("a pie state %d without the pie rule", p.Pie)
	case p.Stones[0]&p.Stones[1] != 0:
		return fmt.Errorf("two stones on one cell: %#x", p.Stones[0]&p.Stones[1])
	case p.Occupied()&^p.B.all != 0:
		return fmt.Errorf("a stone off the board")
	case n0+n1 != p.plies:
		return fmt.Errorf("%d stones after %d plies", n0+n1, p.plies)
	case n0 != n1 && n0 != n1+1:
		return fmt.Errorf("the first stone's seat has %d stones and the other %d", n0, n1)
	case !p.over && p.Pie != PieNow && (p.ToMove == first) != (n0 == n1):
		return fmt.Errorf("%v to move with %d and %d stones", p.ToMove, n0, n1)
	}
	want := Start(p.B)
	want.SetKey(p.AppendKey(nil))
	if want.hash != p.hash {
		return fmt.Errorf("hash %#x, want %#x", p.hash, want.hash)
	}
	if want := p.B.scoreOf(p.Stones[0], p.Stones[1]); p.scored && p.score != want {
		return fmt.Errorf("score %d kept as the stones fell, but the board's lines count %d", p.score, want)
	}
	if p.over != want.over || p.over && p.winner != want.winner {
		return fmt.Errorf("over %v (winner %v), but the board says over %v (winner %v)", p.over, p.winner, want.over, want.winner)
	}
	return nil
}
