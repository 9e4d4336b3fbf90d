package howplays

import (
	"math"

	"playtest/sim"
	"playtest/sim/model"
)

// Mapping turns a trace's leads into seat 0's chance of winning:
// σ(A + B·lead), lead in the hand heuristic's units, held within
// [1 − MaxUnproven, MaxUnproven]; a decided entry (±sim.TraceDecided: a
// forced result the search proved) is the winner's 1 or 0. Only a proof
// reads 100% or 0%.
type Mapping struct {
	// Source is MappingModel (the variant's learned model) or
	// MappingFitted (a logistic fitted to the traced games' outcomes).
	Source string  `json:"source"`
	A      float64 `json:"a"`
	B      float64 `json:"b"`
}

// Sources of a Mapping.
const (
	MappingModel  = "model"
	MappingFitted = "fitted"
)

// FromModel is the mapping of a learned model: a lead in hand units is
// seat 0's logit less seat 1's over the model's hand scale, so half of it
// times the scale is the logit of seat 0's chance, each seat's own view
// counting alike.
func FromModel(m *model.Model) Mapping {
	return Mapping{Source: MappingModel, B: m.HandScale / 2}
}

// MaxUnproven is the largest chance a lead without a proof maps to: a
// heuristic's lead, however large, leaves the bots room to throw the game
// away, and reads at most 99%.
const MaxUnproven = 0.99

// P is seat 0's chance of winning at a trace entry.
func (m Mapping) P(entry int32) float64 {
	switch {
	case entry >= sim.TraceDecided:
		return 1
	case entry <= -sim.TraceDecided:
		return 0
	}
	p := model.Sigmoid(m.A + m.B*float64(entry)/100)
	return max(1-MaxUnproven, min(MaxUnproven, p))
}

// Fit fits σ(A + B·lead) to seat 0's result (a win 1, a draw ½, a loss 0)
// at every undecided entry of the traces by maximum likelihood (Newton's
// method, with a small ridge on B so that leads that separate the
// outcomes perfectly still give a finite slope): a deterministic function
// of the traces and results alone, so shards, merges and resumes of a run
// fit the same mapping as one process.
func Fit(traces [][]int32, scores []float64) Mapping {
	var n, sumY float64
	for g, t := range traces {
		for _, e := range t {
			if e > -sim.TraceDecided && e < sim.TraceDecided {
				n++
				sumY += scores[g]
			}
		}
	}
	if n == 0 {
		return Mapping{Source: MappingFitted}
	}
	mean := math.Min(math.Max(sumY/n, 1e-3), 1-1e-3)
	a, b := math.Log(mean/(1-mean)), 0.0
	ridge := 1e-3 * n
	for range 50 {
		// Gradient and Hessian of the penalised negative log-likelihood.
		var ga, gb, haa, hab, hbb float64
		for g, t := range traces {
			y := scores[g]
			for _, e := range t {
				if e <= -sim.TraceDecided || e >= sim.TraceDecided {
					continue
				}
				x := float64(e) / 100
				p := model.Sigmoid(a + b*x)
				w := p * (1 - p)
				ga += p - y
				gb += (p - y) * x
				haa += w
				hab += w * x
				hbb += w * x * x
			}
		}
		gb += ridge * b
		hbb += ridge
		det := haa*hbb - hab*hab
		if det <= 0 || math.IsNaN(det) {
			break
		}
		da := (hbb*ga - hab*gb) / det
		db := (haa*gb - hab*ga) / det
		a, b = a-da, b-db
		if math.Abs(da) < 1e-10 && math.Abs(db) < 1e-10 {
			break
		}
	}
	return Mapping{Source: MappingFitted, A: round(a, 9), B: round(b, 9)}
}

// Probabilities maps a trace to seat 0's chance of winning before each
// decision, with the result's (1, ½ or 0) appended: len(trace)+1 values.
func (m Mapping) Probabilities(trace []int32, seat0Score float64, out []float64) []float64 {
	out = out[:0]
	for _, e := range trace {
		out = append(out, m.P(e))
	}
	return append(out, seat0Score)
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}
