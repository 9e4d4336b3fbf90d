package games

import (
	"fmt"
	"strings"
)

// LineError is an entry of a line of play (PlayLine) that cannot be
// played where it stands: its index (from 1), its text, and the legal
// choices there.
type LineError struct {
	Index  int
	Entry  string
	Legal  []string
	Reason string // why: "not a legal move here", "the game is over"
}

// maxListedChoices is how many legal choices a LineError names.
const maxListedChoices = 24

func (e *LineError) Error() string { return fmt.Sprintf("entry %d %s", e.Index, e.Detail()) }

// Detail is the error without the entry's index: the entry, why it cannot
// be played, and the legal choices there.
func (e *LineError) Detail() string {
	msg := fmt.Sprintf("%q: %s", e.Entry, e.Reason)
	if len(e.Legal) == 0 {
		return msg
	}
	listed := e.Legal
	more := ""
	if len(listed) > maxListedChoices {
		listed, more = listed[:maxListedChoices], fmt.Sprintf(" and %d more", len(e.Legal)-maxListedChoices)
	}
	return fmt.Sprintf("%s; the legal ones there: %s%s", msg, strings.Join(listed, " "), more)
}

// BadInput marks a LineError as the user's mistake.
func (e *LineError) BadInput() bool { return true }

// PlayLine plays a line of play on s, each entry a move or a chance
// outcome in the game's notation (as playtest replay --moves writes them,
// a chance outcome with or without its brackets; a pie rule's keep or swap
// is an entry of its own), checking each in
// order: an entry that does not parse, is not legal where it stands, or
// comes after the end of the game is a *LineError, s then left after the
// entries before it.
func PlayLine(s State, entries []string) error {
	_, err := PlayLineMoves(s, entries, nil)
	return err
}

// PlayLineMoves is PlayLine that also appends each entry's move (or chance
// outcome) to line, and returns it.
func PlayLineMoves(s State, entries []string, line []Move) ([]Move, error) {
	var moves []Move
	var outcomes []ChanceOutcome
	for i, text := range entries {
		if s.IsTerminal() {
			return line, &LineError{Index: i + 1, Entry: text, Reason: "the game is over before it"}
		}
		moves, outcomes = moves[:0], outcomes[:0]
		var legal []Move
		if s.CurrentPlayer() == Chance {
			outcomes = s.ChanceOutcomes(outcomes)
			for _, o := range outcomes {
				legal = append(legal, o.Move)
			}
		} else {
			moves = s.LegalMoves(moves)
			legal = moves
		}
		if s.CurrentPlayer() == Chance && len(text) > 2 && text[0] == '[' && text[len(text)-1] == ']' {
			text = text[1 : len(text)-1] // as replay --moves brackets it
		}
		m, err := s.ParseMove(text)
		ok := err == nil
		if ok {
			ok = false
			for _, l := range legal {
				if l == m {
					ok = true
					break
				}
			}
		}
		if !ok {
			e := &LineError{Index: i + 1, Entry: text, Reason: "not a legal move here"}
			if s.CurrentPlayer() == Chance {
				e.Reason = "not a chance outcome that can happen here"
			}
			for _, l := range legal {
				e.Legal = append(e.Legal, s.MoveString(l))
			}
			return line, e
		}
		line = append(line, m)
		s.Apply(m)
	}
	return line, nil
}

// SplitLine splits a line of play written as one string at its spaces
// (and commas): "d d c" → [d d c].
func SplitLine(line string) []string {
	return strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
}
