package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PairedWilson returns a 95%-type interval (at normal quantile z) for the
// mean score per game of seat-swapped pairs, from their pentanomial counts.
// The two games of a pair share a deal, so they are not independent: the
// interval is Wilson's, with the number of games replaced by the effective
// sample size 2n/deff, where the design effect deff is the variance of the
// pair means over the variance two independent games would give (Kish's
// effective sample size; Korn and Graubard's use of it in Wilson-type
// intervals for clustered rates). The variance is estimated from the pairs shrunk
// toward independent games by PriorPairs pseudo-pairs, so that few pairs
// that happen to agree (every pair split, say) do not make the interval
// collapse, while many pairs keep their own variance. With no pairs it is
// [0, 1]. PairTest is the test this interval inverts: 50% lies outside it
// exactly when PairTest's p-value is below the level.
func (p *Pentanomial) PairedWilson(z float64) Interval {
	n := p.Pairs()
	if n == 0 {
		return Interval{0, 1}
	}
	mean, games, q := p.effective(z)
	return wilsonReal(mean, games, q)
}

// PriorPairs is the weight, in pairs, of the prior variance (two
// independent games) in the paired interval's variance estimate. Chosen by
// simulation (TestPairedIntervalCoverage, with 0.5 to 8 pseudo-pairs and
// the normal or Student's quantile tried): with 3 and the normal quantile
// the coverage stays at or above 0.93 from 10 pairs on, at or below 0.97
// wherever the pair scores spread (within-pair correlations above −0.5),
// and the width within 1.10 times the ideal normal one from 50 pairs on.
const PriorPairs = 3

// effective returns the mean score per game, the effective number of
// games and the quantile of the paired interval and test (z itself: the
// shrinkage already keeps few pairs from narrowing the interval, and
// Student's quantile on top over-covered).
func (p *Pentanomial) effective(z float64) (mean, games, q float64) {
	n := p.Pairs()
	mean, variance := p.moments()
	if n > 1 {
		variance *= float64(n) / float64(n-1) // unbiased
	}
	games = 2 * float64(n)
	// Two independent games give binomial/2 for the pair mean (for a 0/1
	// outcome; less with draws). At a mean of 0 or 1 the prior takes a
	// quarter point's spread, as if one game in a few were drawn.
	prior := math.Max(mean*(1-mean), 1.0/16) / 2
	shrunk := (float64(n)*variance + PriorPairs*prior) / float64(n+PriorPairs)
	if binomial := mean * (1 - mean); binomial > 0 {
		games /= shrunk / (binomial / 2)
	}
	return mean, games, z
}

// PairTest returns the two-sided p-value, for seat-swapped pairs, of no
// seat advantage (a mean score per game of ½): the score test PairedWilson
// inverts, with the same effective number of games.
// It is below a level exactly when the interval at that level leaves ½
// out, so a verdict read off the interval never contradicts it.
func (p *Pentanomial) PairTest() float64 {
	n := p.Pairs()
	if n == 0 {
		return 1
	}
	mean, games, _ := p.effective(Z95)
	score := math.Abs(mean-0.5) / math.Sqrt(0.25/games)
	return math.Min(1, math.Erfc(score/math.Sqrt2))
}

// moments returns the mean score per game and the variance of the pair
// means (a pair's total over 2), with denominator n.
func (p *Pentanomial) moments() (mean, variance float64) {
	n := float64(p.Pairs())
	for i, c := range p {
		mean += float64(c) * float64(i) / 4
	}
	mean /= n
	for i, c := range p {
		d := float64(i)/4 - mean
		variance += float64(c) * d * d
	}
	return mean, variance / n
}

// wilsonReal is Wilson's score interval for an observed rate over a
// (possibly fractional) effective number of trials.
func wilsonReal(p, n, z float64) Interval {
	z2 := z * z
	den := 1 + z2/n
	center := (p + z2/(2*n)) / den
	half := z * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / den
	return Interval{Low: math.Max(0, center-half), High: math.Min(1, center+half)}
}

// Correlation returns the within-pair correlation of the score: the
// intraclass correlation of the two games' scores estimated from the pair
// totals as deff − 1, where deff is the variance of the pair means over
// half the per-game variance. It is 0 with no spread or no pairs. A
// positive value (the deal favours one seat in both games) makes pairs
// carry less information than two independent games; a negative one
// (pairs that split) more.
func (p *Pentanomial) Correlation(perGameVariance float64) float64 {
	n := p.Pairs()
	if n < 2 || perGameVariance <= 0 {
		return 0
	}
	_, variance := p.moments()
	return math.Max(-1, math.Min(1, variance/(perGameVariance/2)-1))
}

// SignFlipTest returns the two-sided p-value of the exact sign-flip
// (permutation) test that seat-swapped pairs show no seat advantage. In a
// pair the same deal is played twice with the players' seats swapped; if
// the seat does not matter, player 0's score in seat 0 and in seat 1 are
// exchangeable, so each pair's seat-0 total minus 1 (−1, −½, 0, ½ or 1) is
// symmetric about 0. The test conditions on the pairs' absolute deviations
// and counts every assignment of signs whose sum is at least as far from 0
// as the one observed. It makes no normal approximation and treats the
// pair, not the game, as the unit, so it holds however the two games of a
// deal are correlated. The counts are seat 0's pentanomial.
func (p *Pentanomial) SignFlipTest() float64 {
	a := p[1] + p[3] // pairs ½ off even
	b := p[0] + p[4] // pairs 1 off even
	// The statistic in half points: Σ ±1 over a pairs, Σ ±2 over b pairs.
	observed := (p[3] - p[1]) + 2*(p[4]-p[0])
	if a+b == 0 {
		return 1
	}
	// S = (2X − a) + 2(2Y − b) with X ~ Bin(a, ½), Y ~ Bin(b, ½): for
	// each y, the x far enough from even are two tails of X.
	limit := math.Abs(float64(observed))
	bb := distuv.Binomial{N: float64(b), P: 0.5}
	total := 0.0
	for y := 0; y <= b; y++ {
		py := bb.Prob(float64(y))
		if py == 0 {
			continue
		}
		c := float64(2*(2*y-b) - a)                // S = 2x + c
		hi := int(math.Ceil((limit-c)/2 - 1e-9))   // x ≥ hi: S ≥ limit
		lo := int(math.Floor((-limit-c)/2 + 1e-9)) // x ≤ lo: S ≤ −limit
		if lo >= hi {
			total += py // every x qualifies
			continue
		}
		total += py * (binomialHalfCDF(a, lo) + 1 - binomialHalfCDF(a, hi-1))
	}
	return math.Min(1, total)
}

// binomialHalfCDF is P(X ≤ k) for X ~ Bin(n, ½).
func binomialHalfCDF(n, k int) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	}
	return distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(k))
}
