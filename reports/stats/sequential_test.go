package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMultipleComparisons(t *testing.T) {
	// Adjusted by hand, as R's p.adjust gives them.
	for _, c := range []struct {
		p, holm, bh []float64
	}{
		{[]float64{0.01, 0.02, 0.03, 0.04, 0.05}, []float64{0.05, 0.08, 0.09, 0.09, 0.09}, []float64{0.05, 0.05, 0.05, 0.05, 0.05}},
		{[]float64{0.2, 0.001, 0.04, 0.01}, []float64{0.2, 0.004, 0.08, 0.03}, []float64{0.2, 0.004, 0.04 * 4 / 3, 0.02}},
		{[]float64{0.5, 0.5}, []float64{1, 1}, []float64{0.5, 0.5}},
		{nil, []float64{}, []float64{}},
	} {
		holm, bh := Holm(c.p), BenjaminiHochberg(c.p)
		for i := range c.p {
			if !within(holm[i], c.holm[i], 1e-12) || !within(bh[i], c.bh[i], 1e-12) {
				t.Errorf("p %v: Holm %v (want %v), BH %v (want %v)", c.p, holm, c.holm, bh, c.bh)
				break
			}
		}
	}
}

func TestSPRTBounds(t *testing.T) {
	s := SPRT{S0: 0.5, S1: 0.55, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	if !within(lo, -2.944439, 1e-6) || !within(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v, want ±2.944 (log 19)", lo, hi)
	}
	if s.Decide(3) != AcceptH1 || s.Decide(-3) != AcceptH0 || s.Decide(0) != Continue {
		t.Error("decisions")
	}
	for _, bad := range []SPRT{{S0: 0.5, S1: 0.5, Alpha: 0.05, Beta: 0.05}, {S0: 0.5, S1: 0.4, Alpha: 0.05, Beta: 0.05},
		{S0: 0, S1: 0.5, Alpha: 0.05, Beta: 0.05}, {S0: 0.5, S1: 0.6, Alpha: 0, Beta: 0.05}, {S0: 0.5, S1: 0.6, Alpha: 0.6, Beta: 0.5},
		{Normalized: true, T0: 0.1, T1: 0, Alpha: 0.05, Beta: 0.05}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validates", bad)
		}
	}
}

// TestSPRTLLR compares the exact GSPRT with the normal approximation
// fastchess used before it: n (s1 − s0)(2ŝ − s0 − s1) / (2σ²) over pairs,
// with σ² the per-pair variance of the pair score; they agree when the
// hypotheses are close to the observed score.
func TestSPRTLLR(t *testing.T) {
	p := Pentanomial{100, 400, 1000, 600, 200}
	n, mean, m2 := 0.0, 0.0, 0.0
	for i, c := range p {
		n += float64(c)
		mean += float64(c) * pairScores[i]
	}
	mean /= n
	for i, c := range p {
		m2 += float64(c) * (pairScores[i] - mean) * (pairScores[i] - mean)
	}
	variance := m2 / n
	for _, h := range [][2]float64{{0.5, 0.52}, {0.52, 0.54}, {0.53, 0.535}, {0.54, 0.55}} {
		s := SPRT{S0: h[0], S1: h[1], Alpha: 0.05, Beta: 0.05}
		exact := s.LLR(p)
		approx := n * (h[1] - h[0]) * (2*mean - h[0] - h[1]) / (2 * variance)
		if math.Abs(exact-approx) > 0.03*math.Abs(approx)+0.05 {
			t.Errorf("%v: LLR %v, approximation %v (ŝ %.4f)", h, exact, approx, mean)
		}
	}
	// The fitted distributions have the hypotheses' means and sum to 1.
	probs := [5]float64{0.1, 0.2, 0.3, 0.25, 0.15}
	for _, s := range []float64{0.2, 0.5, 0.55, 0.9} {
		q := mleWithMean(probs, s)
		sum, m := 0.0, 0.0
		for i := range q {
			sum += q[i]
			m += q[i] * pairScores[i]
		}
		if !within(sum, 1, 1e-9) || !within(m, s, 1e-9) {
			t.Errorf("fit to mean %v: sum %v, mean %v", s, sum, m)
		}
	}
	// Every pair alike, exactly at H0: the ratio favours H0 and grows with n.
	s := SPRT{S0: 0.5, S1: 0.55, Alpha: 0.05, Beta: 0.05}
	a, b := s.LLR(Pentanomial{0, 0, 10, 0, 0}), s.LLR(Pentanomial{0, 0, 100, 0, 0})
	if !(a < 0 && b < a) || s.LLR(Pentanomial{}) != 0 {
		t.Errorf("all draws: LLR %v after 10 pairs, %v after 100", a, b)
	}
}

// TestSPRTErrorRates runs the test on simulated pair results, as
// fishtest's LLRsimulate does: with H0 true it must accept H1 in at most
// about α of the runs, with H1 true accept H0 in at most about β.
func TestSPRTErrorRates(t *testing.T) {
	s := SPRT{S0: 0.5, S1: 0.55, Alpha: 0.05, Beta: 0.05}
	base := [5]float64{0.05, 0.2, 0.5, 0.2, 0.05} // mean ½
	rng := rand.New(rand.NewPCG(1, 2))
	const runs = 300
	for _, c := range []struct {
		mean  float64
		wrong SPRTDecision
	}{{s.S0, AcceptH1}, {s.S1, AcceptH0}} {
		probs := mleWithMean(base, c.mean)
		wrong, pairs := 0, 0
		for range runs {
			var p Pentanomial
			d := Continue
			for d == Continue && p.Pairs() < 100000 {
				u, k := rng.Float64(), 0
				for k < 4 && u >= probs[k] {
					u -= probs[k]
					k++
				}
				p[k]++
				d = s.Decide(s.LLR(p))
			}
			if d == c.wrong {
				wrong++
			}
			pairs += p.Pairs()
		}
		if rate := float64(wrong) / runs; rate > 0.09 {
			t.Errorf("true mean %v: wrong decision in %.1f%% of %d runs (want about 5%% or less)", c.mean, 100*rate, runs)
		}
		t.Logf("true mean %v: %d of %d runs wrong, %.0f pairs per run", c.mean, wrong, runs, float64(pairs)/runs)
	}
}

// TestNormalizedSPRT checks the normalized model: each fitted distribution
// sums to 1 and has the hypothesis' normalized score (μ − ½)/σ, and the
// LLR agrees with its normal approximation n (t1 − t0)(2t̂ − t0 − t1) / 2
// over pairs when the hypotheses are close to the observed t̂.
func TestNormalizedSPRT(t *testing.T) {
	p := Pentanomial{100, 400, 1000, 600, 200}
	var phat [5]float64
	n := float64(p.Pairs())
	for i, c := range p {
		phat[i] = float64(c) / n
	}
	moments := func(q [5]float64) (mu, sigma, sum float64) {
		for i, a := range pairScores {
			mu += q[i] * a
			sum += q[i]
		}
		v := 0.0
		for i, a := range pairScores {
			v += q[i] * (a - mu) * (a - mu)
		}
		return mu, math.Sqrt(v), sum
	}
	for _, target := range []float64{-0.1, 0, 0.05, 0.2} {
		mu, sigma, sum := moments(mleNormalized(phat, target))
		if !within(sum, 1, 1e-9) || !within((mu-0.5)/sigma, target, 2e-3) {
			t.Errorf("t = %v: fitted distribution sums to %v with t %v", target, sum, (mu-0.5)/sigma)
		}
	}
	mu, sigma, _ := moments(phat)
	that := (mu - 0.5) / sigma
	t0, t1 := that-0.02, that+0.01
	s := SPRT{Normalized: true, T0: t0, T1: t1, Alpha: 0.05, Beta: 0.05}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	got, want := s.LLR(p), n*(t1-t0)*(2*that-t0-t1)/2
	if math.Abs(got-want) > 0.05*math.Abs(want)+0.01 {
		t.Errorf("normalized LLR %v, normal approximation %v", got, want)
	}
	// fastchess's scale: 5 normalized Elo is a pair t of about 0.0102.
	if !within(NormalizedT(5), math.Sqrt2*5*math.Ln10/800, 1e-12) {
		t.Errorf("NormalizedT(5) = %v", NormalizedT(5))
	}
}
