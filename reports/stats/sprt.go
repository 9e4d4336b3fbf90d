package stats

import (
	"fmt"
	"math"
)

// SPRT is a generalised sequential probability ratio test (GSPRT) on
// pentanomial pair counts, as fishtest and fastchess run it: H0 says the
// expected score per game is S0, H1 that it is S1 (S0 < S1). After each
// pair the log-likelihood ratio of the two hypotheses, each fitted by
// maximum likelihood to the observed pair distribution, is compared with
// the bounds log(β/(1−α)) and log((1−β)/α).
type SPRT struct {
	S0, S1      float64
	Alpha, Beta float64
}

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
	// from +∞ to −∞ there. Bisect.
	lo, hi := -1/(1-s), 1/s
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
	theta := (lo + hi) / 2
	var p [5]float64
	for i, a := range pairScores {
		p[i] = phat[i] / (1 + theta*(a-s))
	}
	return p
}
