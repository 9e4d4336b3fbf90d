package stacktics

import (
	"sync"

	"playtest/games"
)

// Piece sizes; a piece's size is also its pip count.
const (
	Small  = 1
	Medium = 2
	Large  = 3
)

// Armies. Army A starts on row 0 and moves first; army B starts on the last
// row. Without a swap, seat 0 commands A.
const (
	ArmyA = 0
	ArmyB = 1
)

// Game is an immutable Stacktics variant: resolved rules and the board's
// precomputed geometry. It is safe for concurrent use.
//
// Squares are numbered row×8 + col whatever the board's size (see
// magic.go), so that bitboards and slider tables are shared by all sizes.
type Game struct {
	rules       Rules
	rows, cols  int
	loadedRange int
	pieRule     bool
	threshold   int // pips a player must capture to win
	forcePips   int // 6 × size
	// onBoard has a bit for every square of the board; offBoard is its
	// complement, used as blockers by the slider tables.
	onBoard, offBoard uint64
	// reach[sq][r] holds the squares at most r king steps from sq (r ≤ 7),
	// which limits loaded and overloaded units.
	reach [MaxSquares][8]uint64
	// cand[size][sq] lists, for a base of that size on sq, every square of
	// its lines on the board, nearest first; candWithin[size][sq][r] is how
	// many of them are at most r king steps away. between[a][b] holds the
	// squares strictly between two aligned squares. RandomMove samples from
	// these.
	cand       [4][MaxSquares][2 * (MaxRows + MaxCols)]uint8
	candWithin [4][MaxSquares][8]uint8
	between    [MaxSquares][MaxSquares]uint64
	// groups[c][size] describes the bases of that size in a stack of
	// counts c (see groupShape).
	groups [countMask + 1][4]groupShape
	// slotTable[slotIndex(stack, sq)] is stackSlots of every stack a side
	// can build (counts of each size up to size) on every square.
	slotTable []uint16
	// shapeOf numbers the stacks a side can build by their counts of each
	// size (a cell without its owner); shapes is how many there are.
	shapeOf [countMask + 1]uint16
	shapes  int
	// slotStart[slotIndex(stack, sq)] is where that stack's slots begin in
	// slotMoves, which holds every slot decoded (see slotUnit); built on
	// first use (about 11 MiB for size 8 on 8×8).
	slotStart     []uint32
	slotMoves     []slotMove
	slotMovesOnce sync.Once
	initial       State
}

// slotMove is one RandomMove slot decoded: the candidate square, the
// height and size of the unit's base, and whether the unit may capture
// (groupShape.capture: it is one piece, leaving a stack of two or more).
type slotMove struct {
	to, k, base, capture uint8
}

// New builds a game from validated rules.
func New(r Rules) *Game {
	magicsOnce.Do(initMagics)
	g := &Game{
		rules:       r,
		rows:        r.Board.Rows,
		cols:        r.Board.Cols,
		loadedRange: min(*r.LoadedRange, 7),
		pieRule:     *r.PieRule,
		forcePips:   6 * r.Size,
	}
	g.threshold = 3 * r.Size
	if r.WinThreshold == ThresholdMoreThanHalf {
		g.threshold++
	}
	for row := range g.rows {
		for col := range g.cols {
			g.onBoard |= 1 << g.square(row, col)
		}
	}
	g.offBoard = ^g.onBoard
	g.initGroups()
	g.initSampling()
	side := r.Size + 1
	g.shapes = side * side * side
	for l := range side {
		for m := range side {
			for sm := range side {
				g.shapeOf[makeCell(ArmyA, l, m, sm)] = uint16((l*side+m)*side + sm)
			}
		}
	}
	g.slotTable = make([]uint16, MaxSquares*g.shapes)
	for sq := range MaxSquares {
		if g.onBoard&(1<<sq) == 0 {
			continue
		}
		for l := range side {
			for m := range side {
				for sm := range side {
					c := makeCell(ArmyA, l, m, sm)
					g.slotTable[g.slotIndex(c, sq)] = uint16(g.stackSlots(c, sq))
				}
			}
		}
	}
	for sq := range MaxSquares {
		for dist := range 8 {
			for t := range MaxSquares {
				dr, dc := abs(t/8-sq/8), abs(t%8-sq%8)
				if t != sq && max(dr, dc) <= dist {
					g.reach[sq][dist] |= 1 << t
				}
			}
		}
	}
	g.initial.g = g
	g.initial.pie = -1
	g.initial.firstCapturer = -1
	g.initial.winner = games.NoPlayer
	tree := makeCell(ArmyA, 1, 1, 1)
	for _, c := range r.StartColumns {
		g.initial.setCell(g.square(0, c), tree)
		g.initial.setCell(g.square(g.rows-1, c), tree|ownerB)
	}
	g.initial.remember(g.initial.hash)
	return g
}

// Name returns "stacktics".
func (g *Game) Name() string { return Definition.Name }

// Rules returns the resolved rules of the variant.
func (g *Game) Rules() Rules { return g.rules }

// NewState returns the start position.
func (g *Game) NewState() games.State { return g.Start() }

// Start returns the start position as a concrete *State.
func (g *Game) Start() *State {
	s := g.initial
	s.hist = make([]uint64, 1, 64)
	s.hist[0] = s.hash
	return &s
}

// MaxLegalMoves bounds the number of legal moves: each of a player's 3 ×
// size pieces can be the base of one unit, which reaches at most
// 2 × (rows + cols) squares (a queen's lines).
func (g *Game) MaxLegalMoves() int { return 3*g.rules.Size*2*(g.rows+g.cols) + 2 }

// Sides names the armies: A moved first, B replied.
func (g *Game) Sides() []string { return []string{"A", "B"} }

// SideWord is what Stacktics calls a side (games.Sided).
func (g *Game) SideWord() string { return "army" }

func (g *Game) square(row, col int) int { return row*8 + col }

// initSampling fills the candidate lists, between and dist tables.
func (g *Game) initSampling() {
	steps := [4][][2]int{
		Small:  bishopSteps[:],
		Medium: rookSteps[:],
		Large:  append(rookSteps[:], bishopSteps[:]...),
	}
	for size := Small; size <= Large; size++ {
		for row := range g.rows {
			for col := range g.cols {
				sq := g.square(row, col)
				n := 0
				// Walk all lines one step further at a time: nearest first.
				for d := 1; d < 8; d++ {
					for _, st := range steps[size] {
						r, c := row+d*st[0], col+d*st[1]
						if r < 0 || r >= g.rows || c < 0 || c >= g.cols {
							continue
						}
						t := g.square(r, c)
						g.cand[size][sq][n] = uint8(t)
						n++
						for i := 1; i < d; i++ {
							g.between[sq][t] |= 1 << g.square(row+i*st[0], col+i*st[1])
						}
					}
					g.candWithin[size][sq][d] = uint8(n)
				}
			}
		}
	}
}

// initSlotMoves decodes every slot of every stack a side can build on
// every square, in slotIndex order.
func (g *Game) initSlotMoves() {
	g.slotStart = make([]uint32, len(g.slotTable))
	side := g.rules.Size + 1
	for sq := range MaxSquares {
		for l := range side {
			for m := range side {
				for sm := range side {
					c := makeCell(ArmyA, l, m, sm)
					i := g.slotIndex(c, sq)
					g.slotStart[i] = uint32(len(g.slotMoves))
					for r := range int(g.slotTable[i]) {
						k, base, slot, capture := g.slotUnit(c, sq, r)
						g.slotMoves = append(g.slotMoves, slotMove{to: g.cand[base][sq][slot], k: uint8(k), base: uint8(base), capture: capture})
					}
				}
			}
		}
	}
}

// slotIndex is the index of stack c on sq in slotTable.
func (g *Game) slotIndex(c cell, sq int) int {
	return sq*g.shapes + int(g.shapeOf[c&countMask])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Reasons declares how a game can end (games.Reasoner): a capture reaching
// the threshold wins; no legal move wins for the other seat or draws (by
// the no_moves knob); repetition and the move cap draw.
func (g *Game) Reasons() []games.ReasonDoc {
	return []games.ReasonDoc{
		{Name: "capture-threshold", Outcome: games.Decisive},
		{Name: games.ReasonNoLegalMove, Outcome: games.Either},
		{Name: games.ReasonRepetition, Outcome: games.Drawn},
		{Name: games.ReasonMaxPlies, Outcome: games.Drawn},
	}
}
