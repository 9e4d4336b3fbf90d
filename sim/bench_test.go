package sim

import (
	"context"
	"testing"
)

// BenchmarkRun plays whole games through the runner on one worker and
// reports games and plies per second, for random and greedy players.
func BenchmarkRun(b *testing.B) {
	for _, bot := range []string{"random", "greedy"} {
		b.Run(bot, func(b *testing.B) {
			j := job(b, 200, bot, bot)
			plies, games := 0, 0
			b.ReportAllocs()
			for b.Loop() {
				_ = Run(context.Background(), j, Options{Workers: 1}, func(r *Record) {
					plies += r.Plies
					games++
				})
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
		})
	}
}
