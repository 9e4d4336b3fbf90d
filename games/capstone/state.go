package capstone

import (
	"fmt"
	"math/bits"
	"strings"

	"playtest/games"
	"playtest/games/pcg"
)

// phase is the step a state waits for.
type phase uint8

const (
	phaseDraw  phase = iota // chance: the drawer draws one Small from the bag
	phaseOrder              // goal_order bot: the drawer picks its goal's next piece, top first
	phasePlace              // turn step 1: place a Medium or Large
	phaseMove               // turn step 2: move a top piece, or stop
	phaseCap                // turn step 3: move a capstone
	phaseOver
)

// stack is one stack: its pieces' colours from the bottom up and the
// capstone on top (-1: none).
type stack struct {
	n      uint8
	cap    int8
	colors [MaxHeight]uint8
	// by1 has bit j set when the piece at height j was put there (placed
	// or moved) by seat 1, clear by seat 0: what the seats' moves showed,
	// the evidence of their goals (inference.go).
	by1 uint8
}

// State is a Capstone position. Everything is in fixed arrays: a clone is a
// struct copy.
type State struct {
	g      *Game
	stacks [MaxStacks]stack
	// The stacks as bit sets, kept with them (checked by the invariants):
	// those holding a piece, those at stack_height and those capped.
	filled, full, capped uint16
	stash                [2][MaxColors]uint8 // [Large|Medium][colour]
	// stashColors[size] has a bit for each colour left in the stash.
	stashColors [2]uint16
	capAt       [MaxCapstones]int8 // stack holding each capstone, -1 in the stash
	bag         [MaxColors]uint8   // Smalls left in the bag
	// goal[seat] lists the goal stack top to bottom; goalLen is how much of
	// it is known to its owner so far (complete once the setup is done).
	goal    [2][MaxGoal]uint8
	goalLen [2]uint8
	// drawn counts the Smalls of the current draw (not yet stacked).
	drawn      [MaxColors]uint8
	drawnN     uint8
	drawer     games.Player
	phase      phase
	toMove     games.Player
	placed     int8 // stack that received this turn's placement
	movedColor int8
	turns      int32
	// Results, set when the game ends.
	winner     games.Player
	reason     string
	score      [2]int16
	perfect    [2]int8
	fullStacks int8
}

// Move encoding: kind<<16 | a<<8 | b.
const (
	kindDraw  = 1 // a: colour
	kindOrder = 2 // a: colour
	kindPlace = 3 // a: colour, b: stack
	kindMove  = 4 // a: source, b: destination
	kindStop  = 5
	kindCap   = 6 // a: capstone, b: destination
)

func encode(kind, a, b int) games.Move { return games.Move(kind<<16 | a<<8 | b) }

func decode(m games.Move) (kind, a, b int) { return int(m >> 16), int(m >> 8 & 255), int(m & 255) }

// CurrentPlayer returns who decides: Chance during the draws, the drawer
// while it orders its goal, then the player whose turn it is.
func (s *State) CurrentPlayer() games.Player {
	switch s.phase {
	case phaseDraw:
		return games.Chance
	case phaseOrder:
		return s.drawer
	case phaseOver:
		return games.Terminal
	}
	return s.toMove
}

// InSetup reports whether the goals are still being drawn or ordered: a
// goal's order (goal_order bot) is a setup decision, not the opening.
func (s *State) InSetup() bool { return s.phase == phaseDraw || s.phase == phaseOrder }

// IsTerminal reports whether the game has ended.
// Occupied returns the stacks holding a piece (implements games.Coverer:
// a stack is a cell of the board).
func (s *State) Occupied() uint64 { return uint64(s.filled) }

// Cells is the number of stacks.
func (s *State) Cells() int { return s.g.stacks }

func (s *State) IsTerminal() bool { return s.phase == phaseOver }

// Result returns how the game ended.
func (s *State) Result() games.Result { return games.Result{Winner: s.winner, Reason: s.reason} }

// Plies returns the number of completed turns.
func (s *State) Plies() int { return int(s.turns) }

// Clone returns an independent copy.
func (s *State) Clone() games.State { c := *s; return &c }

// CopyFrom makes s a copy of src.
func (s *State) CopyFrom(src games.State) { *s = *src.(*State) }

// ChanceOutcomes lists the colours the drawer may draw, weighted by how many
// of each are left in the bag.
func (s *State) ChanceOutcomes(buf []games.ChanceOutcome) []games.ChanceOutcome {
	if s.phase != phaseDraw {
		return buf
	}
	for c := range s.g.rules.Colors {
		if s.bag[c] > 0 {
			buf = append(buf, games.ChanceOutcome{Move: encode(kindDraw, c, 0), Weight: int(s.bag[c])})
		}
	}
	return buf
}

// LegalMoves appends the current player's legal decisions.
func (s *State) LegalMoves(buf []games.Move) []games.Move {
	switch s.phase {
	case phaseOrder:
		for cs := s.drawnColors(); cs != 0; cs &= cs - 1 {
			buf = append(buf, encode(kindOrder, bits.TrailingZeros16(cs), 0))
		}
	case phasePlace:
		buf = s.appendPlacements(buf)
	case phaseMove:
		buf = append(buf, encode(kindStop, 0, 0))
		buf = s.appendMoves(buf)
	case phaseCap:
		buf = s.appendCapstoneMoves(buf)
	}
	return buf
}

// openStacks returns the stacks that can receive a piece: room and no
// capstone.
func (s *State) openStacks() uint16 { return s.g.allStacks &^ (s.full | s.capped) }

// moveSources returns the stacks whose top piece may move in step 2:
// uncapped, not empty, and not the one just placed on.
func (s *State) moveSources() uint16 {
	src := s.filled &^ s.capped
	if s.placed >= 0 {
		src &^= 1 << s.placed
	}
	return src
}

// moveTargets returns the stacks the top piece of src may move to: the
// other open stacks of its size.
func (s *State) moveTargets(src int, open uint16) uint16 {
	return open & s.g.sameSize[src] &^ (1 << src)
}

// appendMoves appends the step-2 moves: a top piece to another stack of its
// size, from an uncapped stack other than the one just placed on.
func (s *State) appendMoves(buf []games.Move) []games.Move {
	open := s.openStacks()
	for srcs := s.moveSources(); srcs != 0; srcs &= srcs - 1 {
		src := bits.TrailingZeros16(srcs)
		for dsts := s.moveTargets(src, open); dsts != 0; dsts &= dsts - 1 {
			buf = append(buf, encode(kindMove, src, bits.TrailingZeros16(dsts)))
		}
	}
	return buf
}

// drawnColors returns the colours of the current draw the drawer may put
// next in its goal.
func (s *State) drawnColors() uint16 {
	var colors uint16
	for c := range s.g.rules.Colors {
		if s.drawn[c] > 0 {
			colors |= 1 << c
		}
	}
	return colors
}

// movableCaps returns the capstones step 3 may move: the mover's colour's
// with per-colour capstones; else those on stacks and the first in the
// stash (neutral capstones in the stash are one choice).
func (s *State) movableCaps() uint32 {
	if !s.g.neutral {
		return 1 << s.movedColor
	}
	var caps uint32
	stashed := false
	for k := range s.g.caps {
		switch {
		case s.capAt[k] >= 0:
			caps |= 1 << k
		case !stashed:
			stashed = true
			caps |= 1 << k
		}
	}
	return caps
}

// appendCapstoneMoves appends the step-3 capstone moves.
func (s *State) appendCapstoneMoves(buf []games.Move) []games.Move {
	for caps := s.movableCaps(); caps != 0; caps &= caps - 1 {
		buf = s.appendCapstone(buf, bits.TrailingZeros32(caps))
	}
	return buf
}

// appendCapstone appends the moves of capstone k: from the stash to any
// uncapped stack, or from its stack to a different uncapped stack.
func (s *State) appendCapstone(buf []games.Move, k int) []games.Move {
	for dsts := s.g.allStacks &^ s.capped; dsts != 0; dsts &= dsts - 1 {
		buf = append(buf, encode(kindCap, k, bits.TrailingZeros16(dsts)))
	}
	return buf
}

// appendPlacements appends the step-1 placements: every colour of the
// stash onto every open stack of its size.
func (s *State) appendPlacements(buf []games.Move) []games.Move {
	for open := s.openStacks(); open != 0; open &= open - 1 {
		st := bits.TrailingZeros16(open)
		for cs := s.stashColors[s.g.sizeOf(st)]; cs != 0; cs &= cs - 1 {
			buf = append(buf, encode(kindPlace, bits.TrailingZeros16(cs), st))
		}
	}
	return buf
}

// canPlace reports whether any piece of the stash fits on any stack.
func (s *State) canPlace() bool {
	open := s.openStacks()
	g := s.g
	return open&g.sameSize[0] != 0 && s.stashColors[g.sizeOf(0)] != 0 ||
		open&g.sameSize[g.n] != 0 && s.stashColors[g.sizeOf(g.n)] != 0
}

// canMove reports whether step 2 has any move.
func (s *State) canMove() bool {
	open := s.openStacks()
	for srcs := s.moveSources(); srcs != 0; srcs &= srcs - 1 {
		if s.moveTargets(bits.TrailingZeros16(srcs), open) != 0 {
			return true
		}
	}
	return false
}

// Apply plays a legal decision or chance outcome.
func (s *State) Apply(m games.Move) {
	kind, a, b := decode(m)
	switch kind {
	case kindDraw:
		s.bag[a]--
		s.drawn[a]++
		if s.g.rules.GoalOrder == GoalOrderRandom {
			// Drawing one at a time makes the order of the draw a uniformly
			// random order of the drawn Smalls: it is the stacking order.
			s.goal[s.drawer][s.drawnN] = uint8(a)
		}
		s.drawnN++
		if int(s.drawnN) < s.g.rules.GoalSize {
			return
		}
		for c := range s.g.rules.Colors {
			if int(s.drawn[c]) > s.g.rules.GoalMaxPerColor {
				s.redraw()
				return
			}
		}
		if s.g.rules.GoalOrder == GoalOrderBot {
			s.phase = phaseOrder
			return
		}
		s.drawn = [MaxColors]uint8{}
		s.goalLen[s.drawer] = uint8(s.g.rules.GoalSize)
		s.goalDone()
	case kindOrder:
		s.goal[s.drawer][s.goalLen[s.drawer]] = uint8(a)
		s.goalLen[s.drawer]++
		s.drawn[a]--
		if int(s.goalLen[s.drawer]) == s.g.rules.GoalSize {
			s.goalDone()
		}
	case kindPlace:
		st := &s.stacks[b]
		st.colors[st.n] = uint8(a)
		st.by1 = st.by1&^(1<<st.n) | uint8(s.toMove)<<st.n
		st.n++
		s.grew(b)
		size := s.g.sizeOf(b)
		if s.stash[size][a]--; s.stash[size][a] == 0 {
			s.stashColors[size] &^= 1 << a
		}
		s.placed = int8(b)
		if s.canMove() {
			s.phase = phaseMove
		} else {
			s.endTurn()
		}
	case kindStop:
		s.endTurn()
	case kindMove:
		src, dst := &s.stacks[a], &s.stacks[b]
		src.n--
		src.by1 &^= 1 << src.n
		color := src.colors[src.n]
		dst.colors[dst.n] = color
		dst.by1 = dst.by1&^(1<<dst.n) | uint8(s.toMove)<<dst.n
		dst.n++
		s.full &^= 1 << a
		if src.n == 0 {
			s.filled &^= 1 << a
		}
		s.grew(b)
		s.movedColor = int8(color)
		s.phase = phaseCap
	case kindCap:
		if from := s.capAt[a]; from >= 0 {
			s.stacks[from].cap = -1
			s.capped &^= 1 << from
		}
		s.stacks[b].cap = int8(a)
		s.capped |= 1 << b
		s.capAt[a] = int8(b)
		s.endTurn()
	default:
		panic(fmt.Sprintf("capstone: bad move %#x", m))
	}
}

// grew updates the stack bit sets after stack st took a piece.
func (s *State) grew(st int) {
	s.filled |= 1 << st
	if int(s.stacks[st].n) == s.g.rules.StackHeight {
		s.full |= 1 << st
	}
}

// stackSets returns the stack bit sets and stash colours as the stacks
// and stash are (what Apply keeps).
func (s *State) stackSets() (filled, full, capped uint16, stashColors [2]uint16) {
	for st := range s.g.stacks {
		bit := uint16(1) << st
		if s.stacks[st].n > 0 {
			filled |= bit
		}
		if int(s.stacks[st].n) == s.g.rules.StackHeight {
			full |= bit
		}
		if s.stacks[st].cap >= 0 {
			capped |= bit
		}
	}
	for size := range stashColors {
		for c := range s.g.rules.Colors {
			if s.stash[size][c] > 0 {
				stashColors[size] |= 1 << c
			}
		}
	}
	return filled, full, capped, stashColors
}

// syncSets recomputes the stack bit sets and stash colours from the stacks
// and stash, for positions set up by hand.
func (s *State) syncSets() {
	s.filled, s.full, s.capped, s.stashColors = s.stackSets()
}

// redraw returns the current draw to the bag.
func (s *State) redraw() {
	for c := range s.g.rules.Colors {
		s.bag[c] += s.drawn[c]
	}
	s.drawn = [MaxColors]uint8{}
	s.drawnN = 0
}

// goalDone moves on from a completed goal: seat 0 draws next, then seat 0
// plays first.
func (s *State) goalDone() {
	s.drawnN = 0
	if s.drawer == games.Seat1 {
		s.drawer = games.Seat0
		s.phase = phaseDraw
		return
	}
	s.toMove = games.Seat0
	s.startTurn()
}

func (s *State) endTurn() {
	s.turns++
	s.placed = -1
	s.toMove = s.toMove.Opponent()
	s.startTurn()
}

// startTurn ends the game when no placement is possible, and otherwise
// waits for one.
func (s *State) startTurn() {
	if !s.canPlace() {
		s.finish()
		return
	}
	s.phase = phasePlace
}

// finish scores the game: capstones are ignored, only full stacks count;
// each position (top to bottom) matching a player's goal scores 1, and a
// stack matching every compared position scores perfect_bonus more.
func (s *State) finish() {
	r := &s.g.rules
	s.phase = phaseOver
	for st := range s.g.stacks {
		if int(s.stacks[st].n) != r.StackHeight {
			continue
		}
		s.fullStacks++
		for seat := range 2 {
			pts, perfect := s.match(st, games.Player(seat))
			s.score[seat] += int16(pts)
			if perfect {
				s.score[seat] += int16(r.PerfectBonus)
				s.perfect[seat]++
			}
		}
	}
	switch {
	case s.score[0] != s.score[1]:
		s.winner, s.reason = better(s.score[0], s.score[1]), "score"
	case s.perfect[0] != s.perfect[1]:
		s.winner, s.reason = better(int16(s.perfect[0]), int16(s.perfect[1])), "tiebreak-perfect-stacks"
	default:
		s.winner, s.reason = games.NoPlayer, "tie"
	}
}

func better(a, b int16) games.Player {
	if a > b {
		return games.Seat0
	}
	return games.Seat1
}

// match compares a full stack with a seat's goal, top to bottom, over the
// top min(goal_size, stack_height) positions. With perfect_match
// whole-goal the stack is perfect only if it equals the whole goal, so
// never when the sizes differ; with top, when every compared position
// matches.
func (s *State) match(st int, seat games.Player) (points int, perfect bool) {
	stk := &s.stacks[st]
	h := int(stk.n)
	r := &s.g.rules
	compared := min(r.GoalSize, h)
	for i := range compared {
		if stk.colors[h-1-i] == s.goal[seat][i] {
			points++
		}
	}
	if r.PerfectMatch == PerfectWholeGoal && r.GoalSize != h {
		return points, false
	}
	return points, points == compared
}

// Scores returns the final scores of both seats (zero before the end).
func (s *State) Scores() [2]int { return [2]int{int(s.score[0]), int(s.score[1])} }

// drawSetup plays the goal draws (and, with goal_order bot, a random order)
// from rng: used by perft, which starts after the setup.
func (s *State) drawSetup(rng *pcg.Rand) {
	var outcomes []games.ChanceOutcome
	for s.phase == phaseDraw || s.phase == phaseOrder {
		if s.phase == phaseOrder {
			moves := s.LegalMoves(nil)
			s.Apply(moves[rng.IntN(len(moves))])
			continue
		}
		outcomes = s.ChanceOutcomes(outcomes[:0])
		s.Apply(games.SampleChance(outcomes, rng))
	}
}

func seedRand(seed uint64) *pcg.Rand { return pcg.New(seed, 0x6361707374) }

// Colour letters: red, green, blue, yellow, black (k), white, purple,
// orange.
const colorLetters = "rgbykwpo"

func (s *State) goalString(seat games.Player) string {
	var b strings.Builder
	for i := range s.goalLen[seat] {
		b.WriteByte(colorLetters[s.goal[seat][i]])
	}
	return b.String()
}

// ChanceFor names the seat a pending draw is for: the seat drawing its goal
// (games.ChanceOwner).
func (s *State) ChanceFor() games.Player {
	if s.CurrentPlayer() != games.Chance {
		return games.NoPlayer
	}
	return s.drawer
}
