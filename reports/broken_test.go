package reports

import (
	"strings"
	"testing"

	"playtest/games"
	"playtest/sim"
	"playtest/sim/bots"
)

// Where no proof is possible, a run whose every game is short says what
// was seen; a proof that finds nothing (the bots blunder, the rules do
// not) names nothing; long games are never examined.
func TestBrokenWithoutProof(t *testing.T) {
	short := func(r *sim.Record) { r.Plies = 3 }
	s := pairedRun(20, mcts, both(games.Seat0), short)
	if s.Broken == nil || s.Broken.Proof != nil || s.Broken.Text != "every game ends by ply 3; look at the rules before the bots" || s.Broken.LastPly != 3 {
		t.Fatalf("broken %+v", s.Broken)
	}
	if !strings.HasPrefix(s.Headline.Text, "The rules look broken: every game ends by ply 3") {
		t.Errorf("headline %q", s.Headline.Text)
	}
	if len(s.Warnings) != 1 || s.Warnings[0].Code != WarnBrokenRules || !strings.Contains(s.Warnings[0].Message, "no proof is possible") {
		t.Errorf("warnings %+v", s.Warnings)
	}
	if _, ok := s.ProvenValue("seat0_wins"); ok {
		t.Error("a proven value without a proof")
	}
	if long := pairedRun(20, mcts, both(games.Seat0), nil); long.Broken != nil {
		t.Errorf("20-ply games named broken: %+v", long.Broken)
	}
}

// TestQuickProofBeforeBlamingTheBots (issue 58): with random bots whose
// games are long, a forced win the rules hand out at the start is still
// sought (QuickProofPlies) and named, and the bots are not blamed; where
// none exists within the quick proof's reach, nothing is named.
func TestQuickProofBeforeBlamingTheBots(t *testing.T) {
	random := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	run := func(prove func(int) (*games.Proof, bool)) *Summary {
		a := NewAggregator(RunInfo{Source: "preset stacktics/size2", Game: "stacktics", Variant: "stacktics/size2", Seed: 1, Pairs: true,
			Players: [2]bots.Spec{random, random}, Prove: prove})
		for k := range 20 {
			for g := range 2 {
				a.Add(&sim.Record{Index: 2*k + g, Deal: k, Swapped: g == 1, Plies: 30, PlayerDecisions: 30,
					Result: games.Result{Winner: games.Player(k % 2), Reason: "capture-threshold"}})
			}
		}
		return a.Summary(Timing{})
	}
	asked := 0
	s := run(func(depth int) (*games.Proof, bool) {
		asked = depth
		return &games.Proof{Winner: games.Seat0, Plies: 1, Line: []string{"a1Sxd4"}}, true
	})
	if asked != QuickProofPlies || s.Broken == nil || s.Broken.Proof == nil || !strings.Contains(s.Broken.Text, "seat 0 wins by force in 1: a1Sxd4") {
		t.Fatalf("asked to depth %d; broken %+v", asked, s.Broken)
	}
	for _, w := range s.Warnings {
		if w.Code == WarnWeakBots {
			t.Errorf("the bots are blamed beside a proof: %q", w.Message)
		}
	}
	if v, ok := s.ProvenValue("seat0_wins"); !ok || v != 1 {
		t.Errorf("proven seat0_wins %v, %v", v, ok)
	}
	if none := run(func(int) (*games.Proof, bool) { return nil, true }); none.Broken != nil {
		t.Errorf("no forced win, yet broken: %+v", none.Broken)
	}
}
