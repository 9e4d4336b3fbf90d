package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 5e-5 }

// TestWilson checks reference values (computed independently, e.g. R's
// prop.test without continuity correction / statsmodels proportion_confint
// method="wilson").
func TestWilson(t *testing.T) {
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{5, 10, 0.2366, 0.7634},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{1, 100, 0.0018, 0.0545},
		{823, 1000, 0.7981, 0.8454},
	}
	for _, tt := range tests {
		ci := Wilson(tt.k, tt.n, Z95)
		if !near(ci.Low, tt.low) || !near(ci.High, tt.high) {
			t.Errorf("Wilson(%d/%d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.k, tt.n, ci.Low, ci.High, tt.low, tt.high)
		}
	}
	if ci := Wilson(0, 0, Z95); ci.Low != 0 || ci.High != 1 {
		t.Errorf("Wilson(0/0) = %v", ci)
	}
}

func TestHistogramQuantiles(t *testing.T) {
	var h Histogram
	for _, v := range []int{7, 1, 3, 3, 10, 2} {
		h.Add(v)
	}
	// Sorted: 1 2 3 3 7 10. Type-7 quantiles as in R/NumPy.
	checks := map[float64]float64{0: 1, 0.5: 3, 1: 10, 0.05: 1.25, 0.95: 9.25, 0.25: 2.25}
	for q, want := range checks {
		if got := h.Quantile(q); !near(got, want) {
			t.Errorf("Quantile(%g) = %g, want %g", q, got, want)
		}
	}
	if !near(h.Mean(), 26.0/6) || h.N() != 6 {
		t.Errorf("mean %g n %d", h.Mean(), h.N())
	}
	var empty Histogram
	if empty.Quantile(0.5) != 0 || empty.Mean() != 0 {
		t.Error("empty histogram")
	}
}

func TestMoments(t *testing.T) {
	var m Moments
	for _, x := range []float64{2, 4, 4, 4, 5, 5, 7, 9} {
		m.Add(x)
	}
	if m.Min() != 2 || m.Max() != 9 {
		t.Errorf("min %g max %g", m.Min(), m.Max())
	}
	if !near(m.Mean(), 5) || !near(m.SD(), math.Sqrt(32.0/7)) {
		t.Errorf("mean %g sd %g", m.Mean(), m.SD())
	}
	ci := m.MeanInterval(Z95)
	half := Z95 * math.Sqrt(32.0/7) / math.Sqrt(8)
	if !near(ci.Low, 5-half) || !near(ci.High, 5+half) {
		t.Errorf("interval %v", ci)
	}
}

// TestClusteredWilson: clusters of one observation give Wilson's
// interval; clusters whose observations share one result know what
// their clusters know, not their observations (at 0 too, where the
// variance says nothing); and over simulated clustered rates the 95%
// interval covers the truth about 95% of the time.
func TestClusteredWilson(t *testing.T) {
	ones := func(ys ...float64) (s, c []float64) {
		for _, y := range ys {
			s, c = append(s, y), append(c, 1)
		}
		return s, c
	}
	s, c := ones(1, 0, 1, 1, 0, 1, 1, 1, 0, 1)
	if got, want := ClusteredWilson(s, c, Z95), Wilson(7, 10, Z95); math.Abs(got.Low-want.Low) > 0.02 || math.Abs(got.High-want.High) > 0.02 {
		t.Errorf("clusters of one: %+v, Wilson %+v", got, want)
	}
	// 14 games of 10 positions each, all lost: Wilson's over 14, not 140.
	s, c = make([]float64, 14), make([]float64, 14)
	for i := range c {
		c[i] = 10
	}
	if got, want := ClusteredWilson(s, c, Z95), Wilson(0, 14, Z95); math.Abs(got.High-want.High) > 1e-12 || math.Abs(got.Low) > 1e-12 {
		t.Errorf("all lost: %+v, want %+v", got, want)
	}
	if got := ClusteredWilson(nil, nil, Z95); got != (Interval{0, 1}) {
		t.Errorf("no observations: %+v", got)
	}
	// Coverage: 40 clusters of 1 to 59 observations sharing one result
	// drawn at rate p, 2,000 times for each p.
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range []float64{0.1, 0.3, 0.5} {
		covered, reps := 0, 2000
		for range reps {
			s, c := make([]float64, 40), make([]float64, 40)
			for i := range c {
				c[i] = float64(1 + rng.IntN(59))
				if rng.Float64() < p {
					s[i] = c[i]
				}
			}
			if iv := ClusteredWilson(s, c, Z95); iv.Low <= p && p <= iv.High {
				covered++
			}
		}
		if rate := float64(covered) / float64(reps); rate < 0.92 || rate > 0.985 {
			t.Errorf("p %.1f: coverage %.3f", p, rate)
		}
	}
}
