package connect4

import (
	"fmt"
	"strings"

	"playtest/games"
	"playtest/games/inarow"
)

// Notation: a move is its column, a letter from a at the left: "d" is the
// centre column of the standard board; "keep" and "swap" under the pie
// rule.

// MoveString writes a move in the notation above.
func (s *State) MoveString(m games.Move) string { return string(s.AppendMove(nil, m)) }

// AppendMove appends the move's notation to b, allocating nothing when b
// has room (implements games.MoveAppender).
func (s *State) AppendMove(b []byte, m games.Move) []byte {
	switch m {
	case inarow.MoveKeep:
		return append(b, "keep"...)
	case inarow.MoveSwap:
		return append(b, "swap"...)
	}
	return append(b, byte('a'+int(m)))
}

// ParseMove reads a legal move of the current position.
func (s *State) ParseMove(text string) (games.Move, error) {
	text = strings.TrimSpace(text)
	if s.PieDecision() {
		switch text {
		case "keep":
			return inarow.MoveKeep, nil
		case "swap":
			return inarow.MoveSwap, nil
		}
		return 0, fmt.Errorf("connect4: %q: seat 1 decides keep or swap now (the pie rule)", text)
	}
	if len(text) != 1 || text[0] < 'a' || int(text[0]-'a') >= s.g.rules.Cols {
		return 0, fmt.Errorf("connect4: cannot read move %q (want a column, a to %c)", text, 'a'+s.g.rules.Cols-1)
	}
	col := int(text[0] - 'a')
	if s.IsTerminal() || int(s.height[col]) >= s.g.rules.Rows {
		return 0, fmt.Errorf("connect4: column %s is full, or the game is over", text)
	}
	return games.Move(col), nil
}
