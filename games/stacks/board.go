package stacks

import "math/bits"

// The board is 7×7; only the 24 white squares (row + col odd) are used.
// They are numbered 0..23 in row-major order, so a set of squares is a
// uint32 bitboard.
const (
	Size    = 7
	Squares = 24
)

// squareOf maps (row, col) to a white square's number, or -1 for a dark
// square; rowOf and colOf map back.
var squareOf, rowOf, colOf = numberSquares()

func numberSquares() (sq [Size][Size]int8, row, col [Squares]int8) {
	n := 0
	for r := range Size {
		for c := range Size {
			sq[r][c] = -1
			if (r+c)%2 == 1 {
				sq[r][c] = int8(n)
				row[n], col[n] = int8(r), int8(c)
				n++
			}
		}
	}
	return sq, row, col
}

// areaA is the set of white squares on even rows (area A); the rest form
// area B. Straight moves never leave an area.
var areaA = func() uint32 {
	var m uint32
	for sq := range Squares {
		if rowOf[sq]%2 == 0 {
			m |= 1 << sq
		}
	}
	return m
}()

// onBoard reports whether (row, col) is on the board.
func onBoard(r, c int) bool { return r >= 0 && r < Size && c >= 0 && c < Size }

// Red (seat 0) moves along rows and Green (seat 1) along columns: a
// player's axis coordinate is the column for Red and the row for Green.
func toSquare(seat, axis, cross int) (r, c int) {
	if seat == 0 {
		return cross, axis
	}
	return axis, cross
}

func fromSquare(seat, sq int) (axis, cross int) {
	if seat == 0 {
		return int(colOf[sq]), int(rowOf[sq])
	}
	return int(rowOf[sq]), int(colOf[sq])
}

// path is one way a card can take a stack from a source square: where it
// ends and the squares it lands on before (the source excluded: the stack
// has left it), which must be empty under blocking.
type path struct {
	dst uint8
	mid uint32
}

// paths are the precomputed moves of one card value from one square for one
// player: the straight moves and, separately, the backward ones, with the
// destinations of each as a bitboard.
type paths struct {
	straight, backward       []path
	straightDst, backwardDst uint32
}

// buildPaths lists the paths of a v-card from src for seat. Backward paths
// make k straight steps (1 ≤ k < v) and then v−k diagonal steps against the
// direction, to one side throughout (straight) or to either side at each
// step (zigzag). Paths that leave the board or end on the source are not
// moves; identical paths are listed once.
func buildPaths(seat, v, src int, zigzag bool) paths {
	var p paths
	a0, x0 := fromSquare(seat, src)
	add := func(list []path, landed []int) []path {
		dst := landed[len(landed)-1]
		if dst == src {
			return list
		}
		var mid uint32
		for _, sq := range landed[:len(landed)-1] {
			mid |= 1 << sq
		}
		mid &^= 1 << src
		for _, q := range list {
			if q.dst == uint8(dst) && q.mid == mid {
				return list
			}
		}
		return append(list, path{dst: uint8(dst), mid: mid})
	}
	for _, dir := range []int{1, -1} {
		var forward []int
		for i := 1; i <= v; i++ {
			r, c := toSquare(seat, a0+2*dir*i, x0)
			if !onBoard(r, c) {
				break
			}
			forward = append(forward, int(squareOf[r][c]))
		}
		if len(forward) == v {
			p.straight = add(p.straight, forward)
		}
		for k := 1; k < v && k <= len(forward); k++ {
			diag := v - k
			for sides := range 1 << diag {
				if !zigzag && sides != 0 && sides != 1<<diag-1 {
					continue
				}
				landed := append([]int(nil), forward[:k]...)
				a, x := a0+2*dir*k, x0
				ok := true
				for j := range diag {
					a -= dir
					if sides>>j&1 == 1 {
						x++
					} else {
						x--
					}
					r, c := toSquare(seat, a, x)
					if !onBoard(r, c) {
						ok = false
						break
					}
					landed = append(landed, int(squareOf[r][c]))
				}
				if ok {
					p.backward = add(p.backward, landed)
				}
			}
		}
	}
	for _, q := range p.straight {
		p.straightDst |= 1 << q.dst
	}
	for _, q := range p.backward {
		p.backwardDst |= 1 << q.dst
	}
	return p
}

// reach returns the destinations the paths can reach when occ is occupied:
// all of them without blocking, else those whose passed-over squares are
// empty.
func reach(list []path, all uint32, occ uint32, blocking bool) uint32 {
	if !blocking {
		return all
	}
	var m uint32
	for _, q := range list {
		if q.mid&occ == 0 {
			m |= 1 << q.dst
		}
	}
	return m
}

// squareName writes a square chess-style: column letter, row number.
func squareName(sq int) string { return string(appendSquare(nil, sq)) }

// appendSquare appends a white square's name.
func appendSquare(b []byte, sq int) []byte {
	return append(b, byte('a'+colOf[sq]), byte('1'+rowOf[sq]))
}

// parseSquare reads a white square's name.
func parseSquare(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	c, r := int(s[0]-'a'), int(s[1]-'1')
	if !onBoard(r, c) || squareOf[r][c] < 0 {
		return 0, false
	}
	return int(squareOf[r][c]), true
}

func popcount(m uint32) int { return bits.OnesCount32(m) }

// axisShift is a card's straight moves for one seat as shifts of a set of
// squares: a straight move goes n square numbers up from the squares fwd
// and n down from the squares bwd (n = v along a row, 7v along a column:
// two rows hold 7 white squares).
type axisShift struct {
	fwd, bwd uint32
	n        uint8
}

// sources returns the squares of from with a straight move to a square
// of to, by direction.
func (a *axisShift) sources(from, to uint32) shiftMoves {
	return shiftMoves{fwd: from & a.fwd & (to >> a.n), bwd: from & a.bwd & (to << a.n)}
}

// newAxisShift finds the shift of the straight destinations dst (of one
// card for one seat, by square); it panics if they are not a shift, which
// the board's numbering rules out.
func newAxisShift(dst *[Squares]uint32) axisShift {
	var a axisShift
	for src, d := range dst {
		if d != 0 {
			step := bits.TrailingZeros32(d) - src // the nearest destination: n either way
			a.n = uint8(max(step, -step))
			break
		}
	}
	for src, d := range dst {
		if up := src + int(a.n); up < Squares && d&(1<<up) != 0 {
			a.fwd |= 1 << src
		}
		if down := src - int(a.n); down >= 0 && d&(1<<down) != 0 {
			a.bwd |= 1 << src
		}
	}
	for src, d := range dst {
		from := uint32(1) << src
		if from&a.fwd<<a.n|from&a.bwd>>a.n != d {
			panic("stacks: straight destinations are not a shift of the squares")
		}
	}
	return a
}
