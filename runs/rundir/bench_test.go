package rundir

import (
	"context"
	"testing"

	"playtest/reports"
	"playtest/sim"
	"playtest/variants"
)

// BenchmarkTraceCost plays a preset's games on one worker with the
// win-probability trace off and on (Job.Trace), the summary and its How
// it plays figures included: the cost of the trace and the figures, as a
// ratio of the two in one benchmark run (make bench; issue 45 allows
// 20%).
func BenchmarkTraceCost(b *testing.B) {
	for _, preset := range []string{"stacktics/size3", "capturecard/capturecard"} {
		cfg, err := variants.Load(preset, []variants.Override{{Path: "games", Value: "8", Origin: "bench"}})
		if err != nil {
			b.Fatal(err)
		}
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
