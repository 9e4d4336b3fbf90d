package stats

import (
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// BootstrapMean returns the percentile bootstrap interval for the mean of
// the values of h at confidence 1 − alpha, from resamples resamplings drawn
// with seed's stream, so the interval is reproducible. A resample of n
// games from a histogram is a multinomial draw over its distinct values,
// drawn as successive binomials: its cost does not grow with n. With fewer
// than two values the interval is the mean itself.
func BootstrapMean(h *Histogram, resamples int, alpha float64, seed uint64) Interval {
	n := h.N()
	if n < 2 || resamples < 1 {
		m := h.Mean()
		return Interval{m, m}
	}
	values := h.Values()
	src := rand.NewPCG(seed, 0x626f6f74) // "boot"
	means := make([]float64, resamples)
	for r := range means {
		left, rest := n, n // games still to draw, and their weight left
		sum := 0.0
		for i, v := range values {
			if left == 0 {
				break
			}
			c := h.Count(v)
			k := left
			if i < len(values)-1 {
				k = int(distuv.Binomial{N: float64(left), P: float64(c) / float64(rest), Src: src}.Rand())
			}
			sum += float64(k) * float64(v)
			left -= k
			rest -= c
		}
		means[r] = sum / float64(n)
	}
	slices.Sort(means)
	q := func(p float64) float64 {
		pos := p * float64(resamples-1)
		lo := int(pos)
		hi := min(lo+1, resamples-1)
		return means[lo] + (pos-float64(lo))*(means[hi]-means[lo])
	}
	return Interval{q(alpha / 2), q(1 - alpha/2)}
}
