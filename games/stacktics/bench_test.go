package stacktics

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
)

// midgame returns a size-3 position after a few random moves.
func midgame(b *testing.B) *State {
	g := newGame(b, presets[3].rules)
	s := g.Start()
	rng := pcg.New(1, 2)
	for range 8 {
		moves := s.LegalMoves(nil)
		s.Apply(moves[rng.IntN(len(moves))])
	}
	return s
}

func BenchmarkLegalMoves(b *testing.B) {
	s := midgame(b)
	buf := make([]games.Move, 0, s.g.MaxLegalMoves())
	b.ReportAllocs()
	for b.Loop() {
		buf = s.LegalMoves(buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "moves")
}

func BenchmarkApply(b *testing.B) {
	s := midgame(b)
	moves := s.LegalMoves(nil)
	c := s.Clone().(*State)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.CopyFrom(s)
		c.Apply(moves[i%len(moves)])
		i++
	}
}

func BenchmarkClone(b *testing.B) {
	s := midgame(b)
	c := s.Clone()
	b.ReportAllocs()
	for b.Loop() {
		c.CopyFrom(s)
	}
}

// BenchmarkPlayout plays uniformly random games from the start of each
// preset and reports plies per second on one core.
func BenchmarkPlayout(b *testing.B) {
	for _, p := range presets {
		b.Run(p.name, func(b *testing.B) {
			g := newGame(b, p.rules)
			start := g.Start()
			s := g.Start()
			moves := make([]games.Move, 0, g.MaxLegalMoves())
			rng := pcg.New(1, 1)
			gamestest.Playout(s, rng, moves, nil) // builds the sampling tables
			plies := 0
			b.ReportAllocs()
			for b.Loop() {
				s.CopyFrom(start)
				plies += gamestest.Playout(s, rng, moves, nil)
			}
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(plies), "ns/ply")
		})
	}
}

// BenchmarkMobility counts both armies' moves in a midgame position (the
// heuristic's work, and the runner's count at the decisions it counts).
func BenchmarkMobility(b *testing.B) {
	s := midgame(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = s.mobility(ArmyA) + s.mobility(ArmyB)
	}
	b.ReportMetric(float64(n), "moves")
}

// BenchmarkEvaluate is the hand heuristic at a midgame position, the cost
// BenchmarkFeatures compares with.
func BenchmarkEvaluate(b *testing.B) {
	s := midgame(b)
	b.ReportAllocs()
	v := 0.0
	for b.Loop() {
		v = s.Evaluate(games.Seat0)
	}
	b.ReportMetric(v, "value")
}

// BenchmarkFeatures computes a midgame position's features for one seat
// and their weighted sum with the hand weights: a linear evaluation on the
// features, to hold against BenchmarkEvaluate (the bound: at most
// twice the hand heuristic's cost).
func BenchmarkFeatures(b *testing.B) {
	s := midgame(b)
	w := s.g.HandWeights()
	buf := make([]float64, 0, len(w))
	b.ReportAllocs()
	v := 0.0
	for b.Loop() {
		buf = s.AppendFeatures(buf[:0], games.Seat0)
		v = 0
		for i, x := range buf {
			v += w[i] * x
		}
	}
	b.ReportMetric(v, "value")
}
