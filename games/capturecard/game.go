package capturecard

import (
	"playtest/games"
	"playtest/games/pcg"
)

// The board is 4 rows × 5 columns of court cards; square row*5 + col, a1
// being row 0, column 0. A card is suit*5 + rank, ranks 10 J Q K A.
const (
	Rows    = 4
	Cols    = 5
	Cards   = Rows * Cols
	Suits   = 4
	Ranks   = 5
	numbers = 32 // the 2–9 of four suits in the draw deck
)

// corners are a1, e1, a4 and e4: the layout deals them first.
var corners = [4]int{0, Cols - 1, (Rows - 1) * Cols, Rows*Cols - 1}

// dealOrder is the order the layout fills squares: corners first, so that
// a deal with four corners of one suit is redealt as soon as it shows.
var dealOrder = func() (order [Cards]int8) {
	n := 0
	for _, c := range corners {
		order[n] = int8(c)
		n++
	}
	for sq := range Cards {
		if !isCorner(sq) {
			order[n] = int8(sq)
			n++
		}
	}
	return order
}()

func isCorner(sq int) bool { return cornerCards>>sq&1 != 0 }

// The 8 directions as (row, col) steps.
var directions = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}

// neighbour[sq][d] is the square one step from sq in direction d, or -1.
var neighbour = func() (n [Cards][8]int8) {
	for sq := range Cards {
		r, c := sq/Cols, sq%Cols
		for d, dir := range directions {
			rr, cc := r+dir[0], c+dir[1]
			n[sq][d] = -1
			if rr >= 0 && rr < Rows && cc >= 0 && cc < Cols {
				n[sq][d] = int8(rr*Cols + cc)
			}
		}
	}
	return n
}()

// beyond[sq][d] is the square two steps from sq in direction d, where a
// jump lands, or -1.
var beyond = func() (b [Cards][8]int8) {
	for sq := range Cards {
		for d, t := range neighbour[sq] {
			b[sq][d] = -1
			if t >= 0 {
				b[sq][d] = neighbour[t][d]
			}
		}
	}
	return b
}()

// neighbourDirs[sq] has a bit for each direction d with a neighbour.
var neighbourDirs = func() (m [Cards]uint8) {
	for sq := range Cards {
		for d, t := range neighbour[sq] {
			if t >= 0 {
				m[sq] |= 1 << d
			}
		}
	}
	return m
}()

// allCards is the set of every card of the layout, cornerCards that of
// the corners.
const (
	allCards    = 1<<Cards - 1
	cornerCards = 1<<0 | 1<<(Cols-1) | 1<<((Rows-1)*Cols) | 1<<(Rows*Cols-1)
)

// A card set's window around sq is its 3×3 block of cards centred on sq:
// the set shifted so that sq is bit windowCentre, each row of the board
// Cols bits above the one before; directions off the board land on cards
// of the wrong row or nowhere and are masked off by neighbourDirs.
const (
	windowCentre = Cols + 1
	windowBits   = 2*Cols + 3
)

// windowDirs maps a window to the directions whose neighbour is in it.
var windowDirs = func() (t [1 << windowBits]uint8) {
	for w := range t {
		for d, dir := range directions {
			if w>>(windowCentre+dir[0]*Cols+dir[1])&1 != 0 {
				t[w] |= 1 << d
			}
		}
	}
	return t
}()

// dirsInto returns the directions from sq whose neighbour is in set.
func dirsInto(set uint32, sq int) uint8 {
	w := uint64(set) << windowCentre >> sq & (1<<windowBits - 1)
	return windowDirs[w] & neighbourDirs[sq]
}

// Game is an immutable Capture the Card variant.
type Game struct {
	rules Rules
	jump  bool
	// gated: passing through opponent pieces needs all four corners
	// occupied (elimination pass-through).
	gated   bool
	initial State
}

// New builds a game from validated rules.
func New(r Rules) *Game {
	g := &Game{rules: r, jump: r.Through == ThroughJump, gated: r.Elimination == EliminationPassThrough}
	s := &g.initial
	s.g = g
	s.winner = games.NoPlayer
	s.phase = phaseLayout
	for sq := range Cards {
		s.layout[sq] = -1
		s.owner[sq] = -1
	}
	for seat := range 2 {
		s.reserve[seat] = [3]uint8{uint8(r.Pieces.Small), uint8(r.Pieces.Medium), uint8(r.Pieces.Large)}
	}
	for v := 2; v <= 9; v++ {
		s.deck[v] = Suits
	}
	s.deck[joker] = uint8(r.Jokers)
	return g
}

// Name returns "capturecard".
func (g *Game) Name() string { return Definition.Name }

// Rules returns the variant's rules.
func (g *Game) Rules() Rules { return g.rules }

// NewState returns a game before the layout is dealt.
func (g *Game) NewState() games.State { s := g.initial; return &s }

// MaxLegalMoves bounds the decisions (and chance outcomes) at any state:
// enters of two sizes, locks, shifts and steps from every card, and stop.
func (g *Game) MaxLegalMoves() int { return 2*Cards + Cards + 2*8*Cards + 1 }

// PerftStart returns the start of a game whose layout is dealt from seed's
// stream (the draws stay chance outcomes), and a line naming the layout.
func (g *Game) PerftStart(seed uint64) (games.State, string) {
	s := g.initial
	rng := pcg.New(seed, 0x63746863) // "cthc"
	var outcomes []games.ChanceOutcome
	for s.phase == phaseLayout {
		outcomes = s.ChanceOutcomes(outcomes[:0])
		s.Apply(games.SampleChance(outcomes, rng))
	}
	return &s, "layout: " + s.layoutString()
}

// Reasons declares how a game can end (games.Reasoner): a completed suit
// wins, filling every corner loses, and the turn cap draws.
func (g *Game) Reasons() []games.ReasonDoc {
	return []games.ReasonDoc{
		{Name: ReasonSuitComplete, Outcome: games.Decisive},
		{Name: ReasonAllCorners, Outcome: games.Decisive},
		{Name: games.ReasonMaxTurns, Outcome: games.Drawn},
	}
}
