package capstone

import (
	"fmt"
	"math"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

// midGame plays turns random decisions from the start of seed's deal.
func midGame(t *testing.T, r Rules, seed uint64, turns int) *State {
	t.Helper()
	g := newGame(t, r)
	start, _ := g.PerftStart(seed)
	s := start.(*State)
	rng := pcg.New(seed, 7)
	var moves []games.Move
	for s.Plies() < turns && !s.IsTerminal() {
		moves = s.LegalMoves(moves[:0])
		s.Apply(moves[rng.IntN(len(moves))])
	}
	return s
}

// TestEvidenceCountsTheOtherSeatsPieces: seat 1 places a Blue at the
// bottom of L1 and seat 0 a Red on it; a goal for seat 1 with Blue at the
// bottom gains one piece of evidence, whatever it holds elsewhere, and
// seat 0's Red counts for seat 0 alone. A move carries the mover's mark.
func TestEvidenceCountsTheOtherSeatsPieces(t *testing.T) {
	r := capstoneRules()
	g := newGame(t, r)
	start, _ := g.PerftStart(1)
	s := start.(*State)
	s.toMove = games.Seat1
	s.Apply(encode(kindPlace, 1, 0)) // seat 1: colour 1 on L1 (height 0: the goal's last place); nothing to move
	s.Apply(encode(kindPlace, 2, 0)) // seat 0: colour 2 on L1 (height 1); nothing to move
	if s.toMove != games.Seat1 {
		t.Fatalf("%v to move, want seat 1", s.toMove)
	}
	if err := s.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seat games.Player
		goal [MaxGoal]uint8
		want int
	}{
		{games.Seat1, [MaxGoal]uint8{0, 0, 0, 1}, 1},
		{games.Seat1, [MaxGoal]uint8{0, 0, 2, 1}, 1}, // the Red is seat 0's
		{games.Seat1, [MaxGoal]uint8{0, 0, 0, 0}, 0},
		{games.Seat0, [MaxGoal]uint8{0, 0, 2, 1}, 1}, // the Blue is seat 1's
		{games.Seat0, [MaxGoal]uint8{0, 0, 1, 2}, 0},
	} {
		if got := s.evidence(c.seat, &c.goal); got != c.want {
			t.Errorf("%v, goal %v: evidence %d, want %d", c.seat, c.goal[:4], got, c.want)
		}
	}
	// Seat 1 places on L3 and moves the Red from L1 to L2: now seat 1's, at
	// L2's bottom.
	s.Apply(encode(kindPlace, 0, 2))
	s.Apply(encode(kindMove, 0, 1))
	if s.stacks[0].by1 != 0b1 || s.stacks[1].by1 != 0b1 || s.stacks[1].colors[0] != 2 {
		t.Fatalf("after the move L1 marks %b, L2 marks %b holding %v", s.stacks[0].by1, s.stacks[1].by1, s.stacks[1].colors[:s.stacks[1].n])
	}
	if got := s.evidence(games.Seat1, &[MaxGoal]uint8{0, 0, 0, 2}); got != 1 {
		t.Errorf("the moved Red: seat 1's evidence %d, want 1", got)
	}
}

// TestInferenceMatchesTheTiltedPosterior: mid-game, the goals a Belief
// made at the position samples follow the exact posterior (exactPosterior,
// enumerated independently) tilted by exp(strength × evidence), by a
// chi-square test; Evidence's prior chances are the exact posterior's
// summed by evidence, and its truth the true goal's; the sum of a goal's
// positions' evidence is its evidence; and what the observer sees is left
// unchanged.
func TestInferenceMatchesTheTiltedPosterior(t *testing.T) {
	const strength = 0.7
	samples := testenv.Scale(60000)
	for _, r := range []Rules{capstoneRules(), threestoneRules()} {
		s := midGame(t, r, 3, 9)
		for _, observer := range []games.Player{games.Seat0, games.Seat1} {
			opp := observer.Opponent()
			prior := exactPosterior(s, observer)
			m := s.goalEvidence(opp)
			want := map[string]float64{}
			byEvidence := map[int]float64{}
			sum := 0.0
			for key, p := range prior {
				var goal [MaxGoal]uint8
				copy(goal[:], key)
				e := s.evidence(opp, &goal)
				pos := 0
				for i := range r.GoalSize {
					pos += m[i][goal[i]]
				}
				if pos != e {
					t.Fatalf("goal %v: evidence %d, its positions' %d", goal[:r.GoalSize], e, pos)
				}
				byEvidence[e] += p
				want[key] = p * math.Exp(strength*float64(e))
				sum += want[key]
			}
			truth, hist, ok := s.Evidence(observer, nil)
			if !ok {
				t.Fatal("no evidence mid-game")
			}
			if truth != s.evidence(opp, &s.goal[opp]) {
				t.Errorf("%v: Evidence's truth %d, the goal's %d", observer, truth, s.evidence(opp, &s.goal[opp]))
			}
			for e, p := range hist {
				if math.Abs(p-byEvidence[e]) > 1e-9 {
					t.Errorf("%v: the prior's chance of evidence %d is %.6f, want %.6f", observer, e, p, byEvidence[e])
				}
			}
			rng := pcg.New(9, uint64(observer))
			got := map[string]int{}
			belief := s.Belief(observer, strength, nil)
			for range samples {
				c := *s
				belief.Determinize(&c, rng)
				if c.goal[observer] != s.goal[observer] || c.stacks != s.stacks {
					t.Fatal("inference changed what the observer sees")
				}
				if err := c.CheckInvariants(); err != nil {
					t.Fatal(err)
				}
				got[string(c.goal[opp][:r.GoalSize])]++
			}
			for key := range want {
				want[key] /= sum
			}
			goalsFollow(t, fmt.Sprintf("%d stacks, %v: the inferred goals", 2*r.StacksPerSize, observer), want, got, samples)
		}
	}
}

// TestInferenceWithoutStrengthIsDeterminize: a Belief at strength 0
// draws exactly what Determinize draws, from the same stream.
func TestInferenceWithoutStrengthIsDeterminize(t *testing.T) {
	s := midGame(t, capstoneRules(), 4, 7)
	belief := s.Belief(games.Seat0, 0, nil)
	ra, rb := pcg.New(5, 1), pcg.New(5, 1)
	for range 100 {
		a, b := *s, *s
		a.Determinize(games.Seat0, ra)
		belief.Determinize(&b, rb)
		if a != b {
			t.Fatal("a Belief at strength 0 differs from Determinize")
		}
	}
}

// TestInferenceBeyondEnumeration: with more ordered goals than inference
// enumerates (6 colours, goals of 6), a Belief falls back to keeping one
// of inferProposals draws from the prior by weight: the states stay valid,
// the goals drawn hold more evidence than the prior's, and Evidence gives
// none.
func TestInferenceBeyondEnumeration(t *testing.T) {
	r := capstoneRules()
	r.Colors, r.GoalSize, r.StackHeight, r.PiecesPerColor, r.BagPerColor = 6, 6, 6, 5, 6
	s := midGame(t, r, 2, 14)
	observer := s.toMove
	opp := observer.Opponent()
	b := s.Belief(observer, 1.5, nil).(*goalBelief)
	if !b.resample {
		t.Fatalf("%d goals enumerated: want more than %d", len(b.goals), maxEnumerated)
	}
	if _, _, ok := s.Evidence(observer, nil); ok {
		t.Error("Evidence beyond the enumeration")
	}
	rng := pcg.New(4, 4)
	var inferred, prior float64
	const n = 2000
	for range n {
		c := *s
		b.Determinize(&c, rng)
		if err := c.CheckInvariants(); err != nil {
			t.Fatal(err)
		}
		inferred += float64(c.evidence(opp, &c.goal[opp]))
		c = *s
		c.Determinize(observer, rng)
		prior += float64(c.evidence(opp, &c.goal[opp]))
	}
	if !(inferred > prior) {
		t.Errorf("mean evidence %.2f of the inferred goals, %.2f of the prior's: want more", inferred/n, prior/n)
	}
}
