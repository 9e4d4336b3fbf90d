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
	var c featureCounts
	s.countFeatures(&c)
	return s.appendFeaturesOf(buf, &c, seat)
}

// AppendFeaturePair appends seat's features and then the other seat's,
// each exactly as AppendFeatures gives them, counting the armies and
// their moves once (games.FeaturePairState).
func (s *State) AppendFeaturePair(buf []float64, seat games.Player) []float64 {
	var c featureCounts
	s.countFeatures(&c)
	buf = s.appendFeaturesOf(buf, &c, seat)
	return s.appendFeaturesOf(buf, &c, seat.Opponent())
}

// featureCounts are what the features of either seat are made of: both
// armies' counts and legal moves.
type featureCounts struct {
	army     [2]armyFeatures
	mobility [2]int
}

// countFeatures counts both armies and, in a game not over, their moves.
func (s *State) countFeatures(c *featureCounts) {
	s.countArmy(ArmyA, &c.army[ArmyA])
	s.countArmy(ArmyB, &c.army[ArmyB])
	if s.phase != phaseOver {
		c.mobility[ArmyA], c.mobility[ArmyB] = s.mobility(ArmyA), s.mobility(ArmyB)
	}
}

// appendFeaturesOf appends seat's features from the counts.
func (s *State) appendFeaturesOf(buf []float64, c *featureCounts, seat games.Player) []float64 {
	own := s.armyOf(seat)
	o, e := &c.army[own], &c.army[own^1]
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
	mean := func(f *armyFeatures) float64 {
		if f.pieces == 0 {
			return 0
		}
		return f.progress / float64(f.pieces)
	}
	return append(buf,
		float64(s.captured[own])-float64(s.captured[own^1]),
		float64(c.mobility[own]-c.mobility[own^1]),
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
