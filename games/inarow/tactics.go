package inarow

import "playtest/games"

// Tactics: what the prover's hooks (games.WinFinder, SafeMover,
// ThreatOrderer, PackedKeyer) need of a k-in-a-row position, shared by the
// games that embed one; each game says which cells can be played (every
// empty cell, or each column's lowest).

// Threats is the empty cells where a stone of seat who would complete a
// line: where it wins with its next stone, if the cell can be played.
func (p *Position) Threats(who games.Player) uint64 {
	own, other := p.Stones[who], p.Stones[who.Opponent()]
	var t uint64
	for _, line := range p.B.lines {
		if line&other != 0 {
			continue
		}
		if rest := line &^ own; rest&(rest-1) == 0 {
			t |= rest
		}
	}
	return t
}

// ThreatsWith is Threats(who) once who has a stone on the empty cell,
// given before, the threats without it: only the lines through the cell
// change.
func (p *Position) ThreatsWith(who games.Player, cell int, before uint64) uint64 {
	bit := uint64(1) << uint(cell)
	own, other := p.Stones[who]|bit, p.Stones[who.Opponent()]
	t := before &^ bit
	for _, l := range p.B.linesAt[cell] {
		line := p.B.lines[l]
		if line&other != 0 {
			continue
		}
		if rest := line &^ own; rest&(rest-1) == 0 {
			t |= rest
		}
	}
	return t
}

// SortByScore reorders moves by score, highest first, keeping the order
// of equal scores (games.SortByKeys over at most 66 moves: no
// allocation).
func SortByScore(moves []games.Move, score func(games.Move) int) {
	var keys [MaxSide*MaxSide + 2]int
	for i, m := range moves {
		keys[i] = score(m)
	}
	games.SortByKeys(moves, keys[:len(moves)])
}

// Centrality scores a cell by its closeness to the board's centre: higher
// nearer the middle, the same for the images of a cell under the board's
// symmetries.
func (b *Board) Centrality(cell int) int {
	row, col := cell/b.Cols, cell%b.Cols
	dr, dc := 2*row-(b.Rows-1), 2*col-(b.Cols-1)
	return -(abs(dr) + abs(dc))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// PieBits packs the seat to move and the pie state into 3 bits, the low
// bits of a packed key.
func (p *Position) PieBits() uint64 { return uint64(p.Pie)<<1 | uint64(p.ToMove&1) }

// CanonicalStones is the stones of the position's canonical image under
// the board's symmetries: of the position and its images, the one whose
// stones, seat 0's then seat 1's, are the least as numbers
// (AppendCanonicalKey's).
func (p *Position) CanonicalStones() [2]uint64 {
	best := p.Stones
	for i := range p.B.symBytes {
		img := [2]uint64{p.B.image(i, p.Stones[0]), p.B.image(i, p.Stones[1])}
		if img[0] < best[0] || img[0] == best[0] && img[1] < best[1] {
			best = img
		}
	}
	return best
}

// image is a set of cells' image under symmetry i, a byte at a time.
func (b *Board) image(i int, cells uint64) uint64 {
	t := &b.symBytes[i]
	var img uint64
	for at := 0; cells != 0; at, cells = at+1, cells>>8 {
		img |= t[at][cells&0xff]
	}
	return img
}

// buildSymBytes tabulates each symmetry's image of every byte of cells.
func (b *Board) buildSymBytes() {
	b.symBytes = make([][8][256]uint64, len(b.syms))
	for i, perm := range b.syms {
		for at := range 8 {
			for v := range 256 {
				var img uint64
				for bit := range 8 {
					if cell := 8*at + bit; v&(1<<bit) != 0 && cell < b.cells {
						img |= 1 << perm[cell]
					}
				}
				b.symBytes[i][at][v] = img
			}
		}
	}
}

// MaxBase3Cells is the most cells whose base-3 number (each cell empty,
// seat 0's or seat 1's), times 8, fits 64 bits: 3^38·8 < 2^64.
const MaxBase3Cells = 38

// Base3Key packs stones into one number, a base-3 digit per cell (0
// empty, 1 seat 0's, 2 seat 1's), times 8 plus PieBits: an exact key of a
// board of at most MaxBase3Cells cells; false on a larger one.
func (p *Position) Base3Key(stones [2]uint64) (uint64, bool) {
	if p.B.pow3 == nil {
		return 0, false
	}
	var k uint64
	for at := 0; at < 8 && stones[0]|stones[1] != 0; at++ {
		k += p.B.pow3[at][stones[0]&0xff] + 2*p.B.pow3[at][stones[1]&0xff]
		stones[0] >>= 8
		stones[1] >>= 8
	}
	return k<<3 | p.PieBits(), true
}

// buildPow3 tabulates Σ 3^cell over each byte of cells, on boards small
// enough for Base3Key.
func (b *Board) buildPow3() {
	if b.cells > MaxBase3Cells {
		return
	}
	b.pow3 = new([8][256]uint64)
	for at := range 8 {
		for v := range 256 {
			var sum uint64
			for bit := range 8 {
				if cell := 8*at + bit; v&(1<<bit) != 0 && cell < b.cells {
					sum += pow(3, cell)
				}
			}
			b.pow3[at][v] = sum
		}
	}
}

func pow(base uint64, n int) uint64 {
	r := uint64(1)
	for range n {
		r *= base
	}
	return r
}
