package stacktics

import (
	"fmt"
	"strconv"
	"strings"

	"playtest/games"
)

// Move notation
//
// A move is written <from><unit><sep><to>, e.g. "b1LMS-b2", "c1MS-c3",
// "d1Sxb3":
//
//   - from and to are squares, chess-style: column letter from a, row number
//     from 1, so (row 0, col 0) is a1 and row 1 is army A's home row;
//   - unit lists the moving pieces from the base up (L Large, M Medium,
//     S Small); since a stack is always Larges, then Mediums, then Smalls,
//     the unit names the base uniquely;
//   - sep is "x" for a capture and "-" otherwise (to an empty square or onto
//     one of the mover's own stacks).
//
// The pie-rule decisions are "keep" and "swap". ParseMove accepts either
// separator and checks that the move is legal.

// SquareName writes a square chess-style.
func (g *Game) SquareName(sq int) string { return string(appendSquare(nil, sq)) }

// ParseSquare reads a square written chess-style.
func (g *Game) ParseSquare(text string) (int, error) {
	if len(text) < 2 {
		return 0, fmt.Errorf("bad square %q", text)
	}
	col := int(text[0] - 'a')
	row, err := strconv.Atoi(text[1:])
	if err != nil || col < 0 || col >= g.cols || row < 1 || row > g.rows {
		return 0, fmt.Errorf("square %q is not on the %d×%d board", text, g.rows, g.cols)
	}
	return g.square(row-1, col), nil
}

func pieceLetters(c cell) string { return string(appendPieces(nil, c)) }

// MoveString writes a move in the notation above.
func (s *State) MoveString(m games.Move) string { return string(s.AppendMove(nil, m)) }

// AppendMove appends the move's notation to b, allocating nothing when b
// has room (implements games.MoveAppender).
func (s *State) AppendMove(b []byte, m games.Move) []byte {
	switch m {
	case moveKeep:
		return append(b, "keep"...)
	case moveSwap:
		return append(b, "swap"...)
	}
	from, to, k := decode(m)
	src := s.board[from]
	if src == 0 {
		b = appendSquare(append(b, '?'), from)
		return appendSquare(append(b, '-'), to)
	}
	unit, _ := src.unit(k)
	b = appendPieces(appendSquare(b, from), unit)
	sep := byte('-')
	if dst := s.board[to]; dst != 0 && dst.owner() != src.owner() {
		sep = 'x'
	}
	return appendSquare(append(b, sep), to)
}

// appendSquare appends a square's name, chess-style.
func appendSquare(b []byte, sq int) []byte {
	return strconv.AppendInt(append(b, byte('a'+sq%8)), int64(sq/8+1), 10)
}

// appendPieces appends a stack's pieces, largest first: "LMS".
func appendPieces(b []byte, c cell) []byte {
	for range c.larges() {
		b = append(b, 'L')
	}
	for range c.mediums() {
		b = append(b, 'M')
	}
	for range c.smalls() {
		b = append(b, 'S')
	}
	return b
}

// ParseMove reads a legal move of the current position.
func (s *State) ParseMove(text string) (games.Move, error) {
	text = strings.TrimSpace(text)
	var m games.Move
	switch text {
	case "keep":
		m = moveKeep
	case "swap":
		m = moveSwap
	default:
		if len(text) < 2 {
			return 0, fmt.Errorf("move %q: want <from><pieces>-<to>, e.g. b1MS-b3", text)
		}
		i := 1
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		from, err := s.g.ParseSquare(text[:i])
		if err != nil {
			return 0, fmt.Errorf("move %q: %v", text, err)
		}
		j := i
		for j < len(text) && strings.IndexByte("LMS", text[j]) >= 0 {
			j++
		}
		if j == len(text) || (text[j] != '-' && text[j] != 'x') {
			return 0, fmt.Errorf("move %q: want <from><pieces>-<to>, e.g. b1MS-b3", text)
		}
		to, err := s.g.ParseSquare(text[j+1:])
		if err != nil {
			return 0, fmt.Errorf("move %q: %v", text, err)
		}
		src := s.board[from]
		h := src.height()
		units := text[i:j]
		k := h - len(units)
		if src == 0 || k < 0 {
			return 0, fmt.Errorf("move %q: no such unit on %s", text, text[:i])
		}
		if unit, _ := src.unit(k); pieceLetters(unit) != units {
			return 0, fmt.Errorf("move %q: no such unit on %s", text, text[:i])
		}
		m = encode(from, to, k)
	}
	var buf [1024]games.Move
	for _, legal := range s.LegalMoves(buf[:0]) {
		if legal == m {
			return m, nil
		}
	}
	return 0, fmt.Errorf("move %q is not legal here", text)
}

// String draws the board, last row on top, with the pips captured and whose
// turn it is. A stack is shown as its army and its pieces from the bottom
// up, e.g. "A:LMS".
func (s *State) String() string {
	g := s.g
	width := 2
	for _, c := range s.board {
		if c != 0 {
			width = max(width, 2+c.height())
		}
	}
	var b strings.Builder
	for row := g.rows - 1; row >= 0; row-- {
		fmt.Fprintf(&b, "%2d ", row+1)
		for col := range g.cols {
			text := "."
			if c := s.board[g.square(row, col)]; c != 0 {
				text = armyName(c.owner()) + ":" + pieceLetters(c)
			}
			fmt.Fprintf(&b, " %-*s", width, text)
		}
		b.WriteByte('\n')
	}
	b.WriteString("   ")
	for col := range g.cols {
		fmt.Fprintf(&b, " %-*s", width, string(rune('a'+col)))
	}
	fmt.Fprintf(&b, "\ncaptured: A %d, B %d (win at %d); ", s.captured[ArmyA], s.captured[ArmyB], g.threshold)
	switch s.phase {
	case phaseOver:
		fmt.Fprintf(&b, "over: %s (%s)", s.winner, s.reason)
	case phasePie:
		b.WriteString("seat1 to keep or swap")
	default:
		fmt.Fprintf(&b, "army %s (%s) to move", armyName(int(s.toMove)), s.CurrentPlayer())
	}
	b.WriteByte('\n')
	return b.String()
}

// Position notation
//
// A position is written as space-separated tokens: "<square>=<army><pieces>"
// for every stack (e.g. "b1=ALMS c3=BS"), then optionally "turn=A|B",
// "captured=<by A>/<by B>" and "plies=N". Lost pieces are inferred: every
// piece of an army that is not on the board counts as lost. Position and
// PositionString translate it; tests use it to set up positions.

// Position builds a state from position notation. The pie decision, if any,
// is taken as already made (kept).
func (g *Game) Position(text string) (*State, error) {
	s := g.Start()
	s.board = [MaxSquares]cell{}
	s.occ = [2]uint64{}
	s.tops = [4]uint64{}
	s.bottoms = [4]uint64{}
	s.slots = [MaxSquares]uint16{}
	s.slotSum = [2]int32{}
	s.hash = 0
	s.pie = -1
	explicitCaptured := false
	for _, tok := range strings.Fields(text) {
		key, val, ok := strings.Cut(tok, "=")
		if !ok {
			return nil, fmt.Errorf("position token %q: want key=value", tok)
		}
		switch key {
		case "turn":
			switch val {
			case "A":
				s.toMove = ArmyA
			case "B":
				s.toMove = ArmyB
			default:
				return nil, fmt.Errorf("turn=%s: want A or B", val)
			}
		case "captured":
			a, b, ok := strings.Cut(val, "/")
			ca, err1 := strconv.Atoi(a)
			cb, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("captured=%s: want <pips by A>/<pips by B>", val)
			}
			s.captured = [2]int16{int16(ca), int16(cb)}
			explicitCaptured = true
		case "plies":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("plies=%s: want a count", val)
			}
			s.plies = int32(n)
		default:
			sq, err := g.ParseSquare(key)
			if err != nil {
				return nil, err
			}
			if s.board[sq] != 0 {
				return nil, fmt.Errorf("square %s is given twice", key)
			}
			if len(val) < 2 || (val[0] != 'A' && val[0] != 'B') {
				return nil, fmt.Errorf("%s: want <army><pieces>, e.g. ALMS", tok)
			}
			var n [4]int
			last := Large
			for _, r := range val[1:] {
				p := strings.IndexRune(" SML", r)
				if p <= 0 || p > last {
					return nil, fmt.Errorf("%s: pieces go Larges, Mediums, Smalls from the bottom up", tok)
				}
				last = p
				n[p]++
			}
			s.setCell(sq, makeCell(int(val[0]-'A'), n[Large], n[Medium], n[Small]))
		}
	}
	size := g.rules.Size
	for _, c := range s.board {
		if c != 0 {
			s.lost[c.owner()][Large] -= int8(c.larges())
			s.lost[c.owner()][Medium] -= int8(c.mediums())
			s.lost[c.owner()][Small] -= int8(c.smalls())
		}
	}
	var lostPips [2]int
	for army := range 2 {
		for p := Small; p <= Large; p++ {
			s.lost[army][p] += int8(size)
			if s.lost[army][p] < 0 {
				return nil, fmt.Errorf("army %s has more than %d pieces of size %d", armyName(army), size, p)
			}
			lostPips[army] += p * int(s.lost[army][p])
		}
	}
	if !explicitCaptured {
		s.captured = [2]int16{int16(lostPips[ArmyB]), int16(lostPips[ArmyA])}
	}
	if s.toMove == ArmyB {
		s.hash ^= sideKey
	}
	s.hist = append(s.hist[:0], s.hash)
	s.seen = [bloomWords]uint64{}
	s.remember(s.hash)
	if s.captured[ArmyA]+s.captured[ArmyB] > 0 {
		s.captures = 1
		s.firstCapturer = -1
	}
	s.classifyPastLosses()
	if err := s.CheckInvariants(); err != nil {
		return nil, err
	}
	s.checkNoMoves()
	return s, nil
}

// PositionString writes the position in position notation.
func (s *State) PositionString() string {
	var parts []string
	for sq, c := range s.board {
		if c != 0 {
			parts = append(parts, s.g.SquareName(sq)+"="+armyName(c.owner())+pieceLetters(c))
		}
	}
	parts = append(parts,
		"turn="+armyName(int(s.toMove)),
		fmt.Sprintf("captured=%d/%d", s.captured[ArmyA], s.captured[ArmyB]),
		fmt.Sprintf("plies=%d", s.plies))
	return strings.Join(parts, " ")
}
