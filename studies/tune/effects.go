package tune

import (
	"math"

	"playtest/reports/stats"
)

// AxisEffect is each value of an axis with the mean of a measure over the
// candidates (or evaluations) that have it, its 95% interval and count.
type AxisEffect struct {
	Axis   string    `json:"axis"`
	Labels []string  `json:"labels"`
	Mean   []float64 `json:"mean"`
	Low    []float64 `json:"low"`
	High   []float64 `json:"high"`
	N      []int     `json:"n"`
}

func newEffect(axis string, labels []string) AxisEffect {
	n := len(labels)
	return AxisEffect{Axis: axis, Labels: labels, Mean: make([]float64, n), Low: make([]float64, n), High: make([]float64, n), N: make([]int, n)}
}

// set gives value v its mean, with a normal 95% interval from the values'
// variance over n of them.
func (e *AxisEffect) set(v int, mean, variance float64, n int) {
	half := 0.0
	if n > 1 {
		half = stats.Z95 * math.Sqrt(max(variance, 0)*float64(n)/float64(n-1)/float64(n))
	}
	e.Mean[v], e.Low[v], e.High[v], e.N[v] = mean, mean-half, mean+half, n
}

// raceEffects are each knob's effect in a race: its values' mean
// objective over the first round's candidates (every candidate played
// it, on the same deals).
func (res *Result) raceEffects(sp *space, cands []*Candidate) {
	if len(res.Rounds) == 0 {
		return
	}
	res.EffectMeasure = "mean objective over the candidates with the value after the first round (every candidate played it), 95% intervals over the candidates"
	first := map[string]float64{}
	for _, e := range res.Evaluations {
		if e.Round == 1 {
			first[e.Label] = e.Objective.Value
		}
	}
	res.Effects = nil
	for a, labels := range sp.Labels {
		eff := newEffect(res.Axes[a], labels)
		for v := range labels {
			var m stats.Moments
			for i, c := range cands {
				if x, ok := first[c.Label]; ok && sp.Points[i][a] == v {
					m.Add(x)
				}
			}
			if m.N > 0 {
				sd := m.SD()
				eff.set(v, m.Mean(), sd*sd*float64(m.N-1)/float64(max(m.N, 1)), m.N)
			}
		}
		res.Effects = append(res.Effects, eff)
	}
}
