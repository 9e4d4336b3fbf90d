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

// TestProvenValueJudgesTheSeatOutcomes (issue 58): where the variant's
// value is proven (Settle), the seat outcomes' values are perfect play's,
// the headline names the proof and says when the bots' answer differs,
// and a forced win in Broken is preferred (Settle is not asked).
func TestProvenValueJudgesTheSeatOutcomes(t *testing.T) {
	run := func(settle func() *ProvenStart, prove func(int) (*games.Proof, bool), winner func(k int) games.Player) *Summary {
		a := NewAggregator(RunInfo{Source: "preset mnk/tictactoe", Game: "mnk", Variant: "mnk/tictactoe", Seed: 1, Pairs: true,
			Players: [2]bots.Spec{mcts, mcts}, Prove: prove, Settle: settle})
		for k := range 40 {
			for g := range 2 {
				a.Add(&sim.Record{Index: 2*k + g, Deal: k, Swapped: g == 1, Plies: 9, PlayerDecisions: 9, Fingerprint: uint64(2*k + g + 1),
					Result: games.Result{Winner: winner(2*k + g), Reason: "line"}})
			}
		}
		return a.Summary(Timing{})
	}
	seat0Wins := func(int) games.Player { return games.Seat0 }
	noForcedWin := func(int) (*games.Proof, bool) { return nil, true }
	draw := func() *ProvenStart { return NewProvenStart(games.NoPlayer, true, 12345) }
	s := run(draw, noForcedWin, seat0Wins)
	if s.Proven == nil || s.Proven.Text != "a draw with perfect play (proven by a search of 12,345 positions)" {
		t.Fatalf("proven %+v", s.Proven)
	}
	for metric, want := range map[string]float64{"seat0_wins": 0, "seat1_wins": 0, "draws": 1, "seat0_score": 0.5, "balance": 1, "stalled": 0} {
		if v, ok := s.ProvenValue(metric); !ok || v != want {
			t.Errorf("%s = %v (%v), want %v", metric, v, ok, want)
		}
	}
	if _, ok := s.ProvenValue("plies"); ok {
		t.Error("a value proof gives the games' length")
	}
	if !strings.HasPrefix(s.Headline.Text, "Proven value: a draw with perfect play (proven by a search of 12,345 positions). In these games: Seat 0") ||
		!strings.HasSuffix(s.Headline.Text, "These games' answer is the bots', not the game's: the proof judges the game.") {
		t.Errorf("headline %q", s.Headline.Text)
	}
	won := run(func() *ProvenStart { return NewProvenStart(games.Seat0, false, 22) }, noForcedWin, seat0Wins)
	if v, ok := won.ProvenValue("seat0_score"); !ok || v != 1 || strings.Contains(won.Headline.Text, "not the game's") {
		t.Errorf("seat0_score %v (%v); headline %q", v, ok, won.Headline.Text)
	}
	if v, _ := won.ProvenValue("seat1_wins"); v != 0 {
		t.Errorf("seat1_wins %v", v)
	}
	// Games with no seat advantage contradict a proven win.
	if b := run(func() *ProvenStart { return NewProvenStart(games.Seat0, false, 22) }, noForcedWin, func(i int) games.Player { return games.Player(i % 2) }); b.Headline.Verdict != VerdictBalanced || !strings.Contains(b.Headline.Text, "not the game's") {
		t.Errorf("verdict %q, headline %q", b.Headline.Verdict, b.Headline.Text)
	}
	// Undecided games contradict no proof: they say nothing yet.
	byPair := func(i int) games.Player { return games.Player(i / 2 % 2) }
	if u := run(draw, noForcedWin, byPair); u.Headline.Verdict != VerdictUndecided || strings.Contains(u.Headline.Text, "not the game's") {
		t.Errorf("verdict %q, headline %q", u.Headline.Verdict, u.Headline.Text)
	}
	asked := false
	forced := run(func() *ProvenStart { asked = true; return nil }, func(int) (*games.Proof, bool) {
		return &games.Proof{Winner: games.Seat0, Plies: 1, Line: []string{"b2"}}, true
	}, seat0Wins)
	if asked || forced.Proven != nil || forced.ProofText() != "proven: "+forced.Broken.Text {
		t.Errorf("settle asked %v beside a forced win; proven %+v, %q", asked, forced.Proven, forced.ProofText())
	}
	if none := run(nil, noForcedWin, seat0Wins); none.Proven != nil || none.ProofText() != "" || strings.HasPrefix(none.Headline.Text, "Proven") {
		t.Errorf("no proof: %+v %q", none.Proven, none.Headline.Text)
	}
}
