package script

import (
	"os"
	"slices"
	"strings"
	"testing"

	"playtest/games"
	"playtest/games/mnk"
	"playtest/games/pcg"
	"playtest/internal/testenv"
)

// TestScriptCells: tic-tac-toe's script gives a board of cells, a
// square's eight symmetries (a rectangle's four on 3 × 4), the cells from
// each seat's view swapped between the seats.
func TestScriptCells(t *testing.T) {
	g := load(t, "../../configs/scripts/tictactoe.star", nil)
	b, ok := g.(games.Boarder)
	if !ok {
		t.Fatal("the scripted tic-tac-toe is no games.Boarder")
	}
	if _, ok := g.(games.Featurer); ok {
		t.Error("a game without FEATURES became a games.Featurer")
	}
	board := b.CellBoard()
	if board.Cells() != 9 || board.States != 3 || len(board.Symmetries) != 8 {
		t.Fatalf("board %+v: want 9 cells of 3 states under 8 symmetries", board)
	}
	s := g.NewState()
	s.Apply(s.LegalMoves(nil)[4]) // seat 0 takes the centre
	s.Apply(s.LegalMoves(nil)[0]) // seat 1 the corner a1
	mine := s.(games.CellState).AppendCells(nil, games.Seat0)
	theirs := s.(games.CellState).AppendCells(nil, games.Seat1)
	if mine[4] != 1 || mine[0] != 2 || theirs[4] != 2 || theirs[0] != 1 || mine[8] != 0 {
		t.Errorf("cells %v from seat 0's view, %v from seat 1's", mine, theirs)
	}
	wide := load(t, "../../configs/scripts/tictactoe.star", map[string]any{"cols": 4})
	if n := len(wide.(games.Boarder).CellBoard().Symmetries); n != 4 {
		t.Errorf("3 × 4: %d symmetries, want a rectangle's 4", n)
	}
}

// TestGridSymmetries: a square's eight are a group (Check), the named
// kinds have their sizes, and a square's on a rectangle is refused.
func TestGridSymmetries(t *testing.T) {
	for kind, n := range map[string]int{"none": 1, "mirror": 2, "rectangle": 4, "square": 8} {
		syms, err := games.GridSymmetries(4, 4, kind)
		if err != nil || len(syms) != n {
			t.Fatalf("%s: %d symmetries, %v", kind, len(syms), err)
		}
		if err := (games.CellBoard{Rows: 4, Cols: 4, States: 2, Symmetries: syms}).Check(); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	if _, err := games.GridSymmetries(3, 4, "square"); err == nil {
		t.Error("a square's symmetries on 3 × 4 accepted")
	}
	// One row: up and down is the identity, the half turn left and
	// right; each permutation once.
	if syms, _ := games.GridSymmetries(1, 5, "rectangle"); len(syms) != 2 {
		t.Errorf("1 × 5 rectangle: %d symmetries, want 2", len(syms))
	}
	if syms, _ := games.GridSymmetries(1, 1, "square"); len(syms) != 1 {
		t.Errorf("1 × 1 square: %d symmetries, want 1", len(syms))
	}
}

// TestScriptCellsRefused: a script's bad board of cells is refused with
// a message naming what is wrong, when the game is made or when a cell is
// read, never a panic out of the host.
func TestScriptCellsRefused(t *testing.T) {
	src, err := os.ReadFile("../../configs/scripts/tictactoe.star")
	if err != nil {
		t.Fatal(err)
	}
	base := string(src)
	swap := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("the script no longer holds %q", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"cells without cell_board", swap("def cell_board(knobs):", "def board_of_cells(knobs):"), "needs both cell_board"},
		{"unknown symmetries", swap(`"square" if square else "rectangle"`, `"hexagon"`), "unknown symmetries"},
		{"not a permutation", swap(`"square" if square else "rectangle"`, `[[0, 1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 2, 3, 4, 5, 6, 7, 8]]`), "not a permutation"},
		{"too many states", swap(`"states": 3`, `"states": 99`), "states a cell"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := compile("cells.star", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
	// cells() returning too few cells is refused when a learner reads them.
	g, err := compile("cells.star", []byte(strings.Replace(base, "for stone in state.board]", "for stone in state.board][1:]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		e, ok := recover().(*Error)
		if !ok || !strings.Contains(e.Error(), "want 9 cells") {
			t.Errorf("recovered %v, want the host's refusal of 8 cells", e)
		}
	}()
	g.NewState().(games.CellState).AppendCells(nil, games.Seat0)
}

// TestScriptCellsMatchTheEngine: the scripted tic-tac-toe and the m,n,k
// engine give the same cells from each seat's view in the same positions,
// under the same symmetries, so an n-tuple network learned on one reads
// the other alike.
func TestScriptCellsMatchTheEngine(t *testing.T) {
	script := load(t, "../../configs/scripts/tictactoe.star", nil)
	engine, err := mnk.DefaultRules().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	sb, eb := script.(games.Boarder).CellBoard(), engine.(games.Boarder).CellBoard()
	if sb.Rows != eb.Rows || sb.Cols != eb.Cols || sb.States != eb.States || !sameSet(sb.Symmetries, eb.Symmetries) {
		t.Fatalf("script board %+v, engine %+v", sb, eb)
	}
	rng := pcg.New(5, 10)
	for trial := range 20 {
		s, e := script.NewState(), engine.NewState()
		for !e.IsTerminal() {
			for _, seat := range []games.Player{games.Seat0, games.Seat1} {
				got := s.(games.CellState).AppendCells(nil, seat)
				want := e.(games.CellState).AppendCells(nil, seat)
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d: %v's cells %v in the script, %v in the engine\n%s", trial, seat, got, want, e)
				}
			}
			want := notations(e)
			text := want[rng.IntN(len(want))]
			playBoth(t, s, e, text)
		}
	}
}

// sameSet reports whether two lists of permutations hold the same ones.
func sameSet(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for _, p := range a {
		if !slices.ContainsFunc(b, func(q []int) bool { return slices.Equal(p, q) }) {
			return false
		}
	}
	return true
}

// TestRunawayCellsStopped: cells() that loops without end is stopped by
// the step budget, like every call into a script, with its file and line.
func TestRunawayCellsStopped(t *testing.T) {
	testenv.SkipUnderRace(t) // one goroutine's work, run to the budget
	src, err := os.ReadFile("../../configs/scripts/tictactoe.star")
	if err != nil {
		t.Fatal(err)
	}
	old := "def cells(state, seat):\n"
	if !strings.Contains(string(src), old) {
		t.Fatal("the script no longer defines cells")
	}
	g, err := compile("cells.star", []byte(strings.Replace(string(src), old, old+"    for i in range(1 << 40):\n        pass\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		e, ok := recover().(*Error)
		if !ok || !strings.Contains(e.Error(), "stopped after") || !strings.Contains(e.Error(), "cells.star:") {
			t.Errorf("recovered %v, want the step budget's refusal naming cells.star and its line", e)
		}
	}()
	g.NewState().(games.CellState).AppendCells(nil, games.Seat0)
	t.Error("a runaway cells() returned")
}
