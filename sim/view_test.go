package sim

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/capstone"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/games/stacks"
	"playtest/sim/bots"
)

// spy plays the first legal move and logs what it was shown.
type spy struct {
	seat games.Player
	log  *[]string
	obs  *[]string
}

func (b *spy) Reset(seat games.Player, _ *pcg.Rand) { b.seat = seat }

func (b *spy) Choose(s games.State, legal []games.Move) games.Move {
	*b.log = append(*b.log, s.String())
	*b.obs = append(*b.obs, s.(gamestest.Observer).ObservationString(b.seat))
	return legal[0]
}

// TestBotsSeeOnlyTheirSeat runs spies through the runner on Capstone
// (hidden goals) and STACKS (hidden hands), replays the same games outside
// the runner, and compares what each spy was shown with the truth: what its
// seat can see must be intact, and the hidden part must be re-sampled, so
// that the shown state is mostly not the true one. A runner that handed
// bots the true state fails.
func TestBotsSeeOnlyTheirSeat(t *testing.T) {
	var log, obs []string
	bots.All = append(bots.All, bots.Definition{
		Name: "spy", NewParams: func() bots.Params { return &bots.NoParams{} },
		New: func(games.Game, bots.Params) bots.Bot { return &spy{log: &log, obs: &obs} },
	})
	defer func() { bots.All = bots.All[:len(bots.All)-1] }()

	capRules, stackRules := capstone.DefaultRules(), stacks.DefaultRules()
	for _, r := range []games.Rules{capRules, stackRules} {
		g, err := r.NewGame()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(g.Name(), func(t *testing.T) {
			log, obs = nil, nil
			spec := bots.Spec{Bot: "spy", Params: &bots.NoParams{}}
			j := &Job{Game: g, Players: [2]bots.Spec{spec, spec}, Games: 6, Seed: 9, Pairs: true}
			if err := Run(context.Background(), j, Options{Workers: 1}, func(*Record) {}); err != nil {
				t.Fatal(err)
			}
			// Replay the games: chance from the same streams, first moves.
			decision, same := 0, 0
			var outcomes []games.ChanceOutcome
			for i := range j.Games {
				deal, _ := j.Seating(i)
				chance := ChanceStream(j.Seed, deal)
				s := g.NewState()
				for !s.IsTerminal() {
					if s.CurrentPlayer() == games.Chance {
						outcomes = s.ChanceOutcomes(outcomes[:0])
						s.Apply(games.SampleChance(outcomes, chance))
						continue
					}
					seat := s.CurrentPlayer()
					if want := s.(gamestest.Observer).ObservationString(seat); obs[decision] != want {
						t.Fatalf("game %d decision %d: the bot was shown\n%s\nbut its seat sees\n%s", i, decision, obs[decision], want)
					}
					if log[decision] == s.String() {
						same++
					}
					decision++
					s.Apply(s.LegalMoves(nil)[0])
				}
			}
			if decision != len(log) {
				t.Fatalf("replayed %d decisions, the spies made %d", decision, len(log))
			}
			if same*2 > decision {
				t.Errorf("the bots were shown the true state in %d of %d decisions: hidden information leaks", same, decision)
			}
			t.Logf("%d decisions, %d shown the true state (by chance of the re-sampling)", decision, same)
		})
	}
}

// TestOpeningSkipsSetup plays Capstone with goal_order bot, whose first
// seat decisions order the goals: the opening must be the first placement,
// not a goal piece.
func TestOpeningSkipsSetup(t *testing.T) {
	r := capstone.DefaultRules()
	r.GoalOrder = capstone.GoalOrderBot
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	spec := bots.Spec{Bot: "random", Params: &bots.NoParams{}}
	j := &Job{Game: g, Players: [2]bots.Spec{spec, spec}, Games: 4, Seed: 3}
	n := 0
	err = Run(context.Background(), j, Options{Workers: 1}, func(rec *Record) {
		n++
		if !strings.Contains(rec.Opening, "@") || strings.HasPrefix(rec.Opening, "goal:") {
			t.Errorf("game %d: opening %q, want a placement", rec.Index, rec.Opening)
		}
	})
	if err != nil || n != 4 {
		t.Fatalf("%d games, %v", n, err)
	}
}

// TestWorldsPlayAlikeAtAnyWorkerCount (issue 57): the bots that sample
// worlds (alphabeta over worlds, ismcts), with and without the opponent
// model, play the same Capstone games, traces included, at 1 and 2
// workers: every world comes from the bot's own stream.
func TestWorldsPlayAlikeAtAnyWorkerCount(t *testing.T) {
	g, err := capstone.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	ab := &bots.AlphaBetaParams{Nodes: 800, Quiescence: true, Tactics: true, Worlds: 4, Inference: bots.Inference{Infer: 1.8}}
	is := bots.DefaultMCTSParams()
	is.Iterations, is.RolloutCap, is.Inference = 200, 3, bots.Inference{Infer: 1.8}
	plain := *ab
	plain.Infer = 0
	for _, players := range [][2]bots.Spec{
		{{Bot: "alphabeta", Params: ab}, {Bot: "ismcts", Params: is}},
		{{Bot: "alphabeta", Params: &plain}, {Bot: "alphabeta", Params: ab}},
	} {
		j := &Job{Game: g, Games: 6, Seed: 9, Pairs: true, Trace: 6, Players: players}
		one := collect(t, j, 1)
		if two := collect(t, j, 2); !reflect.DeepEqual(one, two) {
			t.Errorf("%s against %s: 1 and 2 workers played different games", players[0], players[1])
		}
	}
}
