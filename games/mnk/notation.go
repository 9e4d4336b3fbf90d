package mnk

import (
	"fmt"
	"strconv"
	"strings"

	"playtest/games"
	"playtest/games/inarow"
)

// Notation: a move is its cell, chess-style — a column letter from a,
// then a row number from 1 at the bottom: "b2" is the centre of a 3 × 3
// board.

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
	cols := s.g.rules.Cols
	return strconv.AppendInt(append(b, byte('a'+int(m)%cols)), int64(int(m)/cols+1), 10)
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
		return 0, fmt.Errorf("mnk: %q: seat 1 decides keep or swap now (the pie rule)", text)
	}
	if len(text) < 2 {
		return 0, fmt.Errorf("mnk: cannot read move %q (want a cell such as b2)", text)
	}
	col := int(text[0] - 'a')
	row, err := strconv.Atoi(text[1:])
	if err != nil || col < 0 || col >= s.g.rules.Cols || row < 1 || row > s.g.rules.Rows {
		return 0, fmt.Errorf("mnk: %q is not a cell of the %d × %d board", text, s.g.rules.Rows, s.g.rules.Cols)
	}
	m := games.Move(s.g.Cell(row-1, col))
	if s.IsTerminal() || s.Occupied()&(1<<uint(m)) != 0 {
		return 0, fmt.Errorf("mnk: %s is not a legal move now", text)
	}
	return m, nil
}
