package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ClopperPearson returns the exact (Clopper-Pearson) interval for k
// successes in n trials at confidence 1 − alpha: the Beta(k, n−k+1) and
// Beta(k+1, n−k) quantiles at alpha/2 and 1 − alpha/2. It is conservative:
// its coverage is at least 1 − alpha for every rate. With n = 0 it is
// [0, 1].
func ClopperPearson(k, n int, alpha float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	iv := Interval{0, 1}
	if k > 0 {
		iv.Low = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(alpha / 2)
	}
	if k < n {
		iv.High = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - alpha/2)
	}
	return iv
}

// BinomialTest returns the two-sided p-value of the exact binomial test of
// k successes in n trials against a rate of p: the probability, under p,
// of an outcome no more likely than k (the "minimum likelihood" p-value of
// R's binom.test, with the same relative tolerance for ties).
func BinomialTest(k, n int, p float64) float64 {
	if n <= 0 {
		return 1
	}
	b := distuv.Binomial{N: float64(n), P: p}
	pk := b.Prob(float64(k))
	const relErr = 1 + 1e-7
	total := 0.0
	for i := 0; i <= n; i++ {
		if q := b.Prob(float64(i)); q <= pk*relErr {
			total += q
		}
	}
	return math.Min(1, total)
}
