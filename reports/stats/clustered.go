package stats

import "math"

// ClusteredWilson returns a Wilson-type interval (at normal quantile z)
// for a mean in [0, 1] over observations that come in clusters, such as
// the positions of one game, which share its result and so are not
// independent: cluster i holds counts[i] observations summing to
// sums[i]. It is Wilson's interval with the number of observations
// replaced by an effective one, mean(1 − mean)/v, where v is the
// cluster-robust variance of the mean (Korn and Graubard's interval for
// clustered rates), at most the observations themselves. At a mean of 0
// or 1, or where the clusters do not spread, v says nothing, and the
// effective number is Kish's over the clusters, (Σn)²/Σn², as if each
// cluster were one observation: fourteen games whose positions were all
// lost then know what fourteen games know, not what their hundred
// positions would. With no observations it is [0, 1].
func ClusteredWilson(sums, counts []float64, z float64) Interval {
	var s, n, n2 float64
	for i := range sums {
		s += sums[i]
		n += counts[i]
		n2 += counts[i] * counts[i]
	}
	if n <= 0 {
		return Interval{0, 1}
	}
	mean := min(max(s/n, 0), 1)
	effective := n * n / n2
	if g := len(sums); g > 1 && mean > 0 && mean < 1 {
		v := 0.0
		for i := range sums {
			r := sums[i] - mean*counts[i]
			v += r * r
		}
		v *= float64(g) / float64(g-1) / (n * n)
		if v > 0 {
			effective = math.Min(n, mean*(1-mean)/v)
		}
	}
	return wilsonReal(mean, effective, z)
}
