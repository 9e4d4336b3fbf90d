package connect4

import (
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/inarow"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

func newGame(t testing.TB, r Rules) *Game {
	t.Helper()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return New(r)
}

var standard = Rules{Cols: 7, Rows: 6, K: 4}

// The conformance suite on the standard board, small ones and the pie
// rule.
func TestConformance(t *testing.T) {
	for _, r := range []Rules{standard, {Cols: 4, Rows: 4, K: 4}, {Cols: 5, Rows: 4, K: 3}, {Cols: 8, Rows: 8, K: 5}, {Cols: 1, Rows: 3, K: 2},
		{Cols: 7, Rows: 6, K: 4, PieRule: true}, {Cols: 4, Rows: 4, K: 3, PieRule: true}} {
		gamestest.Run(t, newGame(t, r), gamestest.Options{Games: 300, Seed: 5})
	}
}

// naive is a second move generator written the plain way: a grid, and a
// win found by scanning every line of k through the last stone.
type naive struct {
	r    Rules
	grid [MaxSide][MaxSide]int8 // [col][row]: 0 empty, 1 seat 0, 2 seat 1
	h    [MaxSide]int
	turn int8
	over bool
}

func (n *naive) perft(depth int) uint64 {
	if n.over || depth == 0 {
		if n.over {
			return 0
		}
		return 1
	}
	total := uint64(0)
	for c := range n.r.Cols {
		if n.h[c] == n.r.Rows {
			continue
		}
		if depth == 1 {
			total++
			continue
		}
		saved := *n
		row := n.h[c]
		n.grid[c][row] = n.turn + 1
		n.h[c]++
		if n.wins(c, row) {
			n.over = true
		} else if n.full() {
			n.over = true
		}
		n.turn ^= 1
		total += n.perft(depth - 1)
		*n = saved
	}
	return total
}

func (n *naive) full() bool {
	for c := range n.r.Cols {
		if n.h[c] < n.r.Rows {
			return false
		}
	}
	return true
}

func (n *naive) wins(c, row int) bool {
	who := n.grid[c][row]
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		run := 1
		for _, sign := range []int{1, -1} {
			x, y := c+sign*d[0], row+sign*d[1]
			for x >= 0 && x < n.r.Cols && y >= 0 && y < n.r.Rows && n.grid[x][y] == who {
				run++
				x, y = x+sign*d[0], y+sign*d[1]
			}
		}
		if run >= n.r.K {
			return true
		}
	}
	return false
}

// Perft on the standard board from hand: no column fills and no line can
// be made in 6 plies, so 7^d; at 7 the seven sequences that fill one
// column and drop a seventh stone into it are gone (7^7 − 7). Deeper, and
// on other boards, the naive generator agrees.
func TestPerft(t *testing.T) {
	s := newGame(t, standard).NewState()
	want := uint64(1)
	for d := range 7 {
		if got := games.Perft(s, d); got != want {
			t.Errorf("7 × 6: perft(%d) = %d, want %d", d, got, want)
		}
		want *= 7
	}
	if got := games.Perft(s, 7); got != 823543-7 {
		t.Errorf("7 × 6: perft(7) = %d, want 7^7 − 7 = 823536", got)
	}
	depth := 8
	if testing.Short() || testenv.RaceEnabled {
		depth = 6
	}
	for _, r := range []Rules{standard, {Cols: 4, Rows: 4, K: 3}, {Cols: 5, Rows: 4, K: 4}, {Cols: 3, Rows: 2, K: 2}} {
		s := newGame(t, r).NewState()
		for d := 1; d <= depth; d++ {
			n := naive{r: r}
			if got, want := games.Perft(s, d), n.perft(d); got != want {
				t.Errorf("%+v: perft(%d) = %d, the naive generator %d", r, d, got, want)
			}
		}
	}
	// And from random mid-game positions.
	rng := pcg.New(3, 3)
	for range 20 {
		g := newGame(t, standard)
		s := g.NewState()
		n := naive{r: standard}
		for range 8 + rng.IntN(10) {
			if s.IsTerminal() {
				break
			}
			moves := s.LegalMoves(nil)
			m := moves[rng.IntN(len(moves))]
			c := int(m)
			row := n.h[c]
			n.grid[c][row] = n.turn + 1
			n.h[c]++
			n.over = n.wins(c, row) || n.full()
			n.turn ^= 1
			s.Apply(m)
		}
		if got, want := games.Perft(s, 4), n.perft(4); got != want {
			t.Fatalf("mid-game perft(4) = %d, naive %d\n%s", got, want, s)
		}
	}
}

// The rules, table-driven: lines every way, a full board.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rules  Rules
		moves  []string
		winner games.Player
		reason string
	}{
		{"a column", standard, []string{"d", "e", "d", "e", "d", "e", "d"}, games.Seat0, inarow.ReasonLine},
		{"a row", standard, []string{"a", "a", "b", "b", "c", "c", "d"}, games.Seat0, inarow.ReasonLine},
		{"a diagonal", standard, []string{"a", "b", "b", "c", "c", "d", "c", "d", "d", "a", "d"}, games.Seat0, inarow.ReasonLine},
		{"an anti-diagonal", standard, []string{"g", "f", "f", "e", "e", "d", "e", "d", "d", "g", "d"}, games.Seat0, inarow.ReasonLine},
		{"seat 1's row", standard, []string{"a", "b", "a", "c", "g", "d", "g", "e"}, games.Seat1, inarow.ReasonLine},
		{"a full board", Rules{Cols: 3, Rows: 2, K: 3}, []string{"a", "b", "c", "a", "b", "c"}, games.NoPlayer, inarow.ReasonFull},
	} {
		s := newGame(t, tc.rules).NewState()
		for _, text := range tc.moves {
			if s.IsTerminal() {
				t.Fatalf("%s: over before %s\n%s", tc.name, text, s)
			}
			m, err := s.ParseMove(text)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			s.Apply(m)
		}
		if r := s.Result(); !s.IsTerminal() || r.Winner != tc.winner || r.Reason != tc.reason {
			t.Errorf("%s: %+v (over %v), want %v by %s\n%s", tc.name, r, s.IsTerminal(), tc.winner, tc.reason, s)
		}
	}
	s := newGame(t, Rules{Cols: 3, Rows: 2, K: 3}).NewState()
	for _, text := range []string{"a", "a"} {
		m, _ := s.ParseMove(text)
		s.Apply(m)
	}
	if _, err := s.ParseMove("a"); err == nil {
		t.Error("a full column accepted")
	}
}

func TestValidate(t *testing.T) {
	for _, r := range []Rules{{Cols: 0, Rows: 3, K: 3}, {Cols: 9, Rows: 3, K: 3}, {Cols: 3, Rows: 3, K: 4}, {Cols: 3, Rows: 3, K: 1}} {
		if err := r.Validate(); err == nil {
			t.Errorf("%+v accepted", r)
		}
	}
}

// The pie rule: keep or swap after the first stone.
func TestPieRule(t *testing.T) {
	g := newGame(t, Rules{Cols: 7, Rows: 6, K: 4, PieRule: true})
	for d, want := range []uint64{1, 7, 14, 98} {
		if got := games.Perft(g.NewState(), d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
}

func TestRestrictions(t *testing.T) {
	g := newGame(t, standard)
	s := g.NewState()
	for _, x := range g.Restrictions() {
		var allowed []string
		for _, m := range s.LegalMoves(nil) {
			if x.Allowed(s, m) {
				allowed = append(allowed, s.MoveString(m))
			}
		}
		want := map[string][]string{"no-centre": {"a", "b", "c", "e", "f", "g"}, "no-edge": {"b", "c", "d", "e", "f"}, "no-swap": {"a", "b", "c", "d", "e", "f", "g"}}[x.Name]
		if !slices.Equal(allowed, want) {
			t.Errorf("%s allows %v, want %v", x.Name, allowed, want)
		}
	}
}

// FuzzPlay drops the stones a fuzzer's bytes choose on a board its first
// bytes shape, checking the invariants and the notation after every move.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{7, 6, 4, 1, 3, 3, 3, 3, 2, 1})
	f.Add([]byte{8, 8, 5, 200, 17, 3, 99})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		r := Rules{Cols: 1 + int(data[0])%MaxSide, Rows: 1 + int(data[1])%MaxSide, PieRule: data[3]%2 == 1}
		r.K = 2 + int(data[2])%max(max(r.Rows, r.Cols)-1, 1)
		if r.Validate() != nil {
			return
		}
		s := New(r).NewState()
		var legal []games.Move
		for _, b := range data[4:] {
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
