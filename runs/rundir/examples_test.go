package rundir

import (
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/sim"
)

// TestExampleSelection feeds a stream of games and checks the picks: the
// shortest and longest win, the stalled game, the shortest win by the
// seat that won less often, and a median game of each ending, each once.
func TestExampleSelection(t *testing.T) {
	rec := func(i, plies int, w games.Player, reason string) *sim.Record {
		return &sim.Record{Index: i, Plies: plies, Result: games.Result{Winner: w, Reason: reason}}
	}
	stream := []*sim.Record{
		rec(0, 20, games.Seat0, "score"), rec(1, 5, games.Seat0, "score"), rec(2, 40, games.Seat0, "score"),
		rec(3, 30, games.Seat1, "score"), rec(4, 300, games.NoPlayer, games.ReasonMaxPlies),
		rec(5, 25, games.Seat1, "resign"), rec(6, 22, games.Seat0, "score"), rec(7, 22, games.Seat0, "score"),
	}
	x := newSelection()
	for _, r := range stream {
		x.see(r)
	}
	x.typicals()
	picks := x.picks()
	var got []int
	for _, p := range picks {
		got = append(got, p.index)
	}
	// shortest win 1, longest 2, stalled 4, seat 1's shortest win 5, then
	// the first median score game (lengths 5 20 22 22 30 40: 22, game 6,
	// not 7); game 4 and 5 are already in.
	if want := []int{1, 2, 4, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("picks %v, want %v (%+v)", got, want, picks)
	}
	if !strings.Contains(picks[3].label, "seat1, the seat that won less often") || !strings.Contains(picks[4].label, "ended by score (6 of 8 games)") {
		t.Errorf("labels %+v", picks)
	}
}
