package capstone

import (
	"math/bits"

	"playtest/games"
)

// features are Capstone's named features of a position from one seat's
// view: its own goal against the stacks (the hand heuristic's terms
// first), how much of the goal it knows, and the board everyone sees. The
// other goal is hidden, so nothing here depends on it.
var features = []games.Feature{
	{Name: "goal_matches", Doc: "pieces standing where the seat's goal wants them, each counted at the position it will hold in its full stack (the hand heuristic)"},
	{Name: "perfect_stacks", Doc: "full stacks matching the seat's goal exactly (the hand heuristic adds perfect_bonus for each)"},
	{Name: "open_matches", Doc: "goal_matches in stacks not yet full (still to be completed, or spoilt)"},
	{Name: "dead_stacks", Doc: "full stacks that do not match the seat's goal exactly"},
	{Name: "goal_known", Doc: "the share of its goal the seat has drawn so far (1 after the setup)"},
	{Name: "to_move", Doc: "1 when the seat decides next, −1 when the other does, 0 while chance draws"},
	{Name: "full_stacks", Doc: "stacks at full height"},
	{Name: "capped_stacks", Doc: "stacks under a capstone"},
	{Name: "filled_stacks", Doc: "stacks holding at least one piece"},
}

// Features lists Capstone's features (games.Featurer).
func (g *Game) Features() []games.Feature { return features }

// HandWeights are the weights on Features that give Evaluate: the goal's
// matches and perfect_bonus for each perfect stack (games.Featurer).
func (g *Game) HandWeights() []float64 {
	w := make([]float64, len(features))
	w[0], w[1] = 1, float64(g.rules.PerfectBonus)
	return w
}

// AppendFeatures appends the position's features as seat sees it
// (games.FeatureState): its own goal and the public board only.
func (s *State) AppendFeatures(buf []float64, seat games.Player) []float64 {
	t := s.goalCounts(seat)
	toMove := 0.0
	switch s.CurrentPlayer() {
	case seat:
		toMove = 1
	case seat.Opponent():
		toMove = -1
	}
	return append(buf,
		float64(t.matched), float64(t.perfect), float64(t.openMatched), float64(t.dead),
		float64(s.goalLen[seat])/float64(max(s.g.rules.GoalSize, 1)),
		toMove,
		float64(bits.OnesCount16(s.full)), float64(bits.OnesCount16(s.capped)), float64(bits.OnesCount16(s.filled)),
	)
}
