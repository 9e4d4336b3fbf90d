package capturecard

import (
	"math/bits"

	"playtest/games"
)

// features are Capture the Card's named features of a position from one
// seat's view (own − other unless said): the hand heuristic's terms first
// (the best suit held, the pieces on the board, the three-corner penalty),
// then pieces by size, reserves, corners, Jokers and protection. Nothing
// is hidden: both seats see all of it.
var features = []games.Feature{
	{Name: "best_suit", Doc: "the most cards of one suit the seat has a piece on, minus the other's (the hand heuristic, ×10)"},
	{Name: "on_board", Doc: "pieces on the board, the seat's minus the other's (the hand heuristic)"},
	{Name: "three_corners", Doc: "1 when all_corners_loses is on and the seat holds three corners (the hand heuristic, ×−20)"},
	{Name: "to_move", Doc: "1 when the seat decides next, −1 when the other does, 0 while chance deals or draws"},
	{Name: "larges", Doc: "Larges on the board, the seat's minus the other's"},
	{Name: "walkers", Doc: "Smalls and Mediums on the board (the pieces a Move steps), the seat's minus the other's"},
	{Name: "reserve", Doc: "pieces still in reserve, the seat's minus the other's"},
	{Name: "corners", Doc: "corners held, the seat's minus the other's"},
	{Name: "jokers_held", Doc: "Jokers saved, the seat's minus the other's"},
	{Name: "protected", Doc: "1 when the seat's pieces are protected by a Joker, minus the same for the other"},
}

// Features lists Capture the Card's features (games.Featurer).
func (g *Game) Features() []games.Feature { return features }

// HandWeights are the weights on Features that give Evaluate
// (games.Featurer).
func (g *Game) HandWeights() []float64 {
	w := make([]float64, len(features))
	w[0], w[1], w[2] = 10, 1, -20
	return w
}

// AppendFeatures appends the position's features from seat's side
// (games.FeatureState).
func (s *State) AppendFeatures(buf []float64, seat games.Player) []float64 {
	other := seat.Opponent()
	three := 0.0
	if s.g.rules.AllCornersLoses && s.cornersHeld(seat) == 3 {
		three = 1
	}
	toMove := 0.0
	switch s.CurrentPlayer() {
	case seat:
		toMove = 1
	case other:
		toMove = -1
	}
	larges := func(p games.Player) int { return bits.OnesCount32(s.pieces[p] &^ s.walkers[p]) }
	reserve := func(p games.Player) int { return int(s.reserve[p][0]) + int(s.reserve[p][1]) + int(s.reserve[p][2]) }
	protected := func(p games.Player) float64 {
		if s.protect[p] > 0 {
			return 1
		}
		return 0
	}
	return append(buf,
		float64(s.bestSuit(seat)-s.bestSuit(other)),
		float64(int(s.onBoard[seat])-int(s.onBoard[other])),
		three,
		toMove,
		float64(larges(seat)-larges(other)),
		float64(bits.OnesCount32(s.walkers[seat])-bits.OnesCount32(s.walkers[other])),
		float64(reserve(seat)-reserve(other)),
		float64(s.cornersHeld(seat)-s.cornersHeld(other)),
		float64(int(s.held[seat])-int(s.held[other])),
		protected(seat)-protected(other),
	)
}
