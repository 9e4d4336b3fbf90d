package capstone

import (
	"sync"

	"playtest/games"
)

// Game is an immutable Capstone variant. Stacks 0..n−1 are the Large
// stacks L1..Ln, stacks n..2n−1 the Medium stacks M1..Mn.
type Game struct {
	rules   Rules
	n       int // stacks per size
	stacks  int // 2n
	caps    int // capstones in play
	neutral bool
	initial State
	// allStacks has a bit per stack; sameSize[st] the stacks of st's size.
	allStacks uint16
	sameSize  [MaxStacks]uint16
	// validity lists V(bag − g) for every valid goal g, for Determinize;
	// built on first use.
	validity     validities
	validityOnce sync.Once
}

// New builds a game from validated rules.
func New(r Rules) *Game {
	g := &Game{rules: r, n: r.StacksPerSize, stacks: 2 * r.StacksPerSize, caps: r.capstoneCount(),
		neutral: r.Capstones == CapstonesNeutral}
	s := &g.initial
	s.g = g
	s.phase = phaseDraw
	s.drawer = games.Seat1
	s.placed = -1
	s.winner = games.NoPlayer
	for i := range s.stacks {
		s.stacks[i].cap = -1
	}
	for k := range s.capAt {
		s.capAt[k] = -1
	}
	for c := range r.Colors {
		s.stash[Large][c] = uint8(r.PiecesPerColor)
		s.stash[Medium][c] = uint8(r.PiecesPerColor)
		s.bag[c] = uint8(r.BagPerColor)
	}
	g.allStacks = 1<<g.stacks - 1
	for st := range g.stacks {
		g.sameSize[st] = (1<<g.n - 1) << (g.n * g.sizeOf(st))
	}
	s.syncSets()
	return g
}

// Sizes of the board's pieces, indexing State.stash.
const (
	Large  = 0
	Medium = 1
)

// Name returns "capstone".
func (g *Game) Name() string { return Definition.Name }

// Rules returns the variant's rules.
func (g *Game) Rules() Rules { return g.rules }

// NewState returns a game before the goal stacks are drawn.
func (g *Game) NewState() games.State { s := g.initial; return &s }

// MaxLegalMoves bounds the decisions at any state.
func (g *Game) MaxLegalMoves() int {
	place := 2 * g.rules.Colors * g.n
	move := 1 + g.stacks*g.n
	capstone := (g.caps + 1) * g.stacks
	return max(place, move, capstone, MaxColors)
}

// sizeOf returns the piece size of a stack.
func (g *Game) sizeOf(stack int) int {
	if stack < g.n {
		return Large
	}
	return Medium
}

// PerftStart returns the position perft starts from: the empty board with
// the goal stacks drawn from seed's stream (move generation does not depend
// on them), and a line naming the goals.
func (g *Game) PerftStart(seed uint64) (games.State, string) {
	s := g.initial
	s.drawSetup(seedRand(seed))
	return &s, "goals: seat0 " + s.goalString(games.Seat0) + " | seat1 " + s.goalString(games.Seat1)
}

// Reasons declares how a game can end (games.Reasoner): the higher score
// wins, then more perfect stacks; otherwise a tie.
func (g *Game) Reasons() []games.ReasonDoc {
	return []games.ReasonDoc{
		{Name: "score", Outcome: games.Decisive},
		{Name: "tiebreak-perfect-stacks", Outcome: games.Decisive},
		{Name: "tie", Outcome: games.Drawn},
	}
}
