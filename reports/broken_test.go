package reports

import (
	"strings"
	"testing"

	"playtest/games"
	"playtest/sim"
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
