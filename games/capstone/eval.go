package capstone

import "playtest/games"

// WinScore is the evaluation of a won game (lost: −WinScore).
const WinScore = 1000.0

// Evaluate scores the position for seat using only what seat can see: its
// own goal. Once the game is over it is ±WinScore (0 for a draw). Before,
// it is the points seat's goal would score if the stacks were scored as
// they stand, each piece counted at the position it will hold when its
// stack is full (a piece at height j from the bottom of a stack of height h
// ends at position h−1−j from the top), plus perfect_bonus for each full
// stack that matches exactly. The other goal is unknown, so the greedy bot
// builds towards its own goal and ignores the opponent's.
func (s *State) Evaluate(seat games.Player) float64 {
	if s.phase == phaseOver {
		return WinScore * s.Result().ValueFor(seat)
	}
	r := &s.g.rules
	h := r.StackHeight
	total := 0
	for st := range s.g.stacks {
		stk := &s.stacks[st]
		matched := 0
		for j := range int(stk.n) {
			if pos := h - 1 - j; pos < r.GoalSize && stk.colors[j] == s.goal[seat][pos] {
				matched++
			}
		}
		total += matched
		if int(stk.n) == h && matched == min(r.GoalSize, h) {
			total += r.PerfectBonus
		}
	}
	return float64(total)
}

// AppendMetrics reports the figures of a finished game: each seat's score
// (score.seat0, score.seat1) and perfect stacks (perfect.seat0,
// perfect.seat1), the margin (seat 0 − seat 1), perfect matches in all
// (perfect_matches), and the full stacks at the end (full_stacks; the
// source claims at least 6 in Capstone and 4 in ThreeStone, so reports show
// its minimum).
func (s *State) AppendMetrics(dst []games.Metric) []games.Metric {
	return append(dst,
		games.Value("score.seat0", float64(s.score[0])),
		games.Value("score.seat1", float64(s.score[1])),
		games.Value("margin", float64(s.score[0]-s.score[1])),
		games.Value("perfect.seat0", float64(s.perfect[0])),
		games.Value("perfect.seat1", float64(s.perfect[1])),
		games.Value("perfect_matches", float64(s.perfect[0]+s.perfect[1])),
		games.Value("full_stacks", float64(s.fullStacks)),
	)
}
