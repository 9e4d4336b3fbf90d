package sim

import (
	"context"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/stacktics"
	"playtest/sim/bots"
)

// A restricted player never plays a move its restriction forbids, with
// any bot, except at a decision whose every move it forbids (lifted, and
// counted in the record); the unrestricted player is left alone.
func TestRestrictedPlayers(t *testing.T) {
	r := stacktics.DefaultRules()
	r.Size, r.Board = 2, &stacktics.Board{Rows: 4, Cols: 4}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	mcts := bots.DefaultMCTSParams()
	mcts.Iterations = 60
	for _, spec := range []bots.Spec{
		{Bot: "random", Params: &bots.RandomParams{}},
		{Bot: "greedy", Params: &bots.GreedyParams{}},
		{Bot: "alphabeta", Params: &bots.AlphaBetaParams{Nodes: 300, Quiescence: true, Tempo: 0.3}},
		{Bot: "mcts", Params: mcts},
	} {
		held, err := spec.WithRestriction(bots.Restrict{Forbid: "x"})
		if err != nil {
			t.Fatal(err)
		}
		job := &Job{Game: g, Players: [2]bots.Spec{spec, held}, Games: 6, Seed: 5, Pairs: true}
		theirs := 0
		for i := range job.Games {
			var legal []games.Move
			lifted := 0
			rec, err := Replay(context.Background(), job, i, func(s games.State, who games.Player, m games.Move) {
				if who == games.Chance {
					return
				}
				text := s.MoveString(m)
				if rec := (&Record{Swapped: i%2 == 1}); rec.PlayerOf(who) == 0 {
					if strings.Contains(text, "x") {
						theirs++
					}
					return
				}
				if !strings.Contains(text, "x") {
					return
				}
				legal = s.LegalMoves(legal[:0])
				for _, l := range legal {
					if !strings.Contains(s.MoveString(l), "x") {
						t.Fatalf("%s game %d: the restricted player played %s with %s allowed", spec.Bot, i, text, s.MoveString(l))
					}
				}
				lifted++
			})
			if err != nil {
				t.Fatal(err)
			}
			if rec.Lifted != lifted {
				t.Errorf("%s game %d: %d decisions lifted, the record says %d", spec.Bot, i, lifted, rec.Lifted)
			}
		}
		if theirs == 0 {
			t.Errorf("%s: the unrestricted player never captured in 6 games: the test cannot tell it apart", spec.Bot)
		}
	}
}
