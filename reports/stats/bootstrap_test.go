package stats

import (
	"math/rand/v2"
	"testing"
)

// TestBootstrapBCaCoversASkewedStatistic: the standard deviation of 60
// draws of an exponential (true value 1) is biased low and skewed; the
// BCa interval contains 1 clearly more often than the percentile one
// (175 of 200 samples against 164: a small skewed sample is hard for
// both, and the BCa interval is still short of 95%).
func TestBootstrapBCaCoversASkewedStatistic(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	bca, pct := 0, 0
	const runs, n = 200, 60
	for run := range runs {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.ExpFloat64()
		}
		sd := func(sample []int) float64 {
			var m Moments
			for _, k := range sample {
				m.Add(x[k])
			}
			return m.SD()
		}
		if iv := BootstrapBCa(n, 1000, 0.05, uint64(run), sd); iv.Low <= 1 && 1 <= iv.High {
			bca++
		}
		if iv := BootstrapStatistic(n, 1000, 0.05, uint64(run), sd); iv.Low <= 1 && 1 <= iv.High {
			pct++
		}
	}
	t.Logf("the true SD covered by BCa in %d of %d samples, by the percentile interval in %d", bca, runs, pct)
	if bca < pct+runs/20 || bca < runs*85/100 {
		t.Errorf("BCa covers in %d of %d, percentile in %d: want BCa 5 points ahead and at least 85%%", bca, runs, pct)
	}
	// With too few units the interval is the statistic itself.
	if iv := BootstrapBCa(2, 100, 0.05, 1, func([]int) float64 { return 3 }); iv.Low != 3 || iv.High != 3 {
		t.Errorf("two units: %+v", iv)
	}
}
