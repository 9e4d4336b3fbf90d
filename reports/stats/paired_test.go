package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"playtest/internal/testenv"
)

// bruteSignFlip enumerates every sign assignment of the pairs' deviations.
func bruteSignFlip(p Pentanomial) float64 {
	var devs []int // in half points
	obs := 0
	for i, c := range p {
		for range c {
			d := i - 2
			obs += d
			if d != 0 {
				devs = append(devs, d)
			}
		}
	}
	hits, total := 0, 0
	for mask := 0; mask < 1<<len(devs); mask++ {
		s := 0
		for k, d := range devs {
			if mask>>k&1 == 1 {
				s += d
			} else {
				s -= d
			}
		}
		total++
		if abs(s) >= abs(obs) {
			hits++
		}
	}
	return float64(hits) / float64(total)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestSignFlipTestMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []Pentanomial{{0, 0, 5, 0, 0}, {0, 0, 0, 0, 1}, {0, 0, 0, 0, 6}, {1, 2, 3, 4, 5}, {3, 0, 0, 0, 0}, {0, 4, 0, 0, 0}}
	for range 40 {
		var p Pentanomial
		for k := range 1 + rng.IntN(14) {
			_ = k
			p[rng.IntN(5)]++
		}
		cases = append(cases, p)
	}
	for _, p := range cases {
		got, want := p.SignFlipTest(), bruteSignFlip(p)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%v: SignFlipTest = %.12f, enumeration %.12f", p, got, want)
		}
	}
	// Pairs that all split or all win both games: the sign test.
	if got, want := (&Pentanomial{0, 0, 0, 0, 10}).SignFlipTest(), 2.0/1024; math.Abs(got-want) > 1e-12 {
		t.Errorf("10 clean sweeps: p = %g, want %g", got, want)
	}
}

// pairModel is a distribution of seat-swapped pairs: seat 0's mean score
// per game, the within-pair correlation of the two games' scores, and the
// share of drawn games.
type pairModel struct{ mean, rho, draw float64 }

// probs returns the model's pentanomial probabilities (seat 0's pair
// score 0, ½, 1, 1½, 2). Without draws the pair's mean score takes 0, ½ or
// 1, and the three probabilities follow from the mean and the variance
// μ(1−μ)(1+ρ)/2. With draws the games are independent (rho must be 0):
// each a win with probability mean − draw/2, a draw with draw.
func (m pairModel) probs() [5]float64 {
	if m.draw == 0 {
		variance := m.mean * (1 - m.mean) * (1 + m.rho) / 2
		c := 2*(variance+m.mean*m.mean) - m.mean // both games won
		b := 2 * (m.mean - c)                    // one each
		return [5]float64{1 - b - c, 0, b, 0, c}
	}
	win, draw := m.mean-m.draw/2, m.draw
	game := [3]float64{1 - win - draw, draw, win} // scores 0, ½, 1
	var out [5]float64
	for i := range 3 {
		for j := range 3 {
			out[i+j] += game[i] * game[j]
		}
	}
	return out
}

// draw draws n pairs from the model.
func (m pairModel) sample(rng *rand.Rand, n int, cum [5]float64) Pentanomial {
	var p Pentanomial
	for range n {
		u := rng.Float64()
		k := 0
		for k < 4 && u >= cum[k] {
			k++
		}
		p[k]++
	}
	return p
}

// pairModels are the coverage test's cases: seat 0 at 50, 55 and 65% with
// within-pair correlations +0.5, 0 and −0.8 (pairs that almost always
// split, where the old floor on the design effect made the interval about
// 1.6 times too wide; −0.5 at 65%, which allows no less), and 30% draws.
var pairModels = []pairModel{
	{0.5, 0.5, 0}, {0.5, 0, 0}, {0.5, -0.8, 0},
	{0.55, 0.5, 0}, {0.55, 0, 0}, {0.55, -0.8, 0},
	{0.65, 0.5, 0}, {0.65, 0, 0}, {0.65, -0.5, 0}, // −0.54 is the least a 65% seat allows
	{0.55, 0, 0.3},
}

// pairCoverage is one case's simulated coverage, the share of intervals
// missing on each side, the mean width over the ideal one, and how often
// the test and the interval disagreed.
type pairCoverage struct {
	cover, missLow, missHigh, width float64
	disagree                        int
}

func simulateCoverage(rng *rand.Rand, reps, n int, m pairModel) pairCoverage {
	probs := m.probs()
	var cum [5]float64
	sum, mean, sq := 0.0, 0.0, 0.0
	for k, q := range probs {
		sum += q
		cum[k] = sum
		x := float64(k) / 4
		mean += q * x
		sq += q * x * x
	}
	ideal := 2 * Z95 * math.Sqrt((sq-mean*mean)/float64(n))
	var c pairCoverage
	for range reps {
		p := m.sample(rng, n, cum)
		iv := p.PairedWilson(Z95)
		switch {
		case iv.High < mean:
			c.missHigh++ // the interval lies below the truth
		case iv.Low > mean:
			c.missLow++
		default:
			c.cover++
		}
		c.width += (iv.High - iv.Low) / ideal
		if out := iv.Low > 0.5 || iv.High < 0.5; out != (p.PairTest() < 0.05) {
			c.disagree++
		}
	}
	r := float64(reps)
	c.cover, c.missLow, c.missHigh, c.width = c.cover/r, c.missLow/r, c.missHigh/r, c.width/r
	return c
}

// TestPairedIntervalCoverage checks by simulation that the paired interval
// covers the true score 93–97% of the time at 10 to 1,000 pairs, with
// positive, zero and negative within-pair correlation (each side missing
// at most 4.5%), is no more than 1.15 times the ideal normal width from 50
// pairs on, and never disagrees with PairTest. Where pairs split almost
// always (correlation −0.5 and below) the pair scores take few values, and
// many samples are all splits: every interval around 50% then holds a
// true 50%, so no interval can keep its coverage down to 0.97 there; the
// test asks only for at least 0.93. With -v it logs the table
// docs/verdicts.md shows (go test ./reports/stats -run
// TestPairedIntervalCoverage -v).
func TestPairedIntervalCoverage(t *testing.T) {
	reps := 4000
	if testenv.RaceEnabled {
		reps = 1000
	}
	rng := rand.New(rand.NewPCG(7, 11))
	t.Log("| pairs | seat 0 | correlation | draws | coverage | misses below / above | width / ideal |")
	t.Log("|---:|---:|---:|---:|---:|---:|---:|")
	for _, n := range []int{10, 20, 50, 200, 1000} {
		for _, m := range pairModels {
			c := simulateCoverage(rng, reps, n, m)
			t.Logf("| %d | %.0f%% | %+.1f | %.0f%% | %.3f | %.3f / %.3f | %.2f |", n, 100*m.mean, m.rho, 100*m.draw, c.cover, c.missHigh, c.missLow, c.width)
			// 4,000 replications: the standard error of a 95% coverage
			// is 0.0034, so 0.93–0.97 is about ±6 of them.
			lo, hi, side := 0.93, 0.97, 0.045
			if testenv.RaceEnabled {
				lo, hi, side = 0.92, 0.98, 0.055
			}
			if m.rho <= -0.5 {
				hi = 1
			}
			if c.cover < lo || c.cover > hi || c.missLow > side || c.missHigh > side {
				t.Errorf("%d pairs, %+v: coverage %.3f (misses %.3f below, %.3f above), want %.2f–%.2f", n, m, c.cover, c.missHigh, c.missLow, lo, hi)
			}
			if n >= 50 && c.width > 1.15 {
				t.Errorf("%d pairs, %+v: %.2f times the ideal width", n, m, c.width)
			}
			if c.disagree > 0 {
				t.Errorf("%d pairs, %+v: the test and the interval disagreed %d times", n, m, c.disagree)
			}
		}
	}
}
