package stats

import (
	"math"
	"testing"
)

func within(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestIntervalsAgainstReferences checks the intervals against published
// values (R's binom.test and prop.test without continuity correction, and
// the Clopper-Pearson tables).
func TestIntervalsAgainstReferences(t *testing.T) {
	tests := []struct {
		name      string
		got, want Interval
	}{
		{"Wilson 5/10", Wilson(5, 10, Z95), Interval{0.2366, 0.7634}},
		{"Wilson 0/10", Wilson(0, 10, Z95), Interval{0, 0.2775}},
		{"Wilson 81/263", Wilson(81, 263, Z95), Interval{0.2553, 0.3662}},
		{"Clopper-Pearson 5/10", ClopperPearson(5, 10, 0.05), Interval{0.1871, 0.8129}},
		{"Clopper-Pearson 0/10", ClopperPearson(0, 10, 0.05), Interval{0, 0.3085}},
		{"Clopper-Pearson 10/10", ClopperPearson(10, 10, 0.05), Interval{0.6915, 1}},
		{"Clopper-Pearson 682/925 (R's binom.test example)", ClopperPearson(682, 925, 0.05), Interval{0.7076683, 0.7654066}},
	}
	for _, tt := range tests {
		if !within(tt.got.Low, tt.want.Low, 5e-5) || !within(tt.got.High, tt.want.High, 5e-5) {
			t.Errorf("%s: %+v, want %+v", tt.name, tt.got, tt.want)
		}
	}
	if iv := ClopperPearson(0, 0, 0.05); iv != (Interval{0, 1}) {
		t.Errorf("n = 0: %+v", iv)
	}
}

// TestBinomialTest checks p-values against R's binom.test.
func TestBinomialTest(t *testing.T) {
	tests := []struct {
		k, n int
		p    float64
		want float64
	}{
		{5, 10, 0.5, 1},
		{0, 10, 0.5, 0.001953125},
		{9, 10, 0.5, 0.021484375},
		{60, 100, 0.5, 0.05688793},
		{682, 925, 0.75, 0.3825},
	}
	for _, tt := range tests {
		if got := BinomialTest(tt.k, tt.n, tt.p); !within(got, tt.want, 5e-5*math.Max(1, tt.want)) {
			t.Errorf("binom.test(%d, %d, %g) = %.7f, want %.7f", tt.k, tt.n, tt.p, got, tt.want)
		}
	}
}

// TestPentanomial checks the pair score, its error and Elo on counts worked
// by hand: pairs scoring 0, ½, 1, 1½, 2 with counts 1, 2, 4, 2, 1 have a
// mean of ½ per game and a per-pair variance of 0.075 (in per-game units:
// Σ c (s/2 − ½)² / n = (0.25 + 2·0.0625 + 0 + 2·0.0625 + 0.25) / 10).
func TestPentanomial(t *testing.T) {
	p := Pentanomial{1, 2, 4, 2, 1}
	s := p.Score(Z95)
	if s.Pairs != 10 || s.Score != 0.5 || !within(s.SE, math.Sqrt(0.075/10), 1e-12) || *s.Elo != 0 || !within(*s.EloLow, -*s.EloHigh, 1e-9) {
		t.Errorf("%+v", s)
	}
	// The paired Wilson interval by hand: the unbiased pair variance
	// 0.075·10/9, shrunk toward the binomial ¼/2 by 3 pseudo-pairs, is
	// (10·0.08333 + 3·0.125)/13 = 0.0929487, a design effect of 0.743590,
	// so 26.8966 effective games; Wilson gives ½ ± 0.176758.
	if !within(s.CI.Low, 0.5-0.176758, 1e-6) || !within(s.CI.High, 0.5+0.176758, 1e-6) {
		t.Errorf("interval %+v", s.CI)
	}
	var q Pentanomial
	q.Add(1, 0.5)
	q.Add(1, 1)
	q.Add(0, 0)
	if q != (Pentanomial{1, 0, 0, 1, 1}) {
		t.Errorf("Add: %v", q)
	}
	if !within(Elo(0.75), 190.85, 0.01) || !math.IsInf(Elo(1), 1) || Elo(0.5) != 0 {
		t.Errorf("Elo(0.75) = %v", Elo(0.75))
	}
	if w := (&Pentanomial{0, 0, 0, 0, 3}).Score(Z95); w.Elo != nil || w.Score != 1 || w.CI != Wilson(6, 6, Z95) || w.EloLow == nil {
		t.Errorf("all won: %+v (the interval falls back to Wilson over the games)", w)
	}
	if e := (&Pentanomial{}).Score(Z95); e.Score != 0.5 || e.CI != (Interval{0, 1}) {
		t.Errorf("empty: %+v", e)
	}
}

// TestBootstrapMean checks that the bootstrap interval is reproducible,
// contains the mean, and has about the normal interval's width for a large
// sample of a simple distribution.
func TestBootstrapMean(t *testing.T) {
	var h Histogram
	var m Moments
	for i := range 2000 {
		v := i % 7 // 0..6, uniform: mean 3, sd 2
		h.Add(v)
		m.Add(float64(v))
	}
	a := BootstrapMean(&h, 2000, 0.05, 1)
	b := BootstrapMean(&h, 2000, 0.05, 1)
	if a != b {
		t.Fatalf("not reproducible: %+v %+v", a, b)
	}
	normal := m.MeanInterval(Z95)
	if a.Low > h.Mean() || a.High < h.Mean() {
		t.Errorf("interval %+v misses the mean %v", a, h.Mean())
	}
	if w, nw := a.High-a.Low, normal.High-normal.Low; math.Abs(w-nw)/nw > 0.1 {
		t.Errorf("bootstrap width %.4f, normal %.4f", w, nw)
	}
	var one Histogram
	one.Add(4)
	if iv := BootstrapMean(&one, 100, 0.05, 1); iv != (Interval{4, 4}) {
		t.Errorf("one value: %+v", iv)
	}
}
