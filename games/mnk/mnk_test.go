package mnk

import (
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/inarow"
)

func newGame(t testing.TB, r Rules) *Game {
	t.Helper()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return New(r)
}

// The conformance suite: random games to the end with the invariants after
// every decision, legal moves, notation, clones, keys, zero allocations.
func TestConformance(t *testing.T) {
	for _, r := range []Rules{{Rows: 3, Cols: 3, K: 3}, {Rows: 4, Cols: 4, K: 4}, {Rows: 6, Cols: 7, K: 4}, {Rows: 8, Cols: 8, K: 5}, {Rows: 1, Cols: 5, K: 2},
		{Rows: 3, Cols: 3, K: 3, PieRule: true}, {Rows: 5, Cols: 5, K: 4, PieRule: true}} {
		gamestest.Run(t, newGame(t, r), gamestest.Options{Games: 300, Seed: 5})
	}
}

// Perft of tic-tac-toe (3, 3, 3), the published counts of move sequences
// by length (a game that ends early stops counting): 255,168 games in all.
func TestPerftTicTacToe(t *testing.T) {
	want := []uint64{1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872}
	s := newGame(t, Rules{Rows: 3, Cols: 3, K: 3}).NewState()
	for d, w := range want {
		if got := games.Perft(s, d); got != w {
			t.Errorf("perft(%d) = %d, want %d", d, got, w)
		}
	}
}

// The rules, table-driven: what ends a game and how.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rules  Rules
		moves  []string
		winner games.Player
		reason string
	}{
		{"a row", Rules{Rows: 3, Cols: 3, K: 3}, []string{"a1", "a2", "b1", "b2", "c1"}, games.Seat0, inarow.ReasonLine},
		{"a column", Rules{Rows: 3, Cols: 3, K: 3}, []string{"a1", "b1", "a2", "b2", "c3", "b3"}, games.Seat1, inarow.ReasonLine},
		{"a diagonal", Rules{Rows: 3, Cols: 3, K: 3}, []string{"a1", "a2", "b2", "a3", "c3"}, games.Seat0, inarow.ReasonLine},
		{"an anti-diagonal", Rules{Rows: 3, Cols: 3, K: 3}, []string{"c1", "a1", "b2", "b1", "a3"}, games.Seat0, inarow.ReasonLine},
		{"a full board", Rules{Rows: 3, Cols: 3, K: 3}, []string{"a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"}, games.NoPlayer, inarow.ReasonFull},
		{"k 2 on a line", Rules{Rows: 1, Cols: 4, K: 2}, []string{"a1", "c1", "b1"}, games.Seat0, inarow.ReasonLine},
	} {
		s := newGame(t, tc.rules).NewState()
		for _, text := range tc.moves {
			if s.IsTerminal() {
				t.Fatalf("%s: over before %s", tc.name, text)
			}
			m, err := s.ParseMove(text)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			s.Apply(m)
		}
		if r := s.Result(); !s.IsTerminal() || r.Winner != tc.winner || r.Reason != tc.reason {
			t.Errorf("%s: %+v (over %v), want %v by %s", tc.name, r, s.IsTerminal(), tc.winner, tc.reason)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, r := range []Rules{{Rows: 0, Cols: 3, K: 3}, {Rows: 3, Cols: 9, K: 3}, {Rows: 3, Cols: 3, K: 4}, {Rows: 3, Cols: 3, K: 1}} {
		if err := r.Validate(); err == nil {
			t.Errorf("%+v accepted", r)
		}
	}
}

// The restrictions name the centre and the corners.
func TestRestrictions(t *testing.T) {
	g := newGame(t, Rules{Rows: 3, Cols: 3, K: 3})
	s := g.NewState()
	for _, x := range g.Restrictions() {
		var allowed []string
		for _, m := range s.LegalMoves(nil) {
			if x.Allowed(s, m) {
				allowed = append(allowed, s.MoveString(m))
			}
		}
		want := map[string][]string{"no-centre": {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}, "no-corner": {"b1", "a2", "b2", "c2", "b3"},
			"no-swap": {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}}[x.Name]
		if !slices.Equal(allowed, want) {
			t.Errorf("%s allows %v, want %v", x.Name, allowed, want)
		}
	}
}

// FuzzPlay plays the moves a fuzzer's bytes choose on a board its first
// bytes shape, checking the invariants and the notation after every move
// (go test ./games/mnk -run '^$' -fuzz FuzzPlay runs it longer).
func FuzzPlay(f *testing.F) {
	f.Add([]byte{3, 3, 3, 4, 0, 1, 2, 3, 4, 5})
	f.Add([]byte{8, 8, 5, 200, 17, 3, 99})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		r := Rules{Rows: 1 + int(data[0])%MaxSide, Cols: 1 + int(data[1])%MaxSide}
		r.K = 2 + int(data[2])%max(max(r.Rows, r.Cols)-1, 1)
		if r.Validate() != nil {
			return
		}
		s := New(r).NewState()
		var legal []games.Move
		for _, b := range data[3:] {
			if s.IsTerminal() {
				break
			}
			legal = s.LegalMoves(legal[:0])
			m := legal[int(b)%len(legal)]
			if back, err := s.ParseMove(s.MoveString(m)); err != nil || back != m {
				t.Fatalf("%s reads back as %v, %v", s.MoveString(m), back, err)
			}
			s.Apply(m)
			if err := s.(*State).CheckInvariants(); err != nil {
				t.Fatalf("after %s: %v\n%s", s.MoveString(m), err, s)
			}
		}
	})
}

// The pie rule: after the first stone seat 1 keeps (and places) or swaps
// (the stone becomes its own, and seat 0 places again): perft counts both.
func TestPieRule(t *testing.T) {
	g := newGame(t, Rules{Rows: 3, Cols: 3, K: 3, PieRule: true})
	for d, want := range []uint64{1, 9, 18, 144} {
		if got := games.Perft(g.NewState(), d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
	s := g.NewState()
	for _, text := range []string{"b2", "swap", "a1"} {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(m)
	}
	st := s.(*State)
	if st.Stones[1] != 1<<4 || st.Stones[0] != 1 || st.ToMove != games.Seat1 {
		t.Errorf("after b2 swap a1: seat 0 %#x, seat 1 %#x, %v to move; want a1, b2, seat 1", st.Stones[0], st.Stones[1], st.ToMove)
	}
	var ms []games.Metric
	for _, text := range []string{"c3", "a2", "c1", "a3"} { // seat 0 makes a1 a2 a3
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(m)
	}
	ms = s.(games.Metrics).AppendMetrics(ms)
	if r := s.Result(); r.Winner != games.Seat0 || !slices.Contains(ms, games.Rate(games.MetricPieSwap, true)) || !slices.Contains(ms, games.Rate(games.MetricPieSwapSeat1Wins, false)) {
		t.Errorf("result %+v, metrics %v", r, ms)
	}
	// The swap is a decision, not a ply: six stones, six plies
	// (docs/rules/inarow.md).
	if s.Plies() != 6 {
		t.Errorf("%d plies after six stones and a swap", s.Plies())
	}
	// A draw after a keep counts as a game seat 1 did not win.
	d := g.NewState()
	for _, text := range []string{"b2", "keep", "a1", "c3", "c1", "a3", "a2", "c2", "b3", "b1"} {
		m, err := d.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		d.Apply(m)
	}
	if r := d.Result(); !d.IsTerminal() || r.Winner != games.NoPlayer || d.Plies() != 9 {
		t.Fatalf("a full board: %+v after %d plies", r, d.Plies())
	}
	if ms := d.(games.Metrics).AppendMetrics(nil); !slices.Contains(ms, games.Rate(games.MetricPieKeepSeat1Wins, false)) {
		t.Errorf("a draw after a keep: %v", ms)
	}
}
