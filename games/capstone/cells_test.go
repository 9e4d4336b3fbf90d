package capstone

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
)

// image builds s's image under the board's symmetry k: 1 mirrors the
// stacks of each size, 2 swaps the sizes, 3 does both (games.SymmetryGroup
// lists them in that order).
func image(s games.State, k int, _ games.Player) (games.State, bool) {
	if k < 1 || k > 3 {
		return nil, false
	}
	src := s.(*State)
	r := *src
	g := src.g
	to := func(st int) int {
		size, col := g.sizeOf(st), st%g.n
		if k&1 != 0 {
			col = g.n - 1 - col
		}
		if k&2 != 0 {
			size = 1 - size
		}
		return size*g.n + col
	}
	for st := range g.stacks {
		r.stacks[to(st)] = src.stacks[st]
	}
	for c, at := range src.capAt {
		if at >= 0 {
			r.capAt[c] = int8(to(int(at)))
		}
	}
	if src.placed >= 0 {
		r.placed = int8(to(int(src.placed)))
	}
	if k&2 != 0 {
		r.stash[Large], r.stash[Medium] = src.stash[Medium], src.stash[Large]
	}
	r.syncSets()
	return &r, true
}

func TestCellSymmetriesArePlayedAlike(t *testing.T) {
	for name, r := range map[string]Rules{"capstone": capstoneRules(), "threestone": threestoneRules()} {
		t.Run(name, func(t *testing.T) {
			g := newGame(t, r)
			gamestest.CheckCellSymmetries(t, g, 4, 3, 1, image)
		})
	}
}

func TestCellsSayWhatTheGoalWants(t *testing.T) {
	g := newGame(t, capstoneRules())
	s := g.NewState().(*State)
	s.goal[games.Seat0] = [MaxGoal]uint8{0, 1, 2, 3} // top first
	s.goalLen[games.Seat0] = 4
	// L1 holds, bottom up, colours 3 (wanted at the bottom), 0 (not
	// wanted second), and a capstone of colour 2.
	s.stacks[0].n, s.stacks[0].colors[0], s.stacks[0].colors[1] = 2, 3, 0
	s.stacks[0].cap, s.capAt[2] = 2, 0
	s.syncSets()
	l := g.cellLayout()
	cells := s.AppendCells(nil, games.Seat0)
	if got := []uint8{cells[0], cells[l.cols], cells[2*l.cols], cells[l.capRow[Large]*l.cols]}; string(got) != string([]uint8{cellMatch, cellColor + 0, 0, 3}) {
		t.Errorf("L1's cells bottom up, then its capstone: %v", got)
	}
	if got := cells[l.goalRow*l.cols : l.goalRow*l.cols+4]; string(got) != string([]uint8{1, 2, 3, 4}) {
		t.Errorf("the goal row: %v", got)
	}
	other := s.AppendCells(nil, games.Seat1) // seat 1 knows no goal yet
	if other[0] != cellColor+3 || other[l.goalRow*l.cols] != 0 {
		t.Errorf("seat 1's view: L1's bottom %d, its goal's top %d", other[0], other[l.goalRow*l.cols])
	}
	if len(cells) != l.rows*l.cols || l.rows != 2*(g.rules.StackHeight+1)+1 {
		t.Errorf("%d cells in %d rows", len(cells), l.rows)
	}
}

// TestCellTuplesAreTheStacks: the board names its stacks (pieces and
// capstone) as tuples, and their images under the symmetries are every
// stack of both sizes.
func TestCellTuplesAreTheStacks(t *testing.T) {
	for name, r := range map[string]Rules{"capstone": capstoneRules(), "threestone": threestoneRules()} {
		g := newGame(t, r)
		b, l := g.CellBoard(), g.cellLayout()
		if err := b.Check(); err != nil {
			t.Fatal(err)
		}
		stacks := map[int]bool{} // column + n·size of each image's bottom cell
		for _, tuple := range b.Tuples {
			if len(tuple) != r.StackHeight+1 {
				t.Errorf("%s: a tuple of %d cells, want a stack's %d", name, len(tuple), r.StackHeight+1)
			}
			for _, sym := range b.Symmetries {
				bottom := sym[tuple[0]]
				col, row := bottom%l.cols, bottom/l.cols
				for i, c := range tuple {
					if to := sym[c]; to%l.cols != col || to/l.cols != row+i {
						t.Fatalf("%s: tuple %v's image is not one stack bottom up: cell %d goes to %d", name, tuple, c, to)
					}
				}
				stacks[col+g.n*(row/(r.StackHeight+1))] = true
			}
		}
		if len(stacks) != g.stacks {
			t.Errorf("%s: the tuples' images cover %d stacks of %d", name, len(stacks), g.stacks)
		}
	}
}
