package capstone

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
)

// evaluateNaive is Evaluate's definition, piece by piece.
func evaluateNaive(s *State, seat games.Player) float64 {
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

// TestEvaluateMatchesDefinition compares Evaluate with evaluateNaive at
// every position of random games of several variants, for both seats.
func TestEvaluateMatchesDefinition(t *testing.T) {
	short := capstoneRules()
	short.GoalSize, short.StackHeight = 3, 5 // goals shorter than stacks
	tall := capstoneRules()
	tall.StackHeight, tall.GoalSize = MaxHeight, MaxGoal
	for name, r := range map[string]Rules{"capstone": capstoneRules(), "threestone": threestoneRules(), "short goal": short, "tall": tall} {
		if err := r.Validate(); err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		g := newGame(t, r)
		rng := pcg.New(7, 8)
		checked := 0
		for range 30 {
			s := g.NewState().(*State)
			var moves []games.Move
			var outcomes []games.ChanceOutcome
			for !s.IsTerminal() {
				for _, seat := range []games.Player{games.Seat0, games.Seat1} {
					if got, want := s.Evaluate(seat), evaluateNaive(s, seat); got != want {
						t.Fatalf("%s: Evaluate(%v) = %v, want %v\n%s", name, seat, got, want, s)
					}
					checked++
				}
				var m games.Move
				m, moves, outcomes = gamestest.Pick(s, rng, moves, outcomes)
				s.Apply(m)
			}
		}
		t.Logf("%s: %d evaluations", name, checked)
		if checked < 1000 {
			t.Fatalf("%s: only %d evaluations checked", name, checked)
		}
	}
}
