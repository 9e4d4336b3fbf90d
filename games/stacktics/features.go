package stacktics

import (
	"math/bits"

	"playtest/games"
)

// features are Stacktics' named features of a position, from one seat's
// army (own − other unless said): the hand heuristic's two terms first,
// then what it leaves out.
var features = []games.Feature{
	{Name: "material", Doc: "pips captured by the seat's army minus pips captured by the other (the hand heuristic's material)"},
	{Name: "mobility", Doc: "the army's legal moves minus the other's (the hand heuristic's mobility)"},
	{Name: "to_move", Doc: "1 when the seat's army moves next, −1 when the other does, 0 at the pie decision"},
	{Name: "pie_pending", Doc: "1 when the seat decides keep or swap now"},
	{Name: "larges", Doc: "Larges on the board, the army's minus the other's"},
	{Name: "mediums", Doc: "Mediums on the board, the army's minus the other's"},
	{Name: "smalls", Doc: "Smalls on the board, the army's minus the other's"},
	{Name: "stacks", Doc: "stacks on the board, the army's minus the other's"},
	{Name: "tall_stacks", Doc: "stacks of three or more pieces, the army's minus the other's"},
	{Name: "lone_larges", Doc: "stacks that are a Large alone, the army's minus the other's"},
	{Name: "advance", Doc: "the pieces' mean progress toward the far edge (0 at the home row, 1 at the far row), the army's minus the other's"},
	{Name: "centre", Doc: "pieces on the central squares (the middle half of rows and columns), the army's minus the other's"},
	{Name: "home_row", Doc: "pieces on the army's own first row, the army's minus the other's"},
	{Name: "far_half", Doc: "pieces in the other army's half of the board, the army's minus the other's"},
}

// Features lists Stacktics' features (games.Featurer).
func (g *Game) Features() []games.Feature { return features }

// HandWeights are the weights on Features that give Evaluate: captured
// pips and MobilityWeight × mobility (games.Featurer).
func (g *Game) HandWeights() []float64 {
	w := make([]float64, len(features))
	w[0], w[1] = 1, MobilityWeight
	return w
}

// armyFeatures are one army's counts, before the differences.
type armyFeatures struct {
	larges, mediums, smalls, stacks, tall, loneLarges int
	progress                                          float64 // Σ over pieces of their progress
	pieces, centre, home, far                         int
}

// AppendFeatures appends the position's features from seat's army (games.
// FeatureState); Stacktics hides nothing, so both seats see all.
func (s *State) AppendFeatures(buf []float64, seat games.Player) []float64 {
	own := s.armyOf(seat)
	var a [2]armyFeatures
	s.countArmy(ArmyA, &a[ArmyA])
	s.countArmy(ArmyB, &a[ArmyB])
	o, e := &a[own], &a[own^1]
	toMove, pie := 0.0, 0.0
	switch {
	case s.phase == phasePie:
		if s.CurrentPlayer() == seat {
			pie = 1
		}
	case s.phase == phaseOver:
	case int(s.toMove) == own:
		toMove = 1
	default:
		toMove = -1
	}
	mobility := 0.0
	if s.phase != phaseOver {
		mobility = float64(s.mobility(own) - s.mobility(own^1))
	}
	mean := func(f *armyFeatures) float64 {
		if f.pieces == 0 {
			return 0
		}
		return f.progress / float64(f.pieces)
	}
	return append(buf,
		float64(s.captured[own])-float64(s.captured[own^1]),
		mobility,
		toMove,
		pie,
		float64(o.larges-e.larges),
		float64(o.mediums-e.mediums),
		float64(o.smalls-e.smalls),
		float64(o.stacks-e.stacks),
		float64(o.tall-e.tall),
		float64(o.loneLarges-e.loneLarges),
		mean(o)-mean(e),
		float64(o.centre-e.centre),
		float64(o.home-e.home),
		float64(o.far-e.far),
	)
}

// countArmy counts an army's pieces, stacks and where they stand. Army A
// starts on row 1 and advances up the board, army B the other way.
func (s *State) countArmy(army int, f *armyFeatures) {
	g := s.g
	span := float64(max(g.rows-1, 1))
	rowLo, rowHi := g.rows/4, g.rows-g.rows/4
	colLo, colHi := g.cols/4, g.cols-g.cols/4
	for occ := s.occ[army]; occ != 0; occ &= occ - 1 {
		sq := bits.TrailingZeros64(occ)
		c := s.board[sq]
		row, col := sq/8, sq%8
		progress := row
		if army == ArmyB {
			progress = g.rows - 1 - row
		}
		n := c.height()
		f.larges += c.larges()
		f.mediums += c.mediums()
		f.smalls += c.smalls()
		f.stacks++
		if n >= 3 {
			f.tall++
		}
		if n == 1 && c.larges() == 1 {
			f.loneLarges++
		}
		f.pieces += n
		f.progress += float64(n*progress) / span
		if row >= rowLo && row < rowHi && col >= colLo && col < colHi {
			f.centre += n
		}
		if progress == 0 {
			f.home += n
		}
		if 2*progress >= g.rows {
			f.far += n
		}
	}
}
