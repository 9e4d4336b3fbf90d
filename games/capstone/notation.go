package capstone

import (
	"fmt"
	"strconv"
	"strings"

	"playtest/games"
)

// Notation
//
// Colours are letters: r g b y k w p o (red, green, blue, yellow, black,
// white, purple, orange). Stacks are L1..Ln (Large) and M1..Mn (Medium).
// Decisions are written:
//
//	draw:r      chance: a red Small drawn from the bag for a goal stack
//	goal:r      (goal_order bot) red is the next piece of the goal, top first
//	r@L2        step 1: a red piece placed on L2
//	L2>L4       step 2: the top piece of L2 moved onto L4
//	stop        step 2 skipped (only offered when a move is possible)
//	^M3         step 3: a capstone from the stash onto M3
//	^L1>M3      step 3: the capstone on L1 moved onto M3
//
// With per-colour capstones the capstone is the moved piece's colour; with
// neutral ones it is named by where it stands. A whole turn is its
// decisions separated by spaces, e.g. "r@L2 L2>L4 ^L1>M3" or "b@M1" (when no
// move was possible) or "b@M1 stop".

// StackName writes a stack's name.
func (g *Game) StackName(st int) string { return string(g.appendStack(nil, st)) }

// appendStack appends a stack's name.
func (g *Game) appendStack(b []byte, st int) []byte {
	if st < g.n {
		return strconv.AppendInt(append(b, 'L'), int64(st+1), 10)
	}
	return strconv.AppendInt(append(b, 'M'), int64(st-g.n+1), 10)
}

// MoveString writes a decision in the notation above.
func (s *State) MoveString(m games.Move) string { return string(s.AppendMove(nil, m)) }

// AppendMove appends the decision's notation to b, allocating nothing
// when b has room (implements games.MoveAppender).
func (s *State) AppendMove(b []byte, m games.Move) []byte {
	kind, a, c := decode(m)
	g := s.g
	switch kind {
	case kindDraw:
		return append(append(b, "draw:"...), colorLetters[a])
	case kindOrder:
		return append(append(b, "goal:"...), colorLetters[a])
	case kindPlace:
		return g.appendStack(append(b, colorLetters[a], '@'), c)
	case kindMove:
		return g.appendStack(append(g.appendStack(b, a), '>'), c)
	case kindStop:
		return append(b, "stop"...)
	case kindCap:
		b = append(b, '^')
		if from := s.capAt[a]; from >= 0 {
			b = append(g.appendStack(b, int(from)), '>')
		}
		return g.appendStack(b, c)
	}
	return fmt.Appendf(b, "?%#x", int32(m))
}

// ParseMove reads a decision legal in the current state.
func (s *State) ParseMove(text string) (games.Move, error) {
	text = strings.TrimSpace(text)
	var moves []games.Move
	if s.CurrentPlayer() == games.Chance {
		for _, o := range s.ChanceOutcomes(nil) {
			moves = append(moves, o.Move)
		}
	} else {
		moves = s.LegalMoves(nil)
	}
	for _, m := range moves {
		if s.MoveString(m) == text {
			return m, nil
		}
	}
	return 0, fmt.Errorf("%q is not a legal decision here", text)
}

// FormatTurn writes a whole turn: the decisions one player made from s in a
// row. s is the state before the first of them; it is not modified.
func FormatTurn(s *State, decisions []games.Move) string {
	c := *s
	parts := make([]string, len(decisions))
	for i, m := range decisions {
		parts[i] = c.MoveString(m)
		c.Apply(m)
	}
	return strings.Join(parts, " ")
}

// String draws the whole position, both goals included.
func (s *State) String() string { return s.render(games.NoPlayer) }

// ObservationString draws what seat can see: everything but the other
// seat's goal stack (and so the bag's contents).
func (s *State) ObservationString(seat games.Player) string { return s.render(seat) }

func (s *State) render(viewer games.Player) string {
	g := s.g
	var b strings.Builder
	for st := range g.stacks {
		if st == 0 || st == g.n {
			if st > 0 {
				b.WriteByte('\n')
			}
		} else {
			b.WriteByte(' ')
		}
		stk := &s.stacks[st]
		b.WriteString(g.StackName(st) + "[")
		for i := range stk.n {
			b.WriteByte(colorLetters[stk.colors[i]])
		}
		if stk.cap >= 0 {
			b.WriteString("^")
			if !g.neutral {
				b.WriteByte(colorLetters[stk.cap])
			}
		}
		b.WriteString("]")
	}
	b.WriteString("\nstash L:")
	for size, name := range []string{"L", "M"} {
		if size > 0 {
			b.WriteString(" " + name + ":")
		}
		for c := range g.rules.Colors {
			fmt.Fprintf(&b, " %c%d", colorLetters[c], s.stash[size][c])
		}
	}
	b.WriteString("\ncapstones in the stash:")
	for k := range g.caps {
		if s.capAt[k] < 0 {
			if g.neutral {
				b.WriteString(" ^")
			} else {
				b.WriteString(" ^" + string(colorLetters[k]))
			}
		}
	}
	for seat := range games.Player(2) {
		goal := s.goalString(seat)
		if viewer != games.NoPlayer && seat != viewer {
			goal = strings.Repeat("?", len(goal))
		}
		fmt.Fprintf(&b, "\n%v goal (top first): %s", seat, goal)
	}
	if viewer == games.NoPlayer {
		b.WriteString("\nbag:")
		for c := range g.rules.Colors {
			fmt.Fprintf(&b, " %c%d", colorLetters[c], s.bag[c])
		}
	}
	switch s.phase {
	case phaseDraw:
		fmt.Fprintf(&b, "\n%v drawing its goal (%d drawn)", s.drawer, s.drawnN)
	case phaseOrder:
		fmt.Fprintf(&b, "\n%v ordering its goal", s.drawer)
		if viewer == games.NoPlayer || viewer == s.drawer {
			// The Smalls drawn and not yet stacked: the drawer saw them.
			b.WriteString("; drawn, still to stack:")
			for c := range g.rules.Colors {
				for range s.drawn[c] {
					b.WriteString(" " + string(colorLetters[c]))
				}
			}
		}
	case phaseOver:
		fmt.Fprintf(&b, "\nover after %d turns: %v (%s), scores %d-%d, perfect %d-%d",
			s.turns, s.winner, s.reason, s.score[0], s.score[1], s.perfect[0], s.perfect[1])
	default:
		step := map[phase]string{phasePlace: "place", phaseMove: "move or stop", phaseCap: "move a capstone"}[s.phase]
		fmt.Fprintf(&b, "\nturn %d: %v to %s", s.turns+1, s.toMove, step)
	}
	b.WriteByte('\n')
	return b.String()
}
