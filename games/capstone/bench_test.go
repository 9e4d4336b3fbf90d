package capstone

import (
	"testing"

	"playtest/games"
	"playtest/games/gamestest"
	"playtest/games/pcg"
)

// BenchmarkPlayout plays uniformly random games, goal draws included, and
// reports turns (plies) and decisions per second on one core.
func BenchmarkPlayout(b *testing.B) {
	for name, r := range map[string]Rules{"capstone": capstoneRules(), "threestone": threestoneRules()} {
		b.Run(name, func(b *testing.B) { gamestest.BenchPlayouts(b, newGame(b, r)) })
	}
}

// BenchmarkDeterminize re-samples the other goal of a mid-game position,
// for each observer (seat 0's includes the redraw correction), from the
// prior (Determinize) and weighed by the other seat's moves at the
// presets' strength (a Belief, every goal enumerated, made and drawn from
// once).
func BenchmarkDeterminize(b *testing.B) {
	g := newGame(b, capstoneRules())
	st, _ := g.PerftStart(3)
	base := st.(*State)
	rng := pcg.New(2, 2)
	for range 10 {
		moves := base.LegalMoves(nil)
		base.Apply(moves[rng.IntN(len(moves))])
	}
	for _, observer := range []games.Player{games.Seat0, games.Seat1} {
		b.Run(observer.String(), func(b *testing.B) {
			var c State
			b.ReportAllocs()
			for b.Loop() {
				c = *base
				c.Determinize(observer, rng)
			}
		})
		b.Run(observer.String()+"/inferred", func(b *testing.B) {
			var c State
			var belief games.Belief
			b.ReportAllocs()
			for b.Loop() {
				c = *base
				belief = c.Belief(observer, 3, belief)
				belief.Determinize(&c, rng)
			}
		})
	}
}

// BenchmarkFeatures computes both seats' features at every position of
// random games (gamestest.BenchFeatures; the play included).
func BenchmarkFeatures(b *testing.B) {
	gamestest.BenchFeatures(b, newGame(b, capstoneRules()))
}
