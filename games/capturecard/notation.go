package capturecard

import (
	"fmt"
	"strconv"
	"strings"

	"playtest/games"
)

// Notation
//
// Squares are a1…e4 (column letter, row number; a1 is row 0, column 0).
// Cards are their rank and suit letter: 10s Js Qh Kd Ac (spades, hearts,
// diamonds, clubs). Pieces are S, M, L. Decisions are written:
//
//	deal:Qh       chance: the next square of the layout gets the Q of hearts
//	draw:7        chance: a 7 is drawn (draw:joker: a Joker, kept)
//	joker         play a saved Joker; nojoker: keep it
//	enter:S@a1    Enter a Small on a1 (with an 8 or 9)
//	lock:b2       Lock: the piece on b2 becomes a Large (with a 2)
//	shift:b2-c3   Shift the Large on b2 to c3 (with a 5)
//	b2-c3         one step of a Move: the piece on b2 steps towards c3 (a
//	              jump lands one card further)
//	stop          end the Move (with no step: do nothing)

const (
	suitLetters = "shdc"
	sizeLetters = "SML"
)

var rankNames = [Ranks]string{"10", "J", "Q", "K", "A"}

// CardName writes a court card (suit*5 + rank).
func CardName(card int) string { return string(appendCard(nil, card)) }

// appendCard appends a court card's name.
func appendCard(b []byte, card int) []byte {
	return append(append(b, rankNames[card%Ranks]...), suitLetters[card/Ranks])
}

func squareName(sq int) string { return string(appendSquare(nil, sq)) }

// appendSquare appends a square's name.
func appendSquare(b []byte, sq int) []byte {
	return strconv.AppendInt(append(b, byte('a'+sq%Cols)), int64(sq/Cols+1), 10)
}

func parseSquare(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] >= 'a'+Cols || s[1] < '1' || s[1] >= '1'+Rows {
		return 0, false
	}
	return int(s[1]-'1')*Cols + int(s[0]-'a'), true
}

// MoveString writes a decision in the notation above.
func (s *State) MoveString(m games.Move) string { return string(s.AppendMove(nil, m)) }

// AppendMove appends the decision's notation to b, allocating nothing
// when b has room (implements games.MoveAppender).
func (s *State) AppendMove(b []byte, m games.Move) []byte {
	kind, a, c := decode(m)
	switch kind {
	case kindDeal:
		return appendCard(append(b, "deal:"...), a)
	case kindDraw:
		if a == joker {
			return append(b, "draw:joker"...)
		}
		return strconv.AppendInt(append(b, "draw:"...), int64(a), 10)
	case kindJoker:
		return append(b, "joker"...)
	case kindNoJoker:
		return append(b, "nojoker"...)
	case kindEnter:
		return appendSquare(append(append(b, "enter:"...), sizeLetters[a], '@'), c)
	case kindLock:
		return appendSquare(append(b, "lock:"...), a)
	case kindShift:
		b = appendSquare(append(b, "shift:"...), a)
		return appendSquare(append(b, '-'), int(neighbour[a][c]))
	case kindStep:
		return appendSquare(append(appendSquare(b, a), '-'), int(neighbour[a][c]))
	case kindStop:
		return append(b, "stop"...)
	}
	return fmt.Appendf(b, "?%#x", int32(m))
}

// ParseMove reads a legal decision, or a possible chance outcome, of the
// current state.
func (s *State) ParseMove(text string) (games.Move, error) {
	var candidates []games.Move
	if s.CurrentPlayer() == games.Chance {
		for _, o := range s.ChanceOutcomes(nil) {
			candidates = append(candidates, o.Move)
		}
	} else {
		candidates = s.LegalMoves(nil)
	}
	text = strings.TrimSpace(text)
	for _, m := range candidates {
		if s.MoveString(m) == text {
			return m, nil
		}
	}
	return 0, fmt.Errorf("capturecard: %q is not a legal decision now", text)
}

// String draws the layout with the pieces (0S is seat 0's Small), the
// reserves, saved Jokers, protection and the deck.
func (s *State) String() string {
	var b strings.Builder
	for r := Rows - 1; r >= 0; r-- {
		b.WriteString(strconv.Itoa(r + 1))
		b.WriteByte(' ')
		for c := range Cols {
			sq := r*Cols + c
			card := "??"
			if s.layout[sq] >= 0 {
				card = CardName(int(s.layout[sq]))
			}
			b.WriteString("    "[:1+max(0, 3-len(card))]) // " %3s"
			b.WriteString(card)
			if o := s.owner[sq]; o >= 0 {
				b.WriteByte(' ')
				b.WriteByte(byte('0' + o))
				b.WriteByte(sizeLetters[s.size[sq]])
			} else {
				b.WriteString(" ..")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("    a       b       c       d       e\n")
	for seat := range 2 {
		r := s.reserve[seat]
		fmt.Fprintf(&b, "seat%d reserve S%d M%d L%d, on board %d, jokers %d", seat, r[Small], r[Medium], r[Large], s.onBoard[seat], s.held[seat])
		if s.protect[seat] > 0 {
			fmt.Fprintf(&b, ", protected for %d more turns", s.protect[seat])
		}
		b.WriteByte('\n')
	}
	deck, discard := 0, 0
	for v := range s.deck {
		deck += int(s.deck[v])
		discard += int(s.discard[v])
	}
	fmt.Fprintf(&b, "deck %d, discard %d, turn %d: ", deck, discard, s.turns+1)
	switch s.phase {
	case phaseLayout:
		b.WriteString("dealing the layout\n")
	case phaseJoker:
		fmt.Fprintf(&b, "%v may play a Joker\n", s.toMove)
	case phaseDraw:
		fmt.Fprintf(&b, "%v draws\n", s.toMove)
	case phaseAction:
		fmt.Fprintf(&b, "%v acts with a %d\n", s.toMove, s.card)
	case phaseMove:
		fmt.Fprintf(&b, "%v moves, %d points left\n", s.toMove, s.points)
	case phaseOver:
		fmt.Fprintf(&b, "over: %v (%s)\n", s.winner, s.reason)
	}
	return b.String()
}

// layoutString lists the layout's cards row by row from a1.
func (s *State) layoutString() string {
	var b strings.Builder
	for sq := range Cards {
		if sq > 0 {
			b.WriteByte(' ')
			if sq%Cols == 0 {
				b.WriteString("| ")
			}
		}
		b.WriteString(CardName(int(s.layout[sq])))
	}
	return b.String()
}
