package script

import (
	"os"
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/games/stacktics"
)

// load loads a script from configs/scripts and builds its game with the
// knobs given.
func load(t testing.TB, file string, knobs map[string]any) games.Game {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(file, src)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.NewRules()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range knobs {
		if err := r.SetKnob(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The scripted tic-tac-toe counts the published move sequences.
func TestTicTacToePerft(t *testing.T) {
	g := load(t, "../../configs/scripts/tictactoe.star", nil)
	want := []uint64{1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872}
	for d := 1; d <= 6; d++ {
		if got := games.Perft(g.NewState(), d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
}

// The scripted Stacktics is the Go engine's game move for move: perft
// equal from the start at every depth the engine's own perft tests use
// (4 for size 2), and along random games the same legal moves (by
// notation) and perft 3 from positions along the way.
func TestStackticsScriptMatchesEngine(t *testing.T) {
	script := load(t, "../../configs/scripts/stacktics.star", nil)
	r := stacktics.DefaultRules()
	r.Size = 2
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	engine, err := r.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	depth := 4
	if testing.Short() {
		depth = 3
	}
	for d := 1; d <= depth; d++ {
		if got, want := games.Perft(script.NewState(), d), games.Perft(engine.NewState(), d); got != want {
			t.Fatalf("perft(%d): script %d, engine %d", d, got, want)
		}
	}
	rng := pcg.New(5, 9)
	for trial := range 6 {
		s, e := script.NewState(), engine.NewState()
		for ply := 0; !e.IsTerminal() && ply < 40; ply++ {
			got, want := notations(s), notations(e)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d ply %d: script moves %v, engine %v\n%s", trial, ply, got, want, e)
			}
			if ply%10 == 5 {
				if a, b := games.Perft(s, 3), games.Perft(e, 3); a != b {
					t.Fatalf("trial %d ply %d: perft(3) script %d, engine %d", trial, ply, a, b)
				}
			}
			text := want[rng.IntN(len(want))]
			ms, err1 := s.ParseMove(text)
			me, err2 := e.ParseMove(text)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			s.Apply(ms)
			e.Apply(me)
		}
		if s.IsTerminal() != e.IsTerminal() || e.IsTerminal() && s.Result() != e.Result() {
			t.Fatalf("trial %d: script ends %v %+v, engine %v %+v", trial, s.IsTerminal(), s.Result(), e.IsTerminal(), e.Result())
		}
	}
}

// notations lists a state's legal moves in its notation, sorted.
func notations(s games.State) []string {
	var out []string
	for _, m := range s.LegalMoves(nil) {
		out = append(out, s.MoveString(m))
	}
	slices.Sort(out)
	return out
}

// The conformance suite every game runs, on both example scripts, with
// only the allocation checks waived (and said so).
func TestConformance(t *testing.T) {
	for _, c := range []struct {
		file  string
		games int
	}{
		{"../../configs/scripts/tictactoe.star", 200},
		{"../../configs/scripts/stacktics.star", 40},
	} {
		t.Run(c.file[len("../../configs/scripts/"):], func(t *testing.T) {
			gamestest.Run(t, load(t, c.file, nil), gamestest.Options{Games: c.games, Seed: 3, Interpreted: true})
		})
	}
}

// States of one scripted game played on several goroutines at once share
// the game (its script, its key table) and nothing else: the same games
// come out as on one.
func TestConcurrentStates(t *testing.T) {
	g := load(t, "../../configs/scripts/stacktics.star", nil)
	play := func(seed uint64) string {
		s := g.NewState()
		rng := pcg.New(seed, 1)
		var moves []games.Move
		var line []byte
		for !s.IsTerminal() {
			moves = s.LegalMoves(moves[:0])
			m := moves[rng.IntN(len(moves))]
			line = append(line, s.MoveString(m)...)
			s.(games.Keyer).AppendKey(nil)
			s.Apply(m)
		}
		return string(line)
	}
	want := make([]string, 8)
	for i := range want {
		want[i] = play(uint64(i))
	}
	got := make([]string, len(want))
	done := make(chan int)
	for i := range got {
		go func() { got[i] = play(uint64(i)); done <- i }()
	}
	for range got {
		<-done
	}
	if !slices.Equal(got, want) {
		t.Error("games played concurrently differ from the same games played one by one")
	}
}

// A scripted game of hidden information: chance deals what one seat sees
// and the other does not, determinize re-samples it with the host's
// stream, and the conformance suite checks what each seat sees is kept.
func TestHiddenInformation(t *testing.T) {
	g := load(t, "testdata/guess.star", nil)
	gamestest.Run(t, g, gamestest.Options{Games: 200, Seed: 4, Interpreted: true})
	s := g.NewState()
	if s.CurrentPlayer() != games.Chance || len(s.ChanceOutcomes(nil)) != 3 || s.ChanceOutcomes(nil)[2].Weight != 2 {
		t.Fatalf("the deal: %v %v", s.CurrentPlayer(), s.ChanceOutcomes(nil))
	}
	s.Apply(0)
	s.Apply(0) // go
	s.Apply(0) // ready
	if _, ok := s.(games.Determinizer); !ok {
		t.Fatal("no Determinizer")
	}
	seen := map[string]bool{}
	rng := pcg.New(1, 2)
	for range 40 {
		c := s.Clone()
		c.(games.Determinizer).Determinize(games.Seat0, rng)
		seen[c.String()] = true
	}
	if len(seen) != 3 {
		t.Errorf("determinising seat 0 gave %d different secrets, want 3", len(seen))
	}
}
