package stats

import (
	"math"
	"slices"
)

// Z95 is the two-sided 95% normal quantile.
const Z95 = 1.959963984540054

// Interval is a confidence interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Wilson returns the Wilson score interval for k successes in n trials at
// normal quantile z (Z95 for 95%). With n = 0 it is [0, 1].
func Wilson(k, n int, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	return wilsonReal(float64(k)/float64(n), float64(n), z)
}

// WilsonMean returns Wilson's interval for a mean score in [0, 1] over n
// games (a win 1, a draw ½): the binomial variance bounds the score's, so
// it covers at least as well, and never collapses to a point at 0 or 1 the
// way a normal interval does. With n = 0 it is [0, 1].
func WilsonMean(mean float64, n int, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	return wilsonReal(mean, float64(n), z)
}

// WilsonTest returns the two-sided p-value of the score test that k
// successes in n trials come from a rate of ½: the test Wilson's interval
// inverts, so it is below 0.05 exactly when the 95% interval leaves ½ out.
// With n = 0 it is 1.
func WilsonTest(k, n int) float64 {
	if n <= 0 {
		return 1
	}
	score := math.Abs(float64(k)/float64(n)-0.5) / math.Sqrt(0.25/float64(n))
	return math.Min(1, math.Erfc(score/math.Sqrt2))
}

// Histogram counts integer values exactly. Its memory grows with the
// number of distinct values, not with the number of observations.
type Histogram struct {
	counts map[int]int
	n      int
	sum    int64
}

// Add records one value.
func (h *Histogram) Add(v int) {
	if h.counts == nil {
		h.counts = map[int]int{}
	}
	h.counts[v]++
	h.n++
	h.sum += int64(v)
}

// N returns the number of values recorded.
func (h *Histogram) N() int { return h.n }

// Mean returns the mean of the values (0 when empty).
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return 0
	}
	return float64(h.sum) / float64(h.n)
}

// Distinct returns the number of distinct values recorded.
func (h *Histogram) Distinct() int { return len(h.counts) }

// Values returns the distinct values in increasing order.
func (h *Histogram) Values() []int {
	vs := make([]int, 0, len(h.counts))
	for v := range h.counts {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}

// Count returns how many times v was recorded.
func (h *Histogram) Count(v int) int { return h.counts[v] }

// Quantile returns the q-quantile (0 ≤ q ≤ 1) by linear interpolation
// between order statistics (the "type 7" definition of R and NumPy), so the
// median of an even count is the mean of the middle two.
func (h *Histogram) Quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	pos := q * float64(h.n-1)
	lo := int(math.Floor(pos))
	frac := pos - float64(lo)
	a, b := h.orderStat(lo), h.orderStat(min(lo+1, h.n-1))
	return float64(a) + frac*float64(b-a)
}

// orderStat returns the i-th smallest value (0-based).
func (h *Histogram) orderStat(i int) int {
	seen := 0
	for _, v := range h.Values() {
		seen += h.counts[v]
		if i < seen {
			return v
		}
	}
	return 0
}

// Moments accumulates the mean and variance of a stream of numbers
// (Welford's method). Feed it in a fixed order for reproducible bits.
type Moments struct {
	N        int
	mean     float64
	m2       float64
	min, max float64
}

// Add records one value.
func (m *Moments) Add(x float64) {
	if m.N == 0 || x < m.min {
		m.min = x
	}
	if m.N == 0 || x > m.max {
		m.max = x
	}
	m.N++
	d := x - m.mean
	m.mean += d / float64(m.N)
	m.m2 += d * (x - m.mean)
}

// Mean returns the mean (0 when empty).
func (m *Moments) Mean() float64 { return m.mean }

// Min returns the least value (0 when empty).
func (m *Moments) Min() float64 { return m.min }

// Max returns the greatest value (0 when empty).
func (m *Moments) Max() float64 { return m.max }

// SD returns the sample standard deviation (0 with fewer than 2 values).
func (m *Moments) SD() float64 {
	if m.N < 2 {
		return 0
	}
	return math.Sqrt(m.m2 / float64(m.N-1))
}

// ShrunkInterval returns the normal interval for the mean at quantile z
// whose variance is shrunk toward prior by weight pseudo-values, so that a
// few values that happen to agree do not make it collapse.
func (m *Moments) ShrunkInterval(z, prior, weight float64) Interval {
	if m.N == 0 {
		return Interval{m.mean, m.mean}
	}
	sd := m.SD()
	n := float64(m.N)
	shrunk := (n*sd*sd + weight*prior) / (n + weight)
	half := z * math.Sqrt(shrunk/n)
	return Interval{m.mean - half, m.mean + half}
}

// MeanInterval returns the normal-approximation interval for the mean at
// quantile z.
func (m *Moments) MeanInterval(z float64) Interval {
	if m.N < 2 {
		return Interval{m.mean, m.mean}
	}
	half := z * m.SD() / math.Sqrt(float64(m.N))
	return Interval{m.mean - half, m.mean + half}
}
