package stats

import (
	"fmt"
	"math"
)

// SPRT is a generalised sequential probability ratio test (GSPRT) on
// pentanomial pair counts, as fishtest and fastchess run it. In the
// logistic model (fishtest's LLR_logistic, fastchess's model=logistic) H0
// says the expected score per game is S0 and H1 that it is S1 (S0 < S1).
// In the normalized model (fastchess's model=normalized, the default of
// fishtest and fastchess today) the hypotheses are on the normalized score
// t = (μ − ½)/σ of a pair, T0 < T1. After each pair the log-likelihood
// ratio of the two hypotheses, each fitted by maximum likelihood to the
// observed pair distribution, is compared with the bounds log(β/(1−α))
// and log((1−β)/α).
type SPRT struct {
	S0, S1      float64
	Alpha, Beta float64
	// Normalized selects the normalized model, with T0 and T1.
	Normalized bool
	T0, T1     float64
}

// NormalizedT is the normalized score t of a pair under a normalized Elo
// difference nelo per game, as fastchess computes it for pentanomial
// counts: √2 · nelo / (800 / ln 10).
func NormalizedT(nelo float64) float64 { return math.Sqrt2 * nelo / (800 / math.Ln10) }

// SPRTDecision is where a sequential test stands.
type SPRTDecision int

// The decisions of a sequential test.
const (
	Continue SPRTDecision = iota
	AcceptH0
	AcceptH1
)

func (d SPRTDecision) String() string {
	return [...]string{"continue", "H0 accepted", "H1 accepted"}[d]
}

// Validate checks the test's parameters.
func (t SPRT) Validate() error {
	if t.Normalized {
		switch {
		case !(t.T0 < t.T1):
			return fmt.Errorf("H0's normalized Elo must be below H1's")
		case t.Alpha <= 0 || t.Alpha >= 1 || t.Beta <= 0 || t.Beta >= 1:
			return fmt.Errorf("alpha and beta must lie strictly between 0 and 1, got %g and %g", t.Alpha, t.Beta)
		case t.Alpha+t.Beta >= 1:
			return fmt.Errorf("alpha + beta must be below 1, got %g", t.Alpha+t.Beta)
		}
		return nil
	}
	switch {
	case !(t.S0 < t.S1):
		return fmt.Errorf("H0's score %g must be below H1's %g", t.S0, t.S1)
	case t.S0 <= 0 || t.S1 >= 1:
		return fmt.Errorf("the hypotheses' scores must lie strictly between 0 and 1, got %g and %g", t.S0, t.S1)
	case t.Alpha <= 0 || t.Alpha >= 1 || t.Beta <= 0 || t.Beta >= 1:
		return fmt.Errorf("alpha and beta must lie strictly between 0 and 1, got %g and %g", t.Alpha, t.Beta)
	case t.Alpha+t.Beta >= 1:
		return fmt.Errorf("alpha + beta must be below 1, got %g", t.Alpha+t.Beta)
	}
	return nil
}

// Bounds returns the lower and upper bounds of the log-likelihood ratio.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decide returns the decision for a log-likelihood ratio.
func (t SPRT) Decide(llr float64) SPRTDecision {
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// pairScores are a pair's score per game for each pentanomial count.
var pairScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// LLR returns the log-likelihood ratio of H1 against H0 for the pair
// counts. Empty cells count 0.001 (fastchess's regularisation), so a
// distribution with every pair alike still has a finite ratio.
func (t SPRT) LLR(p Pentanomial) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	var probs [5]float64
	total := 0.0
	for i, c := range p {
		probs[i] = float64(c)
		if c == 0 {
			probs[i] = 1e-3
		}
		total += probs[i]
	}
	for i := range probs {
		probs[i] /= total
	}
	p0, p1 := mleWithMean(probs, t.S0), mleWithMean(probs, t.S1)
	if t.Normalized {
		p0, p1 = mleNormalized(probs, t.T0), mleNormalized(probs, t.T1)
	}
	llr := 0.0
	for i, ph := range probs {
		llr += ph * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * llr
}

// mleWithMean returns the distribution on pairScores with mean s closest
// to the empirical one in likelihood: p_i = phat_i / (1 + θ(a_i − s)),
// with θ the root of Σ phat_i (a_i − s) / (1 + θ(a_i − s)) = 0 (Van den
// Bergh, "Comments on normalized Elo", proposition 1.1).
func mleWithMean(phat [5]float64, s float64) [5]float64 {
	f := func(theta float64) float64 {
		sum := 0.0
		for i, a := range pairScores {
			sum += phat[i] * (a - s) / (1 + theta*(a-s))
		}
		return sum
	}
	// f decreases on (−1/(1−s), 1/s), where every 1 + θ(a−s) > 0; it runs
	// from +∞ to −∞ there.
	theta := rootOfDecreasing(f, -1/(1-s), 1/s)
	var p [5]float64
	for i, a := range pairScores {
		p[i] = phat[i] / (1 + theta*(a-s))
	}
	return p
}

// mleNormalized returns the distribution on pairScores closest in
// likelihood to phat whose normalized score (μ − ½)/σ is t (Van den Bergh,
// "Comments on normalized Elo", section 4.1, as fastchess's
// getLLR_normalized): from the uniform distribution, at most ten rounds of
// p_i = phat_i / (1 + θ φ_i) with φ_i = a_i − ½ − ½ t σ (1 + ((a_i − μ)/σ)²)
// from the previous round's μ and σ, θ the root of Σ phat_i φ_i /
// (1 + θ φ_i) = 0, until no p_i moves by 1e-4.
func mleNormalized(phat [5]float64, t float64) [5]float64 {
	p := [5]float64{0.2, 0.2, 0.2, 0.2, 0.2}
	for range 10 {
		mu, variance := 0.0, 0.0
		for i, a := range pairScores {
			mu += p[i] * a
		}
		for i, a := range pairScores {
			variance += p[i] * (a - mu) * (a - mu)
		}
		sigma := math.Sqrt(variance)
		var phi [5]float64
		u, v := math.Inf(1), math.Inf(-1)
		for i, a := range pairScores {
			z := (a - mu) / sigma
			phi[i] = a - 0.5 - 0.5*t*sigma*(1+z*z)
			u, v = min(u, phi[i]), max(v, phi[i])
		}
		if !(u < 0 && v > 0) {
			return p // no distribution of this form reaches t
		}
		f := func(theta float64) float64 {
			sum := 0.0
			for i := range phat {
				sum += phat[i] * phi[i] / (1 + theta*phi[i])
			}
			return sum
		}
		// f decreases from +∞ to −∞ on (−1/v, −1/u).
		theta := rootOfDecreasing(f, -1/v, -1/u)
		moved := 0.0
		for i := range p {
			next := phat[i] / (1 + theta*phi[i])
			moved = max(moved, math.Abs(next-p[i]))
			p[i] = next
		}
		if moved < 1e-4 {
			break
		}
	}
	return p
}

// rootOfDecreasing finds by bisection the root of f, decreasing from +∞ to
// −∞ on the open interval (lo, hi), to the precision of a float64.
func rootOfDecreasing(f func(float64) float64, lo, hi float64) float64 {
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
