package stats

import (
	"math"
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
	return Interval{quantile(values, alpha/2), quantile(values, 1-alpha/2)}
}

// quantile is the p quantile of sorted values, interpolated.
func quantile(sorted []float64, p float64) float64 {
	pos := min(max(p, 0), 1) * float64(len(sorted)-1)
	lo := int(pos)
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (pos-float64(lo))*(sorted[hi]-sorted[lo])
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
	out := make([]Interval, k)
	row := make([]float64, k)
	if n < 2 || resamples < 1 {
		stat(identity(n), row)
		for j, v := range row {
			out[j] = Interval{v, v}
		}
		return out
	}
	values := make([][]float64, k)
	for j := range values {
		values[j] = make([]float64, resamples)
	}
	resample(n, resamples, seed, func(r int, sample []int) {
		stat(sample, row)
		for j, v := range row {
			values[j][r] = v
		}
	})
	for j := range out {
		out[j] = percentiles(values[j], alpha)
	}
	return out
}

// identity is the sample of every unit once: 0 to n − 1.
func identity(n int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// resample draws resamples samples of n units with replacement from
// seed's stream and hands each to use with its number; the sample's
// memory is reused.
func resample(n, resamples int, seed uint64, use func(r int, sample []int)) {
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74)) // "boot"
	sample := make([]int, n)
	for r := range resamples {
		for i := range sample {
			sample[i] = rng.IntN(n)
		}
		use(r, sample)
	}
}

// BootstrapBCa returns the bias-corrected and accelerated (BCa) bootstrap
// interval at confidence 1 − alpha of a statistic of n units (Efron
// 1987): the percentile interval's ends moved by the resamples' median
// bias (z0) and by the statistic's skewness, from a jackknife over the
// units (a), so that a skewed or biased statistic, such as a standard
// deviation of skewed lengths, is covered about as often as promised.
// The resamples are drawn as BootstrapStatistic draws them; with fewer
// than three units the interval is the statistic itself.
func BootstrapBCa(n, resamples int, alpha float64, seed uint64, stat func(sample []int) float64) Interval {
	all := identity(n)
	theta := stat(all)
	if n < 3 || resamples < 1 {
		return Interval{theta, theta}
	}
	values := make([]float64, resamples)
	below := 0.0
	resample(n, resamples, seed, func(r int, sample []int) {
		values[r] = stat(sample)
		switch {
		case values[r] < theta:
			below++
		case values[r] == theta:
			below += 0.5
		}
	})
	normal := distuv.UnitNormal
	z0 := normal.Quantile(min(max(below/float64(resamples), 0.5/float64(resamples)), 1-0.5/float64(resamples)))
	// The jackknife: the statistic without each unit in turn.
	jack := make([]float64, n)
	rest := make([]int, n-1)
	mean := 0.0
	for i := range jack {
		rest = append(append(rest[:0], all[:i]...), all[i+1:]...)
		jack[i] = stat(rest)
		mean += jack[i] / float64(n)
	}
	var num, den float64
	for _, j := range jack {
		d := mean - j
		num += d * d * d
		den += d * d
	}
	a := 0.0
	if den > 0 {
		a = num / (6 * math.Pow(den, 1.5))
	}
	end := func(z float64) float64 {
		w := 1 - a*(z0+z)
		if w <= 0 { // an acceleration beyond the formula's reach: the extreme resample
			return normal.CDF(math.Copysign(math.Inf(1), z))
		}
		return normal.CDF(z0 + (z0+z)/w)
	}
	slices.Sort(values)
	return Interval{quantile(values, end(normal.Quantile(alpha/2))), quantile(values, end(normal.Quantile(1-alpha/2)))}
}
