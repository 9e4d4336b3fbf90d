package rundir

import (
	"context"
	"strings"
	"testing"

	"playtest/reports"
	"playtest/sim"
	"playtest/variants"
)

// BenchmarkTraceCost plays a preset's games on one worker with the
// win-probability trace off and on (Job.Trace), the summary and its How
// it plays figures included: the cost of the trace and the figures, as a
// ratio of the two in one benchmark run (make bench; issue 53 asks for at
// most 5%, on the presets' bots and on random bots, whose run traces one
// game in sim.StaticTraceEvery, judged statically).
func BenchmarkTraceCost(b *testing.B) {
	for _, c := range []struct{ name, preset, games string }{
		{"stacktics/size3", "stacktics/size3", "8"},
		{"capturecard/capturecard", "capturecard/capturecard", "8"},
		{"stacks/base", "stacks/base", "8"},
		{"stacktics/size3-random", "stacktics/size3", "20000"},
	} {
		overrides := []variants.Override{{Path: "games", Value: c.games, Origin: "bench"}}
		if strings.HasSuffix(c.name, "-random") {
			overrides = append(overrides, variants.Override{Path: "players", Value: "[random, random]", Origin: "bench"})
		}
		cfg, err := variants.Load(c.preset, overrides)
		if err != nil {
			b.Fatal(err)
		}
		preset := c.name
		for _, traced := range []bool{false, true} {
			name := preset + "/trace=off"
			if traced {
				name = preset + "/trace=on"
			}
			b.Run(name, func(b *testing.B) {
				job, err := Job(cfg)
				if err != nil {
					b.Fatal(err)
				}
				if !traced {
					job.Trace = 0
				}
				info := Info(cfg, job.Game)
				b.ReportAllocs()
				for b.Loop() {
					agg := reports.NewAggregator(info)
					if err := sim.Run(context.Background(), job, sim.Options{Workers: 1}, agg.Add); err != nil {
						b.Fatal(err)
					}
					if s := agg.Summary(reports.Timing{}); (s.HowItPlays != nil) != traced {
						b.Fatalf("traced %v, How it plays %v", traced, s.HowItPlays != nil)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(cfg.Games), "ms/game")
			})
		}
	}
}
