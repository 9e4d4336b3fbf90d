package stacktics

import (
	"slices"
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

func ptr[T any](v T) *T { return &v }

// presets are the seven variants of the spec.
var presets = []struct {
	name  string
	rules Rules
}{
	{"size2", Rules{Size: 2, Board: &Board{4, 4}, PieRule: ptr(true)}},
	{"size2-nopie", Rules{Size: 2, Board: &Board{4, 4}, PieRule: ptr(false)}},
	{"size2-3x5", Rules{Size: 2, Board: &Board{5, 3}, StartColumns: []int{0, 2}, PieRule: ptr(false)}},
	{"size3", Rules{Size: 3}},
	{"size4", Rules{Size: 4}},
	{"size5", Rules{Size: 5}},
	{"size5-7x7", Rules{Size: 5, Board: &Board{7, 7}}},
}

// newGame validates rules (filling the independent defaults) and builds
// the game.
func newGame(t testing.TB, r Rules) *Game {
	t.Helper()
	r = withDefaults(r)
	if err := r.Validate(); err != nil {
		t.Fatalf("rules: %v", err)
	}
	return New(r)
}

// withDefaults fills the knobs a test left at their zero value with their
// defaults; a Repetition of -1 asks for 0 (off).
func withDefaults(r Rules) Rules {
	d := DefaultRules()
	if r.WinThreshold == "" {
		r.WinThreshold = d.WinThreshold
	}
	if r.NoMoves == "" {
		r.NoMoves = d.NoMoves
	}
	if r.MaxPlies == 0 {
		r.MaxPlies = d.MaxPlies
	}
	if r.Repetition == 0 {
		r.Repetition = d.Repetition
	}
	if r.Repetition == -1 {
		r.Repetition = 0
	}
	return r
}

func TestConformance(t *testing.T) {
	for _, p := range presets {
		t.Run(p.name, func(t *testing.T) {
			games := 1000
			if testing.Short() || p.name == "size5" || p.name == "size5-7x7" {
				games = 300
			}
			gamestest.Run(t, newGame(t, p.rules), gamestest.Options{Games: games, Seed: 7})
		})
	}
	// Knob values that change the rules' shape.
	variants := map[string]Rules{
		"draw-on-no-moves":    {Size: 2, NoMoves: NoMovesDraw},
		"more-than-half":      {Size: 3, WinThreshold: ThresholdMoreThanHalf},
		"loaded-range-1":      {Size: 3, LoadedRange: ptr(1)},
		"no-repetition-short": {Size: 2, Repetition: -1, MaxPlies: 40},
		"repetition-2":        {Size: 3, Repetition: 2},
		"size6-8x8":           {Size: 6, Board: &Board{8, 8}},
		"pie-size3":           {Size: 3, PieRule: ptr(true)},
	}
	for _, name := range sortedKeys(variants) {
		t.Run(name, func(t *testing.T) {
			gamestest.Run(t, newGame(t, variants[name]), gamestest.Options{Games: 200, Seed: 3})
		})
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestPerftDepth1 checks hand-counted move counts from the start of each
// preset. Size 3 (the spec's example): each corner-side tree has 4 whole-
// tree moves (3 forward, 1 to the corner), 3 MS moves (2 up, 1 to the
// corner) and 4 Small moves (1 + 3 along the diagonals) = 11; the middle
// tree 3 + 2 + 4 = 9; 11 + 9 + 11 = 31. The others are counted the same way
// in the comments.
func TestPerftDepth1(t *testing.T) {
	want := map[string]uint64{
		"size2":       20, // each tree: 4 + 3 + 3
		"size2-nopie": 20,
		"size2-3x5":   16, // each corner tree: 3 + 3 + 2
		"size3":       31,
		"size4":       48, // outer trees 4 + 4 + 5, inner 3 + 3 + 5
		"size5":       64, // outer 4 + 4 + 6, inner three 3 + 3 + 6
		"size5-7x7":   64, // the diagonals are bounded by the 7 columns as on 7×6
	}
	for _, p := range presets {
		g := newGame(t, p.rules)
		if got := games.Perft(g.NewState(), 1); got != want[p.name] {
			t.Errorf("%s: perft(1) = %d, want %d", p.name, got, want[p.name])
		}
	}
	// With the pie rule, depth 2 is depth 1 times the keep/swap choice.
	g := newGame(t, presets[0].rules)
	if got := games.Perft(g.NewState(), 2); got != 40 {
		t.Errorf("size2 with pie: perft(2) = %d, want 20 × 2", got)
	}
}

// TestPerftAgainstNaive compares perft with the naive generator from the
// start of every preset and from random mid-game positions.
func TestPerftAgainstNaive(t *testing.T) {
	for _, p := range presets {
		t.Run(p.name, func(t *testing.T) {
			g := newGame(t, p.rules)
			depth, midDepth := 3, 3
			switch {
			case testenv.RaceEnabled:
				depth, midDepth = 2, 2
			case !testing.Short() && p.rules.Size <= 3:
				depth = 4
			}
			s := g.Start()
			n := newNaive(g.Rules())
			for d := 1; d <= depth; d++ {
				if got, want := games.Perft(s, d), n.perft(d); got != want {
					t.Fatalf("from the start, depth %d: engine %d, naive %d", d, got, want)
				}
			}
			rng := pcg.New(11, uint64(len(p.name)))
			for trial := range testenv.Scale(8) {
				s, n := g.Start(), newNaive(g.Rules())
				plies := 4 + rng.IntN(30)
				for i := 0; i < plies && !s.IsTerminal(); i++ {
					playBoth(t, s, n, rng)
				}
				for d := 1; d <= midDepth; d++ {
					if got, want := games.Perft(s, d), n.perft(d); got != want {
						t.Fatalf("trial %d at %s, depth %d: engine %d, naive %d", trial, s.PositionString(), d, got, want)
					}
				}
			}
		})
	}
}

// playBoth checks that the engine and the naive game agree on the legal
// moves, then plays the same random move in both and checks they agree on
// the outcome.
func playBoth(t *testing.T, s *State, n *naiveGame, rng *pcg.Rand) {
	t.Helper()
	var engine []string
	for _, m := range s.LegalMoves(nil) {
		engine = append(engine, s.MoveString(m))
	}
	slices.Sort(engine)
	naive := n.moveTexts()
	if !slices.Equal(engine, naive) {
		t.Fatalf("at %s (%v to move):\nengine %v\nnaive  %v", s.PositionString(), s.CurrentPlayer(), engine, naive)
	}
	checkMobility(t, s, n)
	text := engine[rng.IntN(len(engine))]
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	nm, _ := n.find(text)
	s.Apply(m)
	n.apply(nm)
	if s.IsTerminal() != n.over || s.CurrentPlayer() != n.current() {
		t.Fatalf("after %s at %s: engine over=%v player %v, naive over=%v player %v", text, s.PositionString(),
			s.IsTerminal(), s.CurrentPlayer(), n.over, n.current())
	}
	if r := s.Result(); s.IsTerminal() && (r.Winner != n.winner || r.Reason != n.reason) {
		t.Fatalf("after %s: engine %v, naive %v %s", text, r, n.winner, n.reason)
	}
}

// checkMobility compares the judge's move counts, mobility and hasMove,
// for both armies with the naive generator's move lists.
func checkMobility(t *testing.T, s *State, n *naiveGame) {
	t.Helper()
	if n.over || n.pieDue {
		return
	}
	for army := range 2 {
		want := len(n.movesOf(army))
		if got := s.mobility(army); got != want {
			t.Fatalf("at %s: mobility(%d) = %d, naive has %d moves", s.PositionString(), army, got, want)
		}
		if got := s.hasMove(army); got != (want > 0) {
			t.Fatalf("at %s: hasMove(%d) = %v, naive has %d moves", s.PositionString(), army, got, want)
		}
	}
}

// TestRandomGamesAgainstNaive plays whole random games in both
// implementations, with knob values that exercise every ending.
func TestRandomGamesAgainstNaive(t *testing.T) {
	cases := map[string]Rules{
		"size2-pie":       presets[0].rules,
		"size2-3x5":       presets[2].rules,
		"size3":           presets[3].rules,
		"size3-draw":      {Size: 3, NoMoves: NoMovesDraw, WinThreshold: ThresholdMoreThanHalf, MaxPlies: 60},
		"size2-rep2":      {Size: 2, Repetition: 2, LoadedRange: ptr(3)},
		"size4-short":     {Size: 4, MaxPlies: 25},
		"size5-7x7":       presets[6].rules,
		"size3-pie-rep-0": {Size: 3, PieRule: ptr(true), Repetition: -1, MaxPlies: 120},
	}
	gamesEach := testenv.Scale(60)
	if testing.Short() {
		gamesEach = testenv.Scale(15)
	}
	for _, name := range sortedKeys(cases) {
		t.Run(name, func(t *testing.T) {
			g := newGame(t, cases[name])
			rng := pcg.New(5, uint64(len(name)))
			reasons := map[string]int{}
			for range gamesEach {
				s, n := g.Start(), newNaive(g.Rules())
				for !s.IsTerminal() {
					playBoth(t, s, n, rng)
				}
				reasons[s.Result().Reason]++
			}
			t.Logf("end reasons: %v", reasons)
		})
	}
}

// TestCells (issue 56): the cells show every stack by owner from the
// seat's view (the two seats' views swap mine and theirs), its bottom
// size and height, the board turned to the seat's home row (the start
// reads alike from both); after a pie swap, seat 1's view is the first
// army's.
func TestCells(t *testing.T) {
	r := DefaultRules()
	pie := true
	r.PieRule = &pie
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	g := New(*r)
	s := g.NewState().(*State)
	board := g.CellBoard()
	if err := board.Check(); err != nil {
		t.Fatal(err)
	}
	// at is a square's cell in seat's view: the rows counted from the
	// home row of the army the seat commands.
	at := func(s *State, seat games.Player, row, col int) int {
		if s.armyOf(seat) == ArmyB {
			row = g.rows - 1 - row
		}
		return row*g.cols + col
	}
	check := func(s *State) {
		t.Helper()
		a, b := s.AppendCells(nil, games.Seat0), s.AppendCells(nil, games.Seat1)
		for row := range g.rows {
			for col := range g.cols {
				ka, kb := at(s, games.Seat0, row, col), at(s, games.Seat1, row, col)
				c := s.board[g.square(row, col)]
				switch {
				case c&countMask == 0:
					if a[ka] != 0 || b[kb] != 0 {
						t.Fatalf("empty square %d,%d reads %d and %d", row, col, a[ka], b[kb])
					}
				default:
					mine := int(a[ka])
					if c.owner() != s.armyOf(games.Seat0) {
						mine = int(b[kb])
					}
					want := 1 + 2*(c.bottom()-Small)
					if c.height() >= 2 {
						want++
					}
					if mine != want || int(a[ka]+b[kb]) != 2*want+6 {
						t.Fatalf("square %d,%d (%v): reads %d and %d, want %d for its owner", row, col, c, a[ka], b[kb], want)
					}
				}
			}
		}
	}
	// The start is the same position from either army's home row.
	if a, b := s.AppendCells(nil, games.Seat0), s.AppendCells(nil, games.Seat1); string(a) != string(b) {
		t.Errorf("the start reads differently from the two home rows:\n%v\n%v", a, b)
	}
	check(s)
	moves := s.LegalMoves(nil)
	s.Apply(moves[0])
	swap, err := s.ParseMove("swap")
	if err != nil {
		t.Fatal(err)
	}
	before := s.AppendCells(nil, games.Seat0)
	s.Apply(swap)
	if after := s.AppendCells(nil, games.Seat1); string(after) != string(before) {
		t.Errorf("after the swap seat 1's view is not seat 0's before it")
	}
	check(s)
}
