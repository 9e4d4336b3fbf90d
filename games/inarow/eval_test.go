package inarow

import (
	"math/bits"
	"testing"

	"playtest/games"
	"playtest/games/pcg"
)

// TestScoreKeptByPlace: the score Place keeps as the stones fall once
// KeepScore asks for it (from the start, or from the middle of a game),
// which Evaluate then reads, and Evaluate without it, are the heuristic
// counted line by line (scoreOf) after every stone of random games to the end (a
// line of k included), on every board shape from 1 × 2 to 8 × 8 and every
// k that fits, with and without the pie rule (whose swap hands the first
// stone to seat 1), and after SetKey; a copy keeps the score as its
// original does; Check holds the score too.
func TestScoreKeptByPlace(t *testing.T) {
	rng := pcg.New(1, 2)
	boards := 0
	for rows := 1; rows <= MaxSide; rows++ {
		for cols := 1; cols <= MaxSide; cols++ {
			for k := 2; k <= max(rows, cols); k++ {
				boards++
				for game := range 6 {
					b := NewBoard(rows, cols, k, game%2 == 1)
					p := Start(b)
					keepAt := []int{0, 3, 1000}[game%3]
					for !p.IsTerminal() {
						if p.Plies() == keepAt {
							p.KeepScore()
						}
						if p.PieDecision() {
							p.ApplyPie(MoveKeep + games.Move(rng.IntN(2))*(MoveSwap-MoveKeep))
						} else {
							free := b.all &^ p.Occupied()
							cell := 0
							for range rng.IntN(bits.OnesCount64(free)) + 1 {
								cell = bits.TrailingZeros64(free)
								free &= free - 1
							}
							p.Place(cell)
						}
						for _, seat := range []games.Player{games.Seat0, games.Seat1} {
							want := float64(b.scoreOf(p.Stones[seat], p.Stones[seat.Opponent()]))
							if got := p.Evaluate(seat); got != want {
								t.Fatalf("%d × %d, k %d, stones %#x and %#x: Evaluate(%v) %g, want %g", rows, cols, k, p.Stones[0], p.Stones[1], seat, got, want)
							}
						}
						if err := p.Check(); err != nil {
							t.Fatalf("%d × %d, k %d: %v", rows, cols, k, err)
						}
						q := Start(b)
						q.SetKey(p.AppendKey(nil))
						if q.Evaluate(games.Seat0) != p.Evaluate(games.Seat0) {
							t.Fatalf("%d × %d, k %d: after SetKey %g, want %g", rows, cols, k, q.Evaluate(games.Seat0), p.Evaluate(games.Seat0))
						}
						if c := p; c.scored != (p.Plies() > keepAt) {
							t.Fatalf("%d × %d, k %d: scored %v after %d plies, KeepScore at %d", rows, cols, k, c.scored, p.Plies(), keepAt)
						}
					}
				}
			}
		}
	}
	if boards != 308 {
		t.Errorf("%d boards tried", boards)
	}
}

// TestCheckFindsAStaleScore: a score that does not follow the stones is
// an invariant broken.
func TestCheckFindsAStaleScore(t *testing.T) {
	p := Start(NewBoard(6, 7, 4, false))
	p.KeepScore()
	p.Place(3)
	p.Place(10)
	p.score++
	if err := p.Check(); err == nil {
		t.Error("a stale score passed Check")
	}
}

// BenchmarkEvaluate scores a Connect Four 7 × 6 position of 16 stones:
// counted line by line, and kept by Place (KeepScore), as a search's
// leaves read it.
func BenchmarkEvaluate(b *testing.B) {
	board := NewBoard(6, 7, 4, false)
	for _, keep := range []bool{false, true} {
		p := Start(board)
		if keep {
			p.KeepScore()
		}
		for _, cell := range []int{3, 10, 2, 4, 17, 9, 11, 5, 1, 16, 24, 18, 0, 8, 12, 6} {
			p.Place(cell)
		}
		b.Run(map[bool]string{false: "counted", true: "kept"}[keep], func(b *testing.B) {
			b.ReportAllocs()
			v := 0.0
			for b.Loop() {
				v += p.Evaluate(games.Seat0)
			}
			_ = v
		})
	}
}
