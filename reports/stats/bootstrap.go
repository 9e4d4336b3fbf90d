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
	return percentiles(means, alpha)
}

// percentiles sorts values and returns their alpha/2 and 1 − alpha/2
// quantiles, interpolated.
func percentiles(values []float64, alpha float64) Interval {
	slices.Sort(values)
	q := func(p float64) float64 {
		pos := p * float64(len(values)-1)
		lo := int(pos)
		hi := min(lo+1, len(values)-1)
		return values[lo] + (pos-float64(lo))*(values[hi]-values[lo])
	}
	return Interval{q(alpha / 2), q(1 - alpha/2)}
}

// BootstrapStatistic returns the percentile bootstrap interval at
// confidence 1 − alpha of a statistic of n units (games, pairs): stat is
// given resamples resamplings of the units' indices, drawn with
// replacement from seed's stream, so the interval is reproducible. With
// fewer than two units the interval is the statistic itself.
func BootstrapStatistic(n, resamples int, alpha float64, seed uint64, stat func(sample []int) float64) Interval {
	return BootstrapStatistics(n, resamples, alpha, seed, 1, func(sample []int, out []float64) { out[0] = stat(sample) })[0]
}

// BootstrapStatistics is BootstrapStatistic for k statistics of the same
// resamples: stat writes the k statistics of a sample into out, so that
// work they share (a model refitted to the sample) is done once a
// resample.
func BootstrapStatistics(n, resamples int, alpha float64, seed uint64, k int, stat func(sample []int, out []float64)) []Interval {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	out := make([]Interval, k)
	row := make([]float64, k)
	if n < 2 || resamples < 1 {
		stat(all, row)
		for j, v := range row {
			out[j] = Interval{v, v}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74))
	values := make([][]float64, k)
	for j := range values {
		values[j] = make([]float64, resamples)
	}
	sample := make([]int, n)
	for r := range resamples {
		for i := range sample {
			sample[i] = rng.IntN(n)
		}
		stat(sample, row)
		for j, v := range row {
			values[j][r] = v
		}
	}
	for j := range out {
		out[j] = percentiles(values[j], alpha)
	}
	return out
}
