package stats

import (
	"math"
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
