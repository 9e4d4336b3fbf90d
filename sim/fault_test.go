package sim

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
)

// TestPanicCostsOneGame runs a game engine that panics in some games: each
// failed game comes back with its seed, index and moves, the others are
// played as without the fault, and the failures are the same on any number
// of workers.
func TestPanicCostsOneGame(t *testing.T) {
	good := job(t, 120, "random", "random")
	good.Game = listOnly{good.Game} // as the wrapper, no optional interface
	bad := job(t, 120, "random", "random")
	bad.Game = gamestest.Faulty(bad.Game, 7, 11)
	want := collect(t, good, 2)
	var failed []int
	for _, workers := range []int{1, 4} {
		got := collect(t, bad, workers)
		var idx []int
		for i, r := range got {
			if r.Err == nil {
				w := want[i] // the wrapper hides the sides and metrics
				w.Sides, w.Metrics = nil, nil
				if !reflect.DeepEqual(r, w) {
					t.Fatalf("game %d played differently beside the fault", i)
				}
				continue
			}
			idx = append(idx, i)
			e := r.Err
			if e.Index != i || e.Seed != 42 || !strings.Contains(e.Message, "panic: forced engine fault") || len(e.Moves) != 7 || e.Stack == "" {
				t.Errorf("game %d's error: %+v", i, e)
			}
			if want[i].Plies < 7 {
				t.Errorf("game %d failed on ply 7 but lasts %d plies", i, want[i].Plies)
			}
		}
		if failed == nil {
			failed = idx
		} else if !reflect.DeepEqual(failed, idx) {
			t.Errorf("failed games %v with 1 worker, %v with 4", failed, idx)
		}
	}
	if len(failed) == 0 || len(failed) > 60 {
		t.Fatalf("%d of 120 games failed; the fault should strike a few", len(failed))
	}
	// The failing move is the last one listed, in the game's notation, and
	// the game replays alone to the same failure.
	r, err := Replay(context.Background(), bad, failed[0], nil)
	if err != nil || r.Err == nil || !reflect.DeepEqual(r.Err.Moves, func() []string {
		rs := collect(t, bad, 1)
		return rs[failed[0]].Err.Moves
	}()) {
		t.Errorf("replay of game %d: %+v, %v", failed[0], r, err)
	}
	t.Logf("%d of 120 games failed: %v", len(failed), failed)
}

// TestReplayMatchesRun checks that Replay plays a game exactly as Run did,
// showing every decision to the observer, and that Moves keeps them.
func TestReplayMatchesRun(t *testing.T) {
	j := job(t, 10, "greedy", "random")
	j.Moves = true
	recs := collect(t, j, 3)
	for _, i := range []int{0, 7} {
		var seen []string
		r, err := Replay(context.Background(), j, i, func(s games.State, who games.Player, m games.Move) { seen = append(seen, s.MoveString(m)) })
		if err != nil || !reflect.DeepEqual(*r, recs[i]) || !reflect.DeepEqual(seen, recs[i].Moves) || len(seen) != r.Decisions {
			t.Errorf("game %d: replay %+v (%v), run %+v", i, r, err, recs[i])
		}
	}
	if _, err := Replay(context.Background(), j, 10, nil); err == nil {
		t.Error("replayed a game beyond the run")
	}
}
