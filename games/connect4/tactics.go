package connect4

import (
	"math/bits"

	"playtest/games"
	"playtest/games/inarow"
)

// The prover's hooks (games.WinFinder, SafeMover, ThreatOrderer,
// PackedKeyer): a stone can be played on each column's lowest empty cell
// only, and a stone under a cell where the other seat would win lets it
// win there next.

// columnBits are a board's column-by-column bitboards (Pascal Pons's
// layout: rows + 1 bits a column, the top one always empty, so that lines
// found by shifting never wrap from one column to the next), for boards
// where they fit 64 bits.
type columnBits struct {
	height uint // bits a column: rows + 1
	k      int
	board  uint64 // every cell
	bottom uint64 // each column's lowest cell
	column [MaxSide]uint64
	packs  bool // the packed key fits: height·cols + 3 ≤ 64
}

func newColumnBits(r Rules) *columnBits {
	h := r.Rows + 1
	if h*r.Cols > 64 {
		return nil
	}
	b := &columnBits{height: uint(h), k: r.K, packs: h*r.Cols+3 <= 64}
	for col := range r.Cols {
		b.column[col] = (uint64(1)<<uint(r.Rows) - 1) << uint(col*h)
		b.board |= b.column[col]
		b.bottom |= 1 << uint(col*h)
	}
	return b
}

// winning is the empty cells (not in all) where stones p would complete k
// in a row: in each direction, a cell with a stones of p just before it
// and k − 1 − a just after it, for some a.
func (b *columnBits) winning(p, all uint64) uint64 {
	if b.k == 4 {
		return b.winning4(p, all)
	}
	var w uint64
	h := b.height
	k := b.k
	for _, d := range [4]uint{1, h, h - 1, h + 1} {
		// before[a]: cells with a stones of p just before them; after[a]
		// the same after them.
		var before, after [MaxSide]uint64
		before[0], after[0] = ^uint64(0), ^uint64(0)
		for a := 1; a < k; a++ {
			before[a] = before[a-1] & (p << (uint(a) * d))
			after[a] = after[a-1] & (p >> (uint(a) * d))
		}
		for a := range k {
			w |= before[a] & after[k-1-a]
		}
	}
	return w & b.board &^ all
}

// winning4 is winning for four in a row, unrolled (Pons's
// compute_winning_position).
func (b *columnBits) winning4(p, all uint64) uint64 {
	w := (p << 1) & (p << 2) & (p << 3)
	for _, d := range [3]uint{b.height, b.height - 1, b.height + 1} {
		two := (p << d) & (p << (2 * d))
		w |= two & (p << (3 * d))
		w |= two & (p >> d)
		two = (p >> d) & (p >> (2 * d))
		w |= two & (p << d)
		w |= two & (p >> (3 * d))
	}
	return w & b.board &^ all
}

// own is seat who's stones column by column.
func (s *State) own(who games.Player) uint64 { return s.cols[who&1] }

// filled is every stone column by column.
func (s *State) filled() uint64 { return s.cols[0] | s.cols[1] }

// playableBits is each column's lowest empty cell, column by column.
func (s *State) playableBits() uint64 {
	b := s.g.bits
	return (s.filled() + b.bottom) & b.board
}

// playable is each column's lowest empty cell.
func (s *State) playable() uint64 {
	var p uint64
	for col := range s.g.rules.Cols {
		if h := int(s.height[col]); h < s.g.rules.Rows {
			p |= 1 << uint(s.g.Cell(h, col))
		}
	}
	return p
}

// WinningMove returns a column where the mover's stone makes k in a row
// (implements games.WinFinder).
func (s *State) WinningMove() (games.Move, bool) {
	if s.IsTerminal() || s.PieDecision() {
		return 0, false
	}
	if b := s.g.bits; b != nil {
		w := b.winning(s.own(s.ToMove), s.filled()) & s.playableBits()
		if w == 0 {
			return 0, false
		}
		return games.Move(uint(bits.TrailingZeros64(w)) / b.height), true
	}
	w := s.Threats(s.ToMove) & s.playable()
	if w == 0 {
		return 0, false
	}
	return games.Move(bits.TrailingZeros64(w) % s.g.rules.Cols), true
}

// SafeMoves appends the columns after which the other seat cannot win at
// once (implements games.SafeMover): the one that blocks its only playable
// threat, if it has one (none if it has two), and never a column whose
// stone would lie under one of its threats.
func (s *State) SafeMoves(buf []games.Move) []games.Move {
	if s.IsTerminal() {
		return buf
	}
	if buf, pie := s.AppendPieMoves(buf); pie {
		return buf
	}
	if b := s.g.bits; b != nil {
		theirs := b.winning(s.own(s.ToMove.Opponent()), s.filled())
		can := s.playableBits()
		if forced := theirs & can; forced != 0 {
			if forced&(forced-1) != 0 {
				return buf
			}
			can = forced
		}
		can &^= theirs >> 1
		for col := range s.g.rules.Cols {
			if can&b.column[col] != 0 {
				buf = append(buf, games.Move(col))
			}
		}
		return buf
	}
	theirs := s.Threats(s.ToMove.Opponent())
	play := s.playable()
	can := play
	if forced := theirs & play; forced != 0 {
		if forced&(forced-1) != 0 {
			return buf
		}
		can = forced
	}
	can &^= theirs >> uint(s.g.rules.Cols)
	for col := range s.g.rules.Cols {
		if h := int(s.height[col]); h < s.g.rules.Rows && can&(1<<uint(s.g.Cell(h, col))) != 0 {
			buf = append(buf, games.Move(col))
		}
	}
	return buf
}

// OrderMoves puts first the columns whose stone leaves the mover the most
// cells where it would win next, the central columns first among equals
// (implements games.ThreatOrderer).
func (s *State) OrderMoves(moves []games.Move) {
	if s.IsTerminal() || s.PieDecision() {
		return
	}
	me := s.ToMove
	cols := s.g.rules.Cols
	if b := s.g.bits; b != nil {
		mine, play := s.own(me), s.playableBits()
		inarow.SortByScore(moves, func(m games.Move) int {
			bit := play & b.column[m]
			d := 2*int(m) - (cols - 1)
			return 64*bits.OnesCount64(b.winning(mine|bit, s.filled()|bit)) - max(d, -d)
		})
		return
	}
	before := s.Threats(me)
	inarow.SortByScore(moves, func(m games.Move) int {
		cell := s.g.Cell(int(s.height[m]), int(m))
		d := 2*int(m) - (cols - 1)
		return 64*bits.OnesCount64(s.ThreatsWith(me, cell, before)) - max(d, -d)
	})
}

// PackedKey packs the position into 64 bits (implements
// games.PackedKeyer): rows + 1 bits a column, seat 0's stones and a bit
// above the column's top stone, then the pie bits; false when the board
// has more than 61 such bits.
func (s *State) PackedKey() (uint64, bool) {
	k, _, ok := s.packed()
	return k, ok
}

// PackedCanonicalKey is the least of the packed keys of the position and
// its mirror image.
func (s *State) PackedCanonicalKey() (uint64, bool) {
	k, mirror, ok := s.packed()
	return min(k, mirror), ok
}

// packed is the position's packed key and its mirror image's: each
// column's seat-0 stones plus its filled cells, which sets the bit above
// its top stone (Pons's key: unique, and no column carries into the next).
func (s *State) packed() (key, mirror uint64, ok bool) {
	b := s.g.bits
	if b == nil || !b.packs {
		return 0, 0, false
	}
	key = s.cols[0] + s.filled() + b.bottom
	cols := s.g.rules.Cols
	group := uint64(1)<<b.height - 1
	for col := range cols {
		mirror |= (key >> (uint(col) * b.height) & group) << (uint(cols-1-col) * b.height)
	}
	pie := s.PieBits()
	return key<<3 | pie, mirror<<3 | pie, true
}
