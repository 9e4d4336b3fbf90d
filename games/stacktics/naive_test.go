package stacktics

// A deliberately naive second implementation of the rules, written straight
// from stacktics.md with none of the engine's tricks (no packed cells, no
// rays, no bitboards, no hashing): stacks are slices of piece sizes, moves
// are strings in the documented notation, repetition compares whole board
// drawings over the whole game. Differential tests compare it with the
// engine move by move and by perft.

import (
	"fmt"
	"slices"
	"strings"

	"playtest/games"
)

type naiveStack struct {
	army   int   // 0 = A, 1 = B
	pieces []int // sizes from the bottom up
}

type naiveMove struct {
	text           string
	fr, fc, tr, tc int
	base           int // index of the base piece in the stack
}

type naiveGame struct {
	rules      Rules
	rows, cols int
	board      [][]*naiveStack
	toMove     int
	swapped    bool
	pieDue     bool
	plies      int
	captured   [2]int
	history    []string
	over       bool
	winner     games.Player
	reason     string
}

func newNaive(r Rules) *naiveGame {
	n := &naiveGame{rules: r, rows: r.Board.Rows, cols: r.Board.Cols, winner: games.NoPlayer}
	n.board = make([][]*naiveStack, n.rows)
	for i := range n.board {
		n.board[i] = make([]*naiveStack, n.cols)
	}
	for _, c := range r.StartColumns {
		n.board[0][c] = &naiveStack{army: 0, pieces: []int{3, 2, 1}}
		n.board[n.rows-1][c] = &naiveStack{army: 1, pieces: []int{3, 2, 1}}
	}
	n.history = []string{n.key()}
	return n
}

func (n *naiveGame) clone() *naiveGame {
	c := *n
	c.board = make([][]*naiveStack, n.rows)
	for r := range n.board {
		c.board[r] = make([]*naiveStack, n.cols)
		for col, st := range n.board[r] {
			if st != nil {
				c.board[r][col] = &naiveStack{army: st.army, pieces: slices.Clone(st.pieces)}
			}
		}
	}
	c.history = slices.Clone(n.history)
	return &c
}

// key describes the position: every square's stack, and the army to move.
func (n *naiveGame) key() string {
	b := make([]byte, 0, 64)
	for r := range n.rows {
		for c := range n.cols {
			b = append(b, '|')
			if st := n.board[r][c]; st != nil {
				b = append(b, byte('A'+st.army))
				for _, p := range st.pieces {
					b = append(b, byte('0'+p))
				}
			}
		}
	}
	return string(append(b, byte('A'+n.toMove)))
}

func naiveSquare(r, c int) string { return fmt.Sprintf("%c%d", 'a'+c, r+1) }

func naiveLetters(pieces []int) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteByte(" SML"[p])
	}
	return b.String()
}

func (n *naiveGame) seatOf(army int) games.Player {
	if n.swapped {
		return games.Player(1 - army)
	}
	return games.Player(army)
}

func (n *naiveGame) current() games.Player {
	switch {
	case n.over:
		return games.Terminal
	case n.pieDue:
		return games.Seat1
	}
	return n.seatOf(n.toMove)
}

func (n *naiveGame) moves() []naiveMove {
	if n.over {
		return nil
	}
	if n.pieDue {
		return []naiveMove{{text: "keep"}, {text: "swap"}}
	}
	return n.movesOf(n.toMove)
}

func (n *naiveGame) movesOf(army int) []naiveMove {
	var out []naiveMove
	for r := range n.rows {
		for c := range n.cols {
			st := n.board[r][c]
			if st == nil || st.army != army {
				continue
			}
			for k := range st.pieces {
				base := st.pieces[k]
				unit := st.pieces[k:]
				weight := 0
				for _, p := range unit[1:] {
					weight += p
				}
				maxDist := 1000
				if len(unit) > 1 {
					if weight < base {
						maxDist = *n.rules.LoadedRange
					} else {
						maxDist = 1
					}
				}
				var dirs [][2]int
				if base == 1 || base == 3 {
					dirs = append(dirs, [2]int{1, 1}, [2]int{1, -1}, [2]int{-1, 1}, [2]int{-1, -1})
				}
				if base == 2 || base == 3 {
					dirs = append(dirs, [2]int{1, 0}, [2]int{-1, 0}, [2]int{0, 1}, [2]int{0, -1})
				}
				for _, d := range dirs {
					for dist := 1; dist <= maxDist; dist++ {
						tr, tc := r+d[0]*dist, c+d[1]*dist
						if tr < 0 || tr >= n.rows || tc < 0 || tc >= n.cols {
							break
						}
						target := n.board[tr][tc]
						m := naiveMove{fr: r, fc: c, tr: tr, tc: tc, base: k}
						from := naiveSquare(r, c) + naiveLetters(unit)
						if target == nil {
							m.text = from + "-" + naiveSquare(tr, tc)
							out = append(out, m)
							continue
						}
						if target.army == army {
							top := target.pieces[len(target.pieces)-1]
							if base <= top {
								m.text = from + "-" + naiveSquare(tr, tc)
								out = append(out, m)
							}
						} else if len(unit) == 1 && len(st.pieces) >= 2 {
							m.text = from + "x" + naiveSquare(tr, tc)
							out = append(out, m)
						}
						break
					}
				}
			}
		}
	}
	return out
}

func (n *naiveGame) threshold() int {
	if n.rules.WinThreshold == ThresholdMoreThanHalf {
		return 3*n.rules.Size + 1
	}
	return 3 * n.rules.Size
}

func (n *naiveGame) apply(m naiveMove) {
	if n.pieDue {
		n.pieDue = false
		n.swapped = m.text == "swap"
		n.afterTurnStart()
		return
	}
	st := n.board[m.fr][m.fc]
	unit := slices.Clone(st.pieces[m.base:])
	st.pieces = st.pieces[:m.base]
	if len(st.pieces) == 0 {
		n.board[m.fr][m.fc] = nil
	}
	mover := st.army
	capture := false
	target := n.board[m.tr][m.tc]
	switch {
	case target == nil:
		n.board[m.tr][m.tc] = &naiveStack{army: mover, pieces: unit}
	case target.army == mover:
		target.pieces = append(target.pieces, unit...)
	default:
		capture = true
		for _, p := range target.pieces {
			n.captured[mover] += p
		}
		n.board[m.tr][m.tc] = &naiveStack{army: mover, pieces: unit}
	}
	n.plies++
	n.toMove = 1 - n.toMove
	if capture && n.captured[mover] >= n.threshold() {
		n.finish(n.seatOf(mover), "capture-threshold")
		return
	}
	k := n.key()
	seen := 1
	for _, h := range n.history {
		if h == k {
			seen++
		}
	}
	n.history = append(n.history, k)
	if n.rules.Repetition > 0 && seen >= n.rules.Repetition {
		n.finish(games.NoPlayer, "repetition")
		return
	}
	if n.plies >= n.rules.MaxPlies {
		n.finish(games.NoPlayer, "max-plies")
		return
	}
	if n.plies == 1 && *n.rules.PieRule {
		n.pieDue = true
		return
	}
	n.afterTurnStart()
}

func (n *naiveGame) afterTurnStart() {
	if len(n.movesOf(n.toMove)) > 0 {
		return
	}
	if n.rules.NoMoves == NoMovesDraw {
		n.finish(games.NoPlayer, "no-legal-move")
	} else {
		n.finish(n.seatOf(1-n.toMove), "no-legal-move")
	}
}

func (n *naiveGame) finish(w games.Player, reason string) {
	n.over, n.winner, n.reason = true, w, reason
}

func (n *naiveGame) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	ms := n.moves()
	if depth == 1 {
		return uint64(len(ms))
	}
	var total uint64
	for _, m := range ms {
		c := n.clone()
		c.apply(m)
		total += c.perft(depth - 1)
	}
	return total
}

func (n *naiveGame) moveTexts() []string {
	var out []string
	for _, m := range n.moves() {
		out = append(out, m.text)
	}
	slices.Sort(out)
	return out
}

func (n *naiveGame) find(text string) (naiveMove, bool) {
	for _, m := range n.moves() {
		if m.text == text {
			return m, true
		}
	}
	return naiveMove{}, false
}
