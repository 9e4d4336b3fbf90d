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

// simulatePairs draws n pairs of games in which seat 0 wins with
// probability win and draws with probability draw, the second game of a
// pair copying the first with probability rho (rho < 0: mirroring it).
func simulatePairs(rng *rand.Rand, n int, win, draw, rho float64) Pentanomial {
	game := func() float64 {
		u := rng.Float64()
		switch {
		case u < win:
			return 1
		case u < win+draw:
			return 0.5
		}
		return 0
	}
	var p Pentanomial
	for range n {
		a := game()
		b := game()
		if u := rng.Float64(); u < math.Abs(rho) {
			b = a
			if rho < 0 {
				b = 1 - a
			}
		}
		p.Add(a, b)
	}
	return p
}

// coverage runs reps simulated experiments and returns the share of
// intervals that hold the true score.
func coverage(rng *rand.Rand, reps, n int, win, draw, rho float64, interval func(*Pentanomial) Interval) float64 {
	truth := win + draw/2
	hit := 0
	for range reps {
		p := simulatePairs(rng, n, win, draw, rho)
		iv := interval(&p)
		if iv.Low <= truth && truth <= iv.High {
			hit++
		}
	}
	return float64(hit) / float64(reps)
}

type scenario struct{ win, draw, rho float64 }

var coverageScenarios = []scenario{
	{0.5, 0, 0}, {0.5, 0, 0.28}, {0.5, 0, 0.5}, {0.5, 0, -0.3},
	{0.6, 0, 0.28}, {0.7, 0, 0}, {0.7, 0, 0.28}, {0.8, 0, 0.28}, {0.85, 0, 0.5},
	{0.45, 0.1, 0.28}, {0.3, 0.2, 0.4},
}

// TestPairedWilsonCoverage checks by simulation that the paired interval
// keeps its 95% coverage with few pairs, where the normal interval on the
// pair means does not (the reason it exists).
func TestPairedWilsonCoverage(t *testing.T) {
	reps := 4000
	if testenv.RaceEnabled {
		reps = 1000
	}
	rng := rand.New(rand.NewPCG(7, 11))
	worstNormal := 1.0
	for _, n := range []int{10, 20, 50} {
		for _, sc := range coverageScenarios {
			paired := coverage(rng, reps, n, sc.win, sc.draw, sc.rho, func(p *Pentanomial) Interval { return p.PairedWilson(Z95) })
			normal := coverage(rng, reps, n, sc.win, sc.draw, sc.rho, func(p *Pentanomial) Interval {
				s := p.Score(Z95)
				return Interval{s.Score - Z95*s.SE, s.Score + Z95*s.SE}
			})
			t.Logf("%3d pairs, win %.2f draw %.2f rho %+.2f: paired %.3f, normal %.3f", n, sc.win, sc.draw, sc.rho, paired, normal)
			// 4,000 replications: a true 95% coverage shows below 0.925
			// with probability about 1e-12, a true 94% about 1e-5.
			floor := 0.925
			if testenv.RaceEnabled {
				floor = 0.915
			}
			if paired < floor {
				t.Errorf("%d pairs, win %.2f, draw %.2f, rho %.2f: paired coverage %.3f < %.3f", n, sc.win, sc.draw, sc.rho, paired, floor)
			}
			if n == 20 {
				worstNormal = math.Min(worstNormal, normal)
			}
		}
	}
	if worstNormal > 0.935 {
		t.Errorf("the normal interval's worst coverage at 20 pairs is %.3f: the simulation no longer shows why the paired interval is needed", worstNormal)
	}
}
