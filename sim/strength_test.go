package sim_test

import (
	"context"
	"reflect"
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/capturecard"
	"playtest/games/stacks"
	"playtest/games/stacktics"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/sim/bots"
)

func spec(t *testing.T, name string, set func(bots.Params)) bots.Spec {
	t.Helper()
	d, err := bots.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p := d.NewParams()
	if set != nil {
		set(p)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return bots.Spec{Bot: name, Params: p}
}

func newGame(t *testing.T, r games.Rules) games.Game {
	t.Helper()
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mcts(iterations, rolloutCap int, evalScale float64) func(bots.Params) {
	return func(p bots.Params) {
		m := p.(*bots.MCTSParams)
		m.Iterations, m.RolloutCap, m.EvalScale = iterations, rolloutCap, evalScale
	}
}

// pairScore plays the job and returns player 0's pentanomial score.
func pairScore(t *testing.T, j *sim.Job) stats.PairScore {
	t.Helper()
	var pairs stats.PairSeries
	err := sim.Run(context.Background(), j, sim.Options{}, func(r *sim.Record) {
		pairs.Add(r.Index, r.Result.ScoreFor(r.SeatOf(0)))
	})
	if err != nil {
		t.Fatal(err)
	}
	return pairs.Score(stats.Z95)
}

// TestSearchBotsAreStrong plays seat-swapped pairs and checks, with fixed
// seeds, that search beats weaker play by a clear margin: player 0's score
// per game must be at least min and its 95% interval above ½.
func TestSearchBotsAreStrong(t *testing.T) {
	tests := []struct {
		name     string
		game     games.Rules
		a, b     bots.Spec
		games    int
		minScore float64
	}{
		{"stacktics mcts beats random", stacktics.DefaultRules(), spec(t, "mcts", mcts(200, 6, 3)), spec(t, "random", nil), 20, 0.8},
		{"capstone ismcts beats random", capstone.DefaultRules(), spec(t, "ismcts", mcts(300, 3, 3)), spec(t, "random", nil), 20, 0.8},
		{"stacks ismcts beats random", stacks.DefaultRules(), spec(t, "ismcts", mcts(100, 0, 10)), spec(t, "random", nil), 20, 0.8},
		{"capturecard mcts beats random", capturecard.DefaultRules(), spec(t, "mcts", mcts(50, 20, 10)), spec(t, "random", nil), 20, 0.8},
		{"stacktics alphabeta beats greedy", stacktics.DefaultRules(), spec(t, "alphabeta", func(p bots.Params) { p.(*bots.AlphaBetaParams).Nodes = 2000 }), spec(t, "greedy", nil), 20, 0.75},
		{"stacktics: a larger mcts budget beats a smaller one", stacktics.DefaultRules(), spec(t, "mcts", mcts(400, 6, 3)), spec(t, "mcts", mcts(25, 6, 3)), 40, 0.65},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			j := &sim.Job{Game: newGame(t, tt.game), Players: [2]bots.Spec{tt.a, tt.b}, Games: tt.games, Seed: 11, Pairs: true}
			s := pairScore(t, j)
			t.Logf("%s %v vs %s: score %.3f [%.3f, %.3f] over %d pairs %v", tt.a.Bot, tt.a.Params, tt.b.Bot, s.Score, s.CI.Low, s.CI.High, s.Pairs, s.Counts)
			if s.Score < tt.minScore || s.CI.Low <= 0.5 {
				t.Errorf("score %.3f [%.3f, %.3f], want at least %.2f with the interval above ½", s.Score, s.CI.Low, s.CI.High, tt.minScore)
			}
		})
	}
}

// TestSearchIsDeterministic runs search bots with 1 and 3 workers: every
// record must be the same. On the hidden-information games alphabeta
// searches re-sampled worlds (worlds:), drawn from its own stream.
func TestSearchIsDeterministic(t *testing.T) {
	for _, g := range []games.Rules{stacktics.DefaultRules(), stacks.DefaultRules(), capstone.DefaultRules()} {
		game := newGame(t, g)
		j := &sim.Job{Game: game, Players: [2]bots.Spec{spec(t, "mcts", mcts(50, 6, 3)), spec(t, "ismcts", mcts(50, 0, 10))}, Games: 8, Seed: 5, Pairs: true}
		switch game.Name() {
		case "stacktics":
			j.Players[1] = spec(t, "alphabeta", func(p bots.Params) { p.(*bots.AlphaBetaParams).Nodes = 500 })
		case "capstone":
			j.Players[0] = spec(t, "alphabeta", func(p bots.Params) { p.(*bots.AlphaBetaParams).Nodes, p.(*bots.AlphaBetaParams).Worlds = 800, 4 })
		}
		var runs [2][]sim.Record
		for i, workers := range []int{1, 3} {
			if err := sim.Run(context.Background(), j, sim.Options{Workers: workers}, func(r *sim.Record) { runs[i] = append(runs[i], *r) }); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(runs[0], runs[1]) {
			t.Errorf("%s: records differ between 1 and 3 workers", game.Name())
		}
	}
}
