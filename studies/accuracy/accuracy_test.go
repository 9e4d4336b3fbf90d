package accuracy

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"playtest/games/gamestest"
	"playtest/variants"
)

func load(t *testing.T, preset string, sets ...variants.Override) *variants.Config {
	t.Helper()
	cfg, err := variants.Load(preset, sets)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestAccuracyAgainstNegamax (issue 55): every judged decision's value
// before and after its move equals a plain negamax's, on small boards with
// noisy and greedy bots (so that blunders happen); and the figures are the
// same on 1 and 3 workers.
func TestAccuracyAgainstNegamax(t *testing.T) {
	for _, c := range []struct {
		preset string
		sets   []variants.Override
	}{
		{"mnk/tictactoe", []variants.Override{{Path: "players", Value: "[{bot: greedy, epsilon: 0.3}, {bot: alphabeta, nodes: 200, noise: 2, noise_moves: 2}]"}}},
		{"connect4/4x4", []variants.Override{{Path: "players", Value: "[{bot: greedy, epsilon: 0.2}, {bot: alphabeta, nodes: 300}]"}}},
	} {
		cfg := load(t, c.preset, append(c.sets, variants.Override{Path: "games", Value: "24"})...)
		var logged []*Game
		res, err := Run(context.Background(), cfg, Options{Workers: 1, TableMB: 16, OnGame: func(g *Game) error { logged = append(logged, g); return nil }})
		if err != nil {
			t.Fatal(err)
		}
		g, err := cfg.NewGame()
		if err != nil {
			t.Fatal(err)
		}
		memo := map[string]int{}
		blunders, varied := 0, 0
		for _, jg := range logged {
			rec := replay(t, cfg, jg.Index)
			for _, d := range jg.Decisions {
				s := g.NewState()
				for _, text := range rec[:d.Entry] {
					m, _ := s.ParseMove(text)
					s.Apply(m)
				}
				m, _ := s.ParseMove(rec[d.Entry])
				if want := gamestest.Negamax(s, memo); d.Value != want {
					t.Fatalf("%s game %d entry %d: value %+d, negamax %+d", c.preset, jg.Index, d.Entry, d.Value, want)
				}
				mover := s.CurrentPlayer()
				s.Apply(m)
				if want := gamestest.After(s, mover, memo); d.After != want {
					t.Fatalf("%s game %d entry %d: after %+d, negamax %+d", c.preset, jg.Index, d.Entry, d.After, want)
				}
				if !d.Kept() {
					blunders++
				}
				if d.Varied {
					varied++
				}
			}
		}
		sum := 0
		for _, p := range res.Players {
			sum += p.Blunders() + p.VariedBlunders
		}
		if blunders == 0 || sum != blunders {
			t.Errorf("%s: %d blunders in the games, %d in the result (a test that cannot fail needs some)", c.preset, blunders, sum)
		}
		if c.preset == "mnk/tictactoe" && varied == 0 {
			t.Errorf("%s: no varied decision", c.preset)
		}
		three, err := Run(context.Background(), cfg, Options{Workers: 3, TableMB: 16})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, three) {
			t.Errorf("%s: 1 and 3 workers differ:\n%+v\n%+v", c.preset, res, three)
		}
	}
}

// replay returns game i's entries as the run plays it.
func replay(t *testing.T, cfg *variants.Config, i int) []string {
	t.Helper()
	res, err := playOne(cfg, i)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestStudyResumes: a study stopped after some games, its log torn, and
// resumed gives the result of one run; a different study in the same
// directory is refused.
func TestStudyResumes(t *testing.T) {
	cfg := load(t, "connect4/4x4", variants.Override{Path: "games", Value: "12"})
	opts := Options{Workers: 2, TableMB: 16}
	whole, err := Run(context.Background(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := Open(dir, cfg, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	first := opts
	first.Games = 5
	part, err := Run(context.Background(), load(t, "connect4/4x4", variants.Override{Path: "games", Value: "5"}), Options{Workers: 2, TableMB: 16, OnGame: st.Add})
	if err != nil || part.Games != 5 {
		t.Fatal(err)
	}
	st.Close()
	f, _ := os.OpenFile(filepath.Join(dir, GamesFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"index": 5, "pli`)
	f.Close()
	if _, err := Open(dir, cfg, opts, false); err == nil {
		t.Error("a second study over the first")
	}
	other := opts
	other.MinPlies = 3
	if _, err := Open(dir, cfg, other, true); err == nil {
		t.Error("a different study resumed")
	}
	st, err = Open(dir, cfg, opts, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Done) != 5 {
		t.Fatalf("resumed with %d games judged, want 5", len(st.Done))
	}
	resumed := opts
	resumed.Done, resumed.OnGame = st.Done, st.Add
	got, err := Run(context.Background(), cfg, resumed)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Finish(got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, got) {
		t.Errorf("resumed %+v, whole %+v", got, whole)
	}
	again, err := readGames(filepath.Join(dir, GamesFile), 12)
	if err != nil || len(again) != 12 {
		t.Errorf("the log holds %d games (%v)", len(again), err)
	}
}

// TestUnprovableVariantsAreRefused: chance, hidden information and
// history-dependent rules cannot be judged.
func TestUnprovableVariantsAreRefused(t *testing.T) {
	for _, preset := range []string{"stacks/base", "capstone/capstone", "stacktics/size2"} {
		if err := Check(load(t, preset)); err == nil {
			t.Errorf("%s: judged", preset)
		}
	}
}

// TestUnprovenDecisionsAreCounted: a bound too small for the early
// positions leaves them unproven, counted and said, not judged.
func TestUnprovenDecisionsAreCounted(t *testing.T) {
	// The preset before it had a book: noisy bots from the start.
	cfg := load(t, "connect4/6x5", variants.Override{Path: "games", Value: "4"}, variants.Override{Path: "book", Value: "0"},
		variants.Override{Path: "players", Value: "[{bot: alphabeta, nodes: 2000, noise: 1, noise_moves: 4}, {bot: alphabeta, nodes: 2000, noise: 1, noise_moves: 4}]"})
	res, err := Run(context.Background(), cfg, Options{Workers: 2, TableMB: 16, Nodes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unproven() == 0 || res.Players[0].Decisions+res.Players[1].Decisions == 0 {
		t.Fatalf("%d unproven, %d and %d judged", res.Unproven(), res.Players[0].Decisions, res.Players[1].Decisions)
	}
	var b strings.Builder
	if err := res.WriteTable(&b); err != nil || !strings.Contains(b.String(), "left unproven: a proof passed its bound of 2,000 positions") {
		t.Errorf("%v\n%s", err, b.String())
	}
}

// TestRepeatedGamesAreSaid: bots that always answer alike replay one game,
// and the study says its figures judge that one line; with noise the games
// differ and it says how many did.
func TestRepeatedGamesAreSaid(t *testing.T) {
	for _, c := range []struct {
		players string
		warned  bool
	}{
		{"[{bot: alphabeta, nodes: 500}, {bot: alphabeta, nodes: 500}]", true},
		{"[{bot: greedy, epsilon: 0.5}, {bot: greedy, epsilon: 0.5}]", false},
	} {
		cfg := load(t, "mnk/tictactoe", variants.Override{Path: "games", Value: "20"}, variants.Override{Path: "players", Value: c.players})
		res, err := Run(context.Background(), cfg, Options{Workers: 2, TableMB: 16})
		if err != nil {
			t.Fatal(err)
		}
		if res.Repetition == nil {
			t.Fatalf("%s: no count of the different games", c.players)
		}
		var b strings.Builder
		if err := res.WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if warned := strings.Contains(out, "Warning: only 1 of the 20 games were different") && strings.Contains(out, "The games repeat (only 1 of the 20 games were different"); warned != c.warned {
			t.Errorf("%s: %d different games, warned %v, want %v:\n%s", c.players, res.Repetition.Distinct, warned, c.warned, out)
		}
		if !c.warned && !strings.Contains(out, "games were different.") {
			t.Errorf("%s: the count of different games is not said:\n%s", c.players, out)
		}
	}
}
