package stacks

import (
	"math"
	"math/bits"
	"slices"

	"playtest/games"
)

// features are STACKS' named features of a position from one seat's view:
// the hand heuristic's points first, then the cards (the seat's own hand;
// of the other, only what every player knows: its hand's size and the
// cards it has left in hand and stock together) and the board.
var features = []games.Feature{
	{Name: "points", Doc: "the seat's points minus the other's (the hand heuristic; in a match, the totals)"},
	{Name: "to_move", Doc: "1 when the seat plays next, −1 when the other does, 0 while a card is drawn"},
	{Name: "hand_1", Doc: "1-cards in the seat's hand"},
	{Name: "hand_2", Doc: "2-cards in the seat's hand"},
	{Name: "hand_3", Doc: "3-cards in the seat's hand"},
	{Name: "hand_4", Doc: "4-cards in the seat's hand"},
	{Name: "stock_left", Doc: "cards left in the seat's stock"},
	{Name: "other_hand", Doc: "cards in the other's hand"},
	{Name: "other_left_1", Doc: "1-cards the other has left, hand and stock together (public: its deal minus what it played)"},
	{Name: "other_left_2", Doc: "2-cards the other has left, hand and stock together"},
	{Name: "other_left_3", Doc: "3-cards the other has left, hand and stock together"},
	{Name: "other_left_4", Doc: "4-cards the other has left, hand and stock together"},
	{Name: "stacks", Doc: "stacks on the board"},
	{Name: "stacks_1", Doc: "stacks of height 1"},
	{Name: "stacks_2", Doc: "stacks of height 2"},
	{Name: "stacks_3", Doc: "stacks of height 3"},
	{Name: "stacks_4_up", Doc: "stacks of height 4 or more"},
}

// matchFeatures follow features in match play: the match score, which
// decides much of who wins a match and which the points difference alone
// does not weigh (a lead counts for more the nearer the target).
var matchFeatures = []games.Feature{
	{Name: "match_lead", Doc: "the seat's total minus the other's over the match's finished games"},
	{Name: "to_target", Doc: "points the seat still needs to reach the target (0 once there), in tens"},
	{Name: "other_to_target", Doc: "points the other still needs to reach the target, in tens"},
	{Name: "lead_by_distance", Doc: "the points difference (the totals) over the square root of 1 + the points the nearer seat still needs: a lead near the finish decides more"},
}

// Features lists STACKS' features (games.Featurer): in match play,
// matchFeatures follow them.
func (g *Game) Features() []games.Feature {
	if g.match {
		return matchPlayFeatures
	}
	return features
}

// matchPlayFeatures are match play's features: features, then
// matchFeatures.
var matchPlayFeatures = slices.Concat(features, matchFeatures)

// HandWeights are the weights on Features that give Evaluate: the points
// difference (games.Featurer).
func (g *Game) HandWeights() []float64 {
	w := make([]float64, len(g.Features()))
	w[0] = 1
	return w
}

// AppendFeatures appends the position's features as seat sees it
// (games.FeatureState): the other's hand enters only by its size and, with
// its stock, by the cards left, which a determinisation for seat keeps.
func (s *State) AppendFeatures(buf []float64, seat games.Player) []float64 {
	other := seat.Opponent()
	sc := s.Scores()
	toMove := 0.0
	switch p := s.CurrentPlayer(); p {
	case seat:
		toMove = 1
	case other:
		toMove = -1
	}
	buf = append(buf, float64(sc[seat]-sc[other]), toMove)
	for v := 1; v <= MaxValue; v++ {
		buf = append(buf, float64(s.hand[seat][v]))
	}
	buf = append(buf, float64(s.stockN[seat]), float64(s.handN[other]))
	for v := 1; v <= MaxValue; v++ {
		buf = append(buf, float64(s.hand[other][v])+float64(s.stock[other][v]))
	}
	tall := 0
	for h := 4; h <= Pieces; h++ {
		tall += bits.OnesCount32(s.atHeight[h])
	}
	buf = append(buf, float64(bits.OnesCount32(s.occ)),
		float64(bits.OnesCount32(s.atHeight[1])), float64(bits.OnesCount32(s.atHeight[2])),
		float64(bits.OnesCount32(s.atHeight[3])), float64(tall))
	if !s.g.match {
		return buf
	}
	need := func(p games.Player) int { return max(0, s.g.target-sc[p]) }
	lead := float64(sc[seat] - sc[other])
	return append(buf, float64(s.total[seat]-s.total[other]),
		float64(need(seat))/10, float64(need(other))/10,
		lead/math.Sqrt(1+float64(min(need(seat), need(other)))))
}
