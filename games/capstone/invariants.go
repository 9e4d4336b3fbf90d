package capstone

import (
	"fmt"

	"playtest/games"
)

// CheckInvariants verifies piece conservation per colour and size, the
// height limit, one capstone per stack, and, at the end, the spec's bound
// on full stacks when the stash exactly fills the stacks.
func (s *State) CheckInvariants() error {
	g := s.g
	r := &g.rules
	if filled, full, capped, colors := s.stackSets(); filled != s.filled || full != s.full || capped != s.capped || colors != s.stashColors {
		return fmt.Errorf("stack sets filled %b full %b capped %b stash colours %b, kept as %b %b %b %b",
			filled, full, capped, colors, s.filled, s.full, s.capped, s.stashColors)
	}
	var onBoard [2][MaxColors]int
	capsSeen := 0
	for st := range MaxStacks {
		stk := &s.stacks[st]
		if st >= g.stacks {
			if stk.n != 0 || stk.cap != -1 {
				return fmt.Errorf("stack %d is not on the board but is used", st)
			}
			continue
		}
		if int(stk.n) > r.StackHeight {
			return fmt.Errorf("%s holds %d pieces, more than %d", g.StackName(st), stk.n, r.StackHeight)
		}
		if stk.by1>>stk.n != 0 {
			return fmt.Errorf("%s records who put %08b of its %d pieces", g.StackName(st), stk.by1, stk.n)
		}
		for i := range stk.n {
			if int(stk.colors[i]) >= r.Colors {
				return fmt.Errorf("%s holds colour %d", g.StackName(st), stk.colors[i])
			}
			onBoard[g.sizeOf(st)][stk.colors[i]]++
		}
		if stk.cap >= 0 {
			capsSeen++
			if int(stk.cap) >= g.caps || int(s.capAt[stk.cap]) != st {
				return fmt.Errorf("%s holds capstone %d, recorded at %d", g.StackName(st), stk.cap, s.capAt[max(stk.cap, 0)])
			}
		}
	}
	onStacks := 0
	for k := range MaxCapstones {
		if at := s.capAt[k]; at >= 0 {
			if k >= g.caps || s.stacks[at].cap != int8(k) {
				return fmt.Errorf("capstone %d recorded at %s, which does not hold it", k, g.StackName(int(at)))
			}
			onStacks++
		}
	}
	if onStacks != capsSeen {
		return fmt.Errorf("%d capstones on stacks, %d recorded", capsSeen, onStacks)
	}
	for size := range 2 {
		for c := range r.Colors {
			if n := onBoard[size][c] + int(s.stash[size][c]); n != r.PiecesPerColor {
				return fmt.Errorf("size %d colour %c: %d on the board + %d in the stash ≠ %d",
					size, colorLetters[c], onBoard[size][c], s.stash[size][c], r.PiecesPerColor)
			}
		}
	}
	smalls := s.fullBag()
	for seat := range games.Player(2) {
		own := s.ownSmalls(seat)
		for c := range r.Colors {
			smalls[c] -= own[c]
		}
	}
	// In goal_order random, a draw in progress sits in drawn (counted by
	// ownSmalls) while its goal prefix mirrors it.
	for c := range r.Colors {
		if smalls[c] != int(s.bag[c]) {
			return fmt.Errorf("colour %c: %d Smalls in the bag, want %d", colorLetters[c], s.bag[c], smalls[c])
		}
	}
	if s.phase == phaseOver && r.Colors*r.PiecesPerColor == r.StacksPerSize*r.StackHeight {
		if want := g.stacks - g.caps; int(s.fullStacks) < want {
			return fmt.Errorf("only %d full stacks at the end, the stash fills the stacks exactly and %d capstones can block at most %d",
				s.fullStacks, g.caps, g.caps)
		}
	}
	if s.phase == phaseOver && s.reason == "" {
		return fmt.Errorf("game over without a reason")
	}
	return nil
}
