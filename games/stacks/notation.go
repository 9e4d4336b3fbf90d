package stacks

import (
	"fmt"
	"strconv"
	"strings"

	"playtest/games"
)

// Notation
//
// Squares are written chess-style (column letter, row number: a1 is row 0,
// column 0). Decisions are written:
//
//	2:b1-f1     a 2-card moving the stack on b1 to f1
//	4:pass      a 4-card played without a move (−4, or −5 for a 4-card
//	            with four_card_moves)
//	draw:3      chance: a 3-card drawn from the stock of the seat drawing

// MoveString writes a decision in the notation above.
func (s *State) MoveString(m games.Move) string { return string(s.AppendMove(nil, m)) }

// AppendMove appends the decision's notation to b, allocating nothing
// when b has room (implements games.MoveAppender).
func (s *State) AppendMove(b []byte, m games.Move) []byte {
	kind, v, src, dst := decode(m)
	switch {
	case kind == kindDraw:
		return strconv.AppendInt(append(b, "draw:"...), int64(v), 10)
	case kind == kindPlay && src == noSquare:
		return append(strconv.AppendInt(b, int64(v), 10), ":pass"...)
	case kind == kindPlay && src < Squares && dst < Squares:
		b = appendSquare(append(strconv.AppendInt(b, int64(v), 10), ':'), src)
		return appendSquare(append(b, '-'), dst)
	}
	return fmt.Appendf(b, "?%#x", int32(m))
}

// ParseMove reads a legal decision (or, at a chance node, a possible draw)
// of the current state.
func (s *State) ParseMove(text string) (games.Move, error) {
	m, ok := parse(strings.TrimSpace(text))
	if !ok {
		return 0, fmt.Errorf("stacks: cannot read move %q (want e.g. 2:b1-f1, 4:pass or draw:3)", text)
	}
	if s.phase == phaseDraw {
		for _, o := range s.ChanceOutcomes(nil) {
			if o.Move == m {
				return m, nil
			}
		}
		return 0, fmt.Errorf("stacks: %q is not a possible draw now", text)
	}
	for _, l := range s.LegalMoves(nil) {
		if l == m {
			return m, nil
		}
	}
	return 0, fmt.Errorf("stacks: %q is not a legal move now", text)
}

func parse(text string) (games.Move, bool) {
	head, tail, ok := strings.Cut(text, ":")
	if !ok {
		return 0, false
	}
	if head == "draw" {
		v, err := strconv.Atoi(tail)
		return encode(kindDraw, v, 0, 0), err == nil && v >= 1 && v <= MaxValue
	}
	v, err := strconv.Atoi(head)
	if err != nil || v < 1 || v > MaxValue {
		return 0, false
	}
	if tail == "pass" {
		return encode(kindPlay, v, noSquare, noSquare), true
	}
	from, to, ok := strings.Cut(tail, "-")
	src, ok1 := parseSquare(from)
	dst, ok2 := parseSquare(to)
	return encode(kindPlay, v, src, dst), ok && ok1 && ok2
}

// String draws the position with both hands and stocks.
func (s *State) String() string { return s.render(games.NoPlayer) }

// ObservationString draws what seat can see: the board, the scores, the
// cards played, its own hand, and the other hand only with open_hands. The
// stocks' contents follow from the cards seen, their order is never shown.
func (s *State) ObservationString(seat games.Player) string { return s.render(seat) }

// render draws the board (row 7 at the top; white squares show their stack
// height or "." when empty) and one line per colour. viewer NoPlayer sees
// everything.
func (s *State) render(viewer games.Player) string {
	var b strings.Builder
	b.WriteString("   a  b  c  d  e  f  g\n")
	for r := Size - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%d ", r+1)
		for c := range Size {
			switch sq := squareOf[r][c]; {
			case sq < 0:
				b.WriteString("   ")
			case s.height[sq] == 0:
				b.WriteString("  .")
			default:
				fmt.Fprintf(&b, "%3d", s.height[sq])
			}
		}
		b.WriteByte('\n')
	}
	names := s.g.Sides()
	for seat := range games.Player(2) {
		fmt.Fprintf(&b, "%-5s score %d", names[seat], s.Scores()[seat])
		if s.g.match {
			fmt.Fprintf(&b, " (this game %d)", s.score[seat])
		}
		b.WriteString(" hand")
		if viewer == games.NoPlayer || viewer == seat || s.g.rules.OpenHands {
			b.WriteString(cardList(&s.hand[seat]))
		} else {
			fmt.Fprintf(&b, " %d hidden", s.handN[seat])
		}
		fmt.Fprintf(&b, " | stock %d", s.stockN[seat])
		if viewer == games.NoPlayer {
			b.WriteString(" (" + strings.TrimSpace(cardList(&s.stock[seat])) + ")")
		}
		b.WriteString(" | played" + cardList(&s.played[seat]))
		if s.played4[seat] {
			b.WriteString(" | backward moves unlocked")
		}
		b.WriteByte('\n')
	}
	if s.g.match {
		fmt.Fprintf(&b, "match: game %d, %s started it\n", s.gamesDone+1, names[s.starter])
	}
	switch s.phase {
	case phaseDraw:
		fmt.Fprintf(&b, "%s draws\n", names[s.drawer])
	case phasePlay:
		fmt.Fprintf(&b, "%s to move\n", names[s.toMove])
	case phaseOver:
		fmt.Fprintf(&b, "over: %s (%s)\n", s.winner, s.reason)
	}
	return b.String()
}

// cardList writes the cards of a count array, lowest first, each preceded
// by a space.
func cardList(counts *[MaxValue + 1]uint8) string {
	var b strings.Builder
	for v := 1; v <= MaxValue; v++ {
		for range counts[v] {
			b.WriteString(" " + strconv.Itoa(v))
		}
	}
	if b.Len() == 0 {
		return " -"
	}
	return b.String()
}
