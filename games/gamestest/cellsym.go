package gamestest

import (
	"fmt"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// CellImage builds the image of a position under one of its board's cell
// symmetries (games.CellBoard.Symmetries[k]) as seat sees the board,
// moving the game's own arrays as the symmetry moves seat's cells (a
// board each seat sees turned its own way has the same symmetries, made
// of other moves of the game's arrays); ok false when k is not one the
// game can build.
type CellImage func(s games.State, k int, seat games.Player) (image games.State, ok bool)

// CheckCellSymmetries checks that a Boarder's board has symmetries
// symmetries (the identity among them), then plays games random games and
// checks, at every decision, that each symmetry is one of the game:
// the image position, which image builds, has the cells of the position
// moved by the symmetry (from each seat's view), the same player to move,
// as many positions two decisions on (perft 2), and the same features and
// hand evaluation. A symmetry that is not the game's (a mirror of a board
// whose moves are not) fails it.
func CheckCellSymmetries(t *testing.T, g games.Game, symmetries, games_ int, seed uint64, image CellImage) {
	t.Helper()
	board := g.(games.Boarder).CellBoard()
	if err := board.Check(); err != nil {
		t.Fatal(err)
	}
	if len(board.Symmetries) != symmetries {
		t.Fatalf("%d symmetries, want %d", len(board.Symmetries), symmetries)
	}
	rng := pcg.New(seed, 0x63656c6c73) // "cells"
	var moves []games.Move
	var outcomes []games.ChanceOutcome
	checked := 0
	for game := range games_ {
		s := g.NewState()
		for n := 0; !s.IsTerminal(); n++ {
			for k := 1; k < len(board.Symmetries); k++ {
				for _, seat := range []games.Player{games.Seat0, games.Seat1} {
					r, ok := image(s, k, seat)
					if !ok {
						continue
					}
					checkImage(t, s, r, board.Symmetries[k], seat, fmt.Sprintf("game %d after %d decisions, symmetry %d", game, n, k))
					checked++
				}
			}
			var m games.Move
			m, moves, outcomes = Pick(s, rng, moves, outcomes)
			s.Apply(m)
		}
	}
	if checked == 0 {
		t.Fatal("no image was built: nothing checked")
	}
}

// checkImage checks the image r of s under sym as seat sees the board:
// seat's cells moved by sym; the image's features for either seat those of
// s; the same player to move and the same perft 2.
func checkImage(t *testing.T, s, r games.State, sym []int, seat games.Player, where string) {
	t.Helper()
	from := s.(games.CellState).AppendCells(nil, seat)
	to := r.(games.CellState).AppendCells(nil, seat)
	for c, v := range from {
		if to[sym[c]] != v {
			t.Fatalf("%s: the image's cell %d is %d, the position's cell %d is %d (%v's view):\n%s\nimage\n%s", where, sym[c], to[sym[c]], c, v, seat, s, r)
		}
	}
	for _, seat := range []games.Player{games.Seat0, games.Seat1} {
		if fs, ok := s.(games.FeatureState); ok {
			if a, b := fmt.Sprint(fs.AppendFeatures(nil, seat)), fmt.Sprint(r.(games.FeatureState).AppendFeatures(nil, seat)); a != b {
				t.Fatalf("%s: the image's features for %v are %s, the position's %s", where, seat, b, a)
			}
		}
	}
	if r.CurrentPlayer() != s.CurrentPlayer() {
		t.Fatalf("%s: %v moves in the image, %v in the position", where, r.CurrentPlayer(), s.CurrentPlayer())
	}
	if a, b := games.Perft(s, 2), games.Perft(r, 2); a != b {
		t.Fatalf("%s: perft 2 is %d from the image, %d from the position:\n%s\nimage\n%s", where, b, a, s, r)
	}
}
