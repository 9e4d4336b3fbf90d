package rundir

import (
	"context"
	"testing"

	"playtest/games"
	"playtest/games/prove"
	"playtest/sim"
	"playtest/variants"
)

// TestDecidedTracesAreProofs (issue 58, "decided, then undecided"): a
// trace entry at ±TraceDecided is a search's claim of a forced result, and
// each is checked against the prover's history-aware proof (repetition
// rule included). The games are the six of `playtest run stacktics/size2
// --games 2000 --seed 9001` whose traces read 100% and were then taken
// back, with no claim made good: every claim is a true forced win within
// six decisions, which the winning side's bot (2,000 nodes, a fresh table)
// did not find and the losing side's (its table warm from its earlier
// decisions) did. The trace is right about perfect play; the bots are
// what fell short.
func TestDecidedTracesAreProofs(t *testing.T) {
	cfg, err := variants.Load("stacktics/size2", []variants.Override{{Path: "games", Value: "2000"}, {Path: "seed", Value: "9001"}})
	if err != nil {
		t.Fatal(err)
	}
	job, err := Job(cfg)
	if err != nil {
		t.Fatal(err)
	}
	job.Moves, job.Trace = true, cfg.Games
	checked := 0
	for _, i := range []int{663, 1069, 1313, 1323, 1364, 1431} {
		rec, err := sim.Replay(context.Background(), job, i, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := job.Game.NewState()
		for k, text := range rec.Moves {
			if k < len(rec.Trace) && (rec.Trace[k] == sim.TraceDecided || rec.Trace[k] == -sim.TraceDecided) {
				claimed := games.Seat0
				if rec.Trace[k] < 0 {
					claimed = games.Seat1
				}
				pf, _ := prove.Within(s.Clone(), 12)
				if pf == nil || pf.Winner != claimed {
					t.Errorf("game %d, decision %d: the trace claims %v wins by force; the prover within 12 decisions finds %+v", i, k, claimed, pf)
				}
				checked++
			}
			m, err := s.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			s.Apply(m)
		}
	}
	if checked < 6 {
		t.Errorf("%d decided entries checked in the six games, want at least 6 (the bots changed: pick games with claims again)", checked)
	}
}
