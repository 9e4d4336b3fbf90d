package capstone

import (
	"encoding/binary"
	"math/bits"

	"playtest/games"
)

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
	g := s.goalCounts(seat)
	return float64(g.matched + s.g.rules.PerfectBonus*g.perfect)
}

// goalTally is how the stacks stand against one seat's goal.
type goalTally struct {
	matched     int // pieces at the position the goal wants, over all stacks
	perfect     int // full stacks that match the goal exactly
	openMatched int // matched pieces in stacks not yet full
	dead        int // full stacks that do not match the goal exactly
}

// goalCounts scores the stacks as they stand against seat's goal: each
// piece counted at the position it will hold when its stack is full (a
// piece at height j from the bottom of a stack of height h ends at
// position h−1−j from the top).
func (s *State) goalCounts(seat games.Player) goalTally {
	r := &s.g.rules
	h := r.StackHeight
	want := s.wantOf(&s.goal[seat])
	var t goalTally
	for st := range s.g.stacks {
		stk := &s.stacks[st]
		matched := bits.OnesCount64(stk.matches(want))
		t.matched += matched
		switch {
		case int(stk.n) < h:
			t.openMatched += matched
		case matched == min(r.GoalSize, h):
			t.perfect++
		default:
			t.dead++
		}
	}
	return t
}

// wantOf holds, at byte j, goal's colour for height j from the bottom of
// a full stack (position h−1−j from the top), 0xff above the goal: a
// stack's matches are the zero bytes of its colours xor want (matches).
func (s *State) wantOf(goal *[MaxGoal]uint8) uint64 {
	r := &s.g.rules
	h := r.StackHeight
	want := ^uint64(0)
	for pos := range min(r.GoalSize, h) {
		j := h - 1 - pos
		want = want&^(0xff<<(8*j)) | uint64(goal[pos])<<(8*j)
	}
	return want
}

// matches has the top bit of byte j set when the stack's piece at height j
// is where want (wantOf) wants it, among its pieces.
func (stk *stack) matches(want uint64) uint64 {
	x := binary.LittleEndian.Uint64(stk.colors[:]) ^ want
	const low7 = 0x7f7f7f7f7f7f7f7f
	zeros := ^((x&low7 + low7) | x | low7) // the top bit of each zero byte
	return zeros & firstBytes[stk.n]
}

// firstBytes[n] has the top bit of each of the first n bytes.
var firstBytes = func() (m [MaxHeight + 1]uint64) {
	for n := 1; n <= MaxHeight; n++ {
		m[n] = m[n-1] | 0x80<<(8*(n-1))
	}
	return m
}()

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
