package script

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/games/prove"
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

// compile builds the game of a script's source with its default knobs,
// the load's, the rules' and the game's errors alike.
func compile(name string, src []byte) (games.Game, error) {
	s, err := Load(name, src)
	if err != nil {
		return nil, err
	}
	r, err := s.NewRules()
	if err != nil {
		return nil, err
	}
	return r.NewGame()
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
			if s.Plies() != e.Plies() {
				t.Fatalf("trial %d: the script counts %d plies, the engine %d (a pie decision is no ply)", trial, s.Plies(), e.Plies())
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d ply %d: script moves %v, engine %v\n%s", trial, ply, got, want, e)
			}
			if ply%10 == 5 {
				if a, b := games.Perft(s, 3), games.Perft(e, 3); a != b {
					t.Fatalf("trial %d ply %d: perft(3) script %d, engine %d", trial, ply, a, b)
				}
			}
			text := want[rng.IntN(len(want))]
			playBoth(t, s, e, text)
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

// The scripted Stacktics refuses what the Go engine refuses (issue 53).
func TestStackticsScriptRefusesWhatTheEngineRefuses(t *testing.T) {
	src, err := os.ReadFile("../../configs/scripts/stacktics.star")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load("stacktics.star", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		knobs map[string]any
		knob  string
	}{
		{map[string]any{"repetition": 1}, "repetition"},
		{map[string]any{"size": 1, "start_columns": []any{1}}, "size"},
		{map[string]any{"rows": 10, "cols": 10}, "rows"},
		{map[string]any{"rows": 4, "cols": 9}, "cols"},
		{map[string]any{"start_columns": []any{1, 1}}, "start_columns"},
		{map[string]any{"loaded_range": 0}, "loaded_range"},
		{map[string]any{"max_plies": 0}, "max_plies"},
	} {
		r, err := s.NewRules()
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.knobs {
			if err := r.SetKnob(k, v); err != nil {
				t.Fatal(err)
			}
		}
		var ke *games.KnobError
		if err := r.Validate(); !errors.As(err, &ke) || ke.Knob != c.knob {
			t.Errorf("%v: %v, want an error naming %s", c.knobs, err, c.knob)
		}
	}
}

// A script whose games never end is ended by the host after MAX_PLIES
// decisions (DefaultMaxPlies), a draw for max-plies: a stalled game
// (issue 53). playtest solve plays without the cap.
func TestStallingScriptEndsAtTheCap(t *testing.T) {
	for _, c := range []struct {
		extra string
		cap   int
	}{{"", DefaultMaxPlies}, {"MAX_PLIES = 40\n", 40}} {
		s, err := Load("stall.star", []byte(c.extra+`
def start(knobs):
    return 0
def turn(state):
    return 0
def moves(state):
    return [1, 2]
def play(state, move):
    return state
def result(state):
    return None
`))
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.NewRules()
		if err != nil {
			t.Fatal(err)
		}
		g, err := r.NewGame()
		if err != nil {
			t.Fatal(err)
		}
		st := g.NewState()
		for n := 0; !st.IsTerminal(); n++ {
			if n > c.cap {
				t.Fatalf("still going after %d plies", n)
			}
			st.Apply(0)
		}
		if res := st.Result(); st.Plies() != c.cap || res.Winner != games.NoPlayer || !games.IsStalled(res.Reason) {
			t.Errorf("ended after %d plies with %+v, want a stalled draw after %d", st.Plies(), res, c.cap)
		}
		solver, err := r.ForSolver().NewGame()
		if err != nil {
			t.Fatal(err)
		}
		st = solver.NewState()
		for range c.cap + 5 {
			st.Apply(0)
		}
		if st.IsTerminal() {
			t.Error("the solver's rules end the game at the cap")
		}
	}
}

// A report's short proof searches a scripted game's positions a hundred
// times fewer than a built-in game's (games.InterpretedProofNodes): about
// a second of them, not a minute (issue 53).
func TestShortProofOfAScriptIsBounded(t *testing.T) {
	g, err := compile("tree.star", []byte(`
def start(knobs):
    return ()
def turn(state):
    return len(state) % 2
def moves(state):
    return [0, 1, 2, 3]
def play(state, move):
    return state + (move,)
def result(state):
    return "draw" if len(state) >= 30 else None
def key(state):
    return str(state)
`))
	if err != nil {
		t.Fatal(err)
	}
	// 4^16 lines of 16 decisions, every one a draw: alpha-beta's least
	// proof visits about 2·4^8 positions, within ProofNodes and past the
	// interpreted bound; 4^8 lines need a few hundred.
	if pf, searched := prove.Within(g.NewState(), 16); pf != nil || searched {
		t.Errorf("a proof over 4^16 scripted lines: %v, searched %v; want it given up", pf, searched)
	}
	if _, searched := prove.Within(g.NewState(), 8); !searched {
		t.Error("a proof over 4^8 scripted lines was given up")
	}
}

// Numbers a script hands the search bots and learn must be finite, and
// SOLVER_KNOBS must name the script's knobs (issue 53).
func TestScriptNumbersAndSolverKnobs(t *testing.T) {
	base := `
KNOBS = {"n": 3}
def start(knobs):
    return 0
def turn(state):
    return 0
def moves(state):
    return [1]
def play(state, move):
    return state + 1
def result(state):
    return None if state < 3 else "draw"
`
	build := func(extra string) (games.Game, error) {
		s, err := Load("numbers.star", []byte(base+extra))
		if err != nil {
			return nil, err
		}
		if _, err := s.Definition(); err != nil {
			return nil, err
		}
		r, err := s.NewRules()
		if err != nil {
			return nil, err
		}
		return r.NewGame()
	}
	for _, c := range []struct{ extra, want string }{
		{`FEATURES = ["a"]
FEATURE_WEIGHTS = [float("nan")]
def features(state, seat):
    return [1]`, "FEATURE_WEIGHTS[0] is nan: want a finite number"},
		{`SOLVER_KNOBS = {"nope": 1}`, "SOLVER_KNOBS names \"nope\", which is not a knob"},
		{`SOLVER_KNOBS = {"n": "x"}`, "SOLVER_KNOBS[\"n\"] is \"x\": want a value of type int"},
		{`MAX_PLIES = 0`, "MAX_PLIES is 0"},
	} {
		if _, err := build(c.extra); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.extra, err, c.want)
		}
	}
	for _, c := range []struct{ extra, want string }{
		{`def evaluate(state, seat):
    return float("inf")`, "evaluate(): returned +inf: want a finite number"},
		{`FEATURES = ["a"]
def features(state, seat):
    return [float("-inf")]`, "features(): returned -inf for a: want a finite number"},
	} {
		g, err := build(c.extra)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				p := recover()
				if err, ok := p.(error); !ok || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: %v, want %q", c.extra, p, c.want)
				}
			}()
			g.NewState().(games.Heuristic).Evaluate(games.Seat0)
		}()
	}
}

// playBoth plays the move written text in the script's state s and the
// engine's state e alike.
func playBoth(t *testing.T, s, e games.State, text string) {
	t.Helper()
	ms, err1 := s.ParseMove(text)
	me, err2 := e.ParseMove(text)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	s.Apply(ms)
	e.Apply(me)
}
